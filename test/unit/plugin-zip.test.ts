// `npm run plugin:zip` (scripts/plugin-zip.mjs): the zip WordPress's "Upload Plugin" takes — one folder,
// blogctl-sync/, holding the plugin file byte for byte — read back here by its central directory, the way
// unzip tools and PHP's ZipArchive find entries, and the same bytes on every run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, inflateRawSync } from 'node:zlib';
import { afterAll, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'blogctl-plugin-zip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PLUGIN = readFileSync(new URL('../../wordpress-plugin/blogctl-sync/blogctl-sync.php', import.meta.url));

function makeZip(name: string): Buffer {
  const out = join(dir, name);
  execFileSync(process.execPath, [new URL('../../scripts/plugin-zip.mjs', import.meta.url).pathname, out], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return readFileSync(out);
}

/** Every entry, found through the end record and the central directory, its data inflated. */
function entries(zip: Buffer): { name: string; mode: number; data: Buffer; crc: number }[] {
  const end = zip.length - 22;
  expect(zip.readUInt32LE(end)).toBe(0x06054b50);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const found = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const mode = zip.readUInt32LE(at + 38) >>> 16;
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    expect(zip.readUInt32LE(local)).toBe(0x04034b50);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    expect(method).toBe(8);
    found.push({ name, mode, crc, data: inflateRawSync(zip.subarray(start, start + size)) });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return found;
}

it('holds blogctl-sync/blogctl-sync.php, byte for byte, as a regular file', () => {
  const [entry, ...more] = entries(makeZip('a.zip'));
  expect(more).toEqual([]);
  expect(entry!.name).toBe('blogctl-sync/blogctl-sync.php');
  expect(entry!.data.equals(PLUGIN)).toBe(true);
  expect(entry!.crc).toBe(crc32(PLUGIN));
  expect(entry!.mode).toBe(0o100644);
});

it('is the same bytes on every run', () => {
  expect(makeZip('b.zip').equals(makeZip('c.zip'))).toBe(true);
});

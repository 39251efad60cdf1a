// A file (or stdin) that is not UTF-8 is refused before anything is sent — exit 2, naming the file and the
// offset of the first bad byte — instead of being decoded with U+FFFD in place of each bad byte and published.
import { isUtf8 } from 'node:buffer';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { run } from '../../src/cli.js';
import { IO } from '../../src/output/io.js';
import { cliEnv, createFlags, tempConfigDir } from '../helpers/cli.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { decodeUtf8, firstInvalidUtf8Byte } from '../../src/lib/utf8.js';
import { UsageError } from '../../src/errors.js';

guardStrayOutput();

let server: Server;
let url: string;
const requests: string[] = [];

beforeAll(async () => {
  // Stands for both the service and the WordPress site: any request at all fails the test.
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

/** `prefix`, then a Latin-1 "é" (0xE9, not UTF-8 on its own), then `suffix`: the bad byte is at prefix's length. */
function latin1File(name: string, prefix: string, suffix: string): { path: string; offset: number } {
  const dir = tempConfigDir();
  const path = join(dir, name);
  const head = Buffer.from(prefix, 'utf8');
  writeFileSync(path, Buffer.concat([head, Buffer.from([0xe9]), Buffer.from(suffix, 'utf8')]));
  return { path, offset: head.length };
}

const env = () => ({
  BLOGCTL_CONFIG_DIR: tempConfigDir(),
  BLOGCTL_API_KEY: 'k-not-used',
  BLOGCTL_WP_PASSWORD: 'pw not used',
});

describe('a file that is not UTF-8: exit 2 naming it and the byte offset, nothing sent', () => {
  it.each([
    [
      'blog create -f',
      'params.json',
      '{"keyword": "caf',
      '", "language": "en"}',
      (path: string) => ['--base-url', url, 'blog', 'create', '-f', path, ...createFlags()],
      (path: string) => `-f ${path}`,
    ],
    [
      'wp publish FILE (Markdown)',
      'post.md',
      '---\ntitle: Caf',
      '\n---\nBody\n',
      (path: string) => ['wp', 'publish', '--url', url, '--username', 'u', path],
      (path: string) => path,
    ],
    [
      'wp publish --content-file',
      'body.html',
      '<p>Ä caf',
      '</p>',
      (path: string) => [
        'wp',
        'publish',
        '--url',
        url,
        '--username',
        'u',
        '--title',
        't',
        '--content-file',
        path,
      ],
      (path: string) => `--content-file ${path}`,
    ],
    [
      'wp publish -f',
      'post.json',
      '{"title": "caf',
      '", "content": "c"}',
      (path: string) => ['wp', 'publish', '--url', url, '--username', 'u', '-f', path],
      (path: string) => `-f ${path}`,
    ],
    [
      'wp settings replace -f',
      'sites.json',
      '[{"label": "Caf',
      '", "url": "https://x.test"}]',
      (path: string) => ['--base-url', url, 'wp', 'settings', 'replace', '-f', path, '--yes'],
      (path: string) => `-f ${path}`,
    ],
  ])('%s', async (_name, file, prefix, suffix, args, source) => {
    const { path, offset } = latin1File(file, prefix, suffix);
    const before = requests.length;
    const r = await runInProcess(args(path), { env: env() });
    expect(r.stderr).toBe(
      `error: ${source(path)} is not valid UTF-8 (byte offset ${offset}); save it as UTF-8\n`,
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(requests.length).toBe(before);
  });
});

describe('stdin that is not UTF-8', () => {
  it('blog create -f -: exit 2 naming stdin and the byte offset, nothing sent', async () => {
    const env = cliEnv({ BLOGCTL_CONFIG_DIR: tempConfigDir(), BLOGCTL_API_KEY: 'k-not-used' });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let err = '';
    stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    stdout.resume();
    stdin.end(Buffer.concat([Buffer.from('{"keyword": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]));
    const io = new IO({
      stdin,
      stdout,
      stderr,
      env,
      noColor: true,
      noInput: false,
      quiet: false,
      debug: false,
    });
    const before = requests.length;
    const code = await run(
      ['node', 'blogctl', '--base-url', url, 'blog', 'create', '-f', '-', ...createFlags()],
      {
        env,
        io,
      },
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(err).toBe('error: stdin is not valid UTF-8 (byte offset 16); save it as UTF-8\n');
    expect(code).toBe(2);
    expect(requests.length).toBe(before);
  });
});

describe('decodeUtf8', () => {
  it('decodes UTF-8 as Buffer does, a byte-order mark and 4-byte characters included', () => {
    const text = '\uFEFFcafé — 😀 \u{10FFFF}';
    expect(decodeUtf8(Buffer.from(text, 'utf8'), 'x')).toBe(text);
  });

  it.each([
    ['a lone continuation byte', [0x61, 0x80], 1],
    ['a truncated 2-byte sequence at the end', [0x61, 0x62, 0xc3], 2],
    ['a 2-byte lead followed by ASCII', [0xc3, 0x28], 0],
    ['an overlong "/" (C0 AF)', [0x61, 0xc0, 0xaf], 1],
    ['an overlong 3-byte form (E0 80 80)', [0xe0, 0x80, 0x80], 0],
    ['a surrogate (ED A0 80)', [0x61, 0x61, 0xed, 0xa0, 0x80], 2],
    ['above U+10FFFF (F4 90 80 80)', [0xf4, 0x90, 0x80, 0x80], 0],
    ['F5 and above', [0xf5, 0x80, 0x80, 0x80], 0],
    ['a 3-byte sequence cut by ASCII', [0xe2, 0x82, 0x41], 0],
    ['after a valid 4-byte character', [0xf0, 0x9f, 0x98, 0x80, 0xff], 4],
  ])('%s', (_name, bytes, offset) => {
    const buffer = Buffer.from(bytes);
    expect(firstInvalidUtf8Byte(buffer)).toBe(offset);
    expect(() => decodeUtf8(buffer, 'in.txt')).toThrow(
      new UsageError(`in.txt is not valid UTF-8 (byte offset ${offset}); save it as UTF-8`),
    );
  });

  it('agrees with buffer.isUtf8 on 3-byte inputs across the whole range', () => {
    const buffer = Buffer.alloc(3);
    for (let n = 0; n < 1 << 24; n += 97) {
      buffer.writeUIntBE(n, 0, 3);
      expect(firstInvalidUtf8Byte(buffer) === -1, buffer.toString('hex')).toBe(isUtf8(buffer));
    }
  });
});

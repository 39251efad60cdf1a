// The publish journal across processes, the way overlapping cron runs use it: a check-publish-record under
// the journal lock happens once however many runs overlap, concurrent appends never interleave, and a
// SIGKILL mid-append loses nothing that was acknowledged and never blocks the next run for long.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPublished, journalPath } from '../../src/publishing/journal.js';

let work: string;
let script: string;

// One child: `node child.mjs <config dir> <mode> <id>`; prints one line per acknowledged record.
const CHILD = `
import { recordPublished, withJournalLock, keySource, journalKey } from './journal.mjs';
const [dir, mode, id] = process.argv.slice(2);
const entry = (key, n) => ({
  site: 'https://blog.example.com', sourceKey: journalKey(keySource(key)), source: keySource(key),
  postId: n, link: 'https://blog.example.com/?p=' + n, status: 'draft', publishedAt: new Date().toISOString(),
});
if (mode === 'cron') {
  // The same publish from several overlapping runs: look, "publish" (100 ms), record.
  const outcome = await withJournalLock(dir, async (journal) => {
    if (journal.find('https://blog.example.com', 'key:weekly')) return 'already';
    await new Promise((r) => setTimeout(r, 100));
    journal.record(entry('weekly', Number(id)));
    return 'published';
  }, { staleMs: 2000 });
  process.stdout.write(outcome + '\\n');
} else if (mode === 'append') {
  for (let n = 0; n < 50; n++) await recordPublished(dir, entry(id + '-' + n, n), { staleMs: 2000 });
  process.stdout.write('done\\n');
} else if (mode === 'forever') {
  for (let n = 0; ; n++) {
    await recordPublished(dir, entry(id + '-' + n, n), { staleMs: 2000 });
    process.stdout.write(id + '-' + n + '\\n');
  }
}
`;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'blogctl-journal-proc-'));
  await build({
    entryPoints: [resolve(import.meta.dirname, '../../src/publishing/journal.ts')],
    outfile: join(work, 'journal.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
  script = join(work, 'child.mjs');
  writeFileSync(script, CHILD);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Child {
  kill(): void;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
  stdout(): string;
}

function child(dir: string, mode: string, id: string): Child {
  const proc = spawn(process.execPath, [script, dir, mode, id], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  proc.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return {
    kill: () => proc.kill('SIGKILL'),
    done: new Promise((r) => proc.on('close', (code) => r({ code, stdout, stderr }))),
    stdout: () => stdout,
  };
}

const lines = (dir: string): string[] => readFileSync(journalPath(dir), 'utf8').split('\n').filter(Boolean);

describe('journal across processes', () => {
  it('overlapping cron runs of one publish: exactly one publishes, the others find it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blogctl-journal-cron-'));
    const runs = await Promise.all(Array.from({ length: 6 }, (_, i) => child(dir, 'cron', String(i)).done));
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    expect(runs.map((r) => r.stdout.trim()).sort()).toEqual([
      'already',
      'already',
      'already',
      'already',
      'already',
      'published',
    ]);
    expect(lines(dir)).toHaveLength(1);
  });

  it('concurrent appends from many processes: every line whole, every entry found', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blogctl-journal-append-'));
    const runs = await Promise.all(Array.from({ length: 6 }, (_, i) => child(dir, 'append', `p${i}`).done));
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const all = lines(dir);
    expect(all).toHaveLength(300);
    for (const line of all) expect(() => JSON.parse(line)).not.toThrow();
    for (let p = 0; p < 6; p++)
      for (let n = 0; n < 50; n++)
        expect(findPublished(dir, 'https://blog.example.com', `key:p${p}-${n}`), `p${p}-${n}`).toBeDefined();
  });

  it('SIGKILL mid-append: every acknowledged entry survives, and the next run appends after a short wait', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blogctl-journal-kill-'));
    const writers = Array.from({ length: 3 }, (_, i) => child(dir, 'forever', `k${i}`));
    const deadline = Date.now() + 15_000;
    // Complete lines only: split() gives each writer's output a trailing '' that is no acknowledgement.
    const acked = (): number => writers.reduce((n, w) => n + w.stdout().split('\n').length - 1, 0);
    while (acked() < 60 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    for (const writer of writers) writer.kill();
    const acknowledged = (await Promise.all(writers.map((w) => w.done)))
      .flatMap((r) => r.stdout.split('\n'))
      .filter(Boolean);
    expect(acknowledged.length).toBeGreaterThanOrEqual(60);

    for (const id of acknowledged)
      expect(findPublished(dir, 'https://blog.example.com', `key:${id}`), id).toBeDefined();
    // At most the last line can be torn (only the lock holder appends).
    const text = readFileSync(journalPath(dir), 'utf8');
    const all = text.split('\n');
    all.slice(0, -1).forEach((line) => expect(() => JSON.parse(line), line).not.toThrow());

    // A killed writer may have left the lock: it goes stale (2 s here) and the next run proceeds.
    const started = Date.now();
    const next = await child(dir, 'append', 'after').done;
    expect(next.code, next.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(findPublished(dir, 'https://blog.example.com', 'key:after-49')).toBeDefined();
    for (const id of acknowledged)
      expect(findPublished(dir, 'https://blog.example.com', `key:${id}`)).toBeDefined();
  }, 40_000);
});

// The publish journal across processes, the way overlapping cron runs use it: a check-publish-record under
// the journal lock happens once however many runs overlap, concurrent appends never interleave, and a
// SIGKILL mid-append loses nothing that was acknowledged and never blocks the next run for long. Then the
// journal's idea of "the same publish", through the built CLI: the same source sent as the same post.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPublished, journalPath, sha256 } from '../../src/publishing/journal.js';
import { createFlags, runCli, tempConfigDir, type CliResult } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

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

describe('the same publish: the same source, sent as the same post', () => {
  let sandbox: TestSandbox;
  let wp: FakeWordPress;
  beforeAll(async () => {
    [sandbox, wp] = await Promise.all([startTestSandbox(), startFakeWordPress()]);
  });
  afterAll(async () => {
    await Promise.all([sandbox.close(), wp.close()]);
  });

  async function setup(): Promise<{ dir: string; run: (args: string[]) => Promise<CliResult> }> {
    const dir = tempConfigDir();
    const env = { BLOGCTL_CONFIG_DIR: dir, BLOGCTL_BASE_URL: sandbox.url, BLOGCTL_API_KEY: sandbox.apiKey };
    const add = await runCli(
      ['wp', 'sites', 'add', 's', '--url', wp.url, '--username', wp.username, '--password-stdin'],
      { env, input: `${wp.password}\n` },
    );
    expect(add.code).toBe(0);
    return { dir, run: (args) => runCli(args, { env, cwd: dir }) };
  }
  const titled = (title: string) => wp.posts.filter((p) => p.title === title);

  it('a file published with other post fields is another post; the same fields again are "already published"', async () => {
    const { dir, run } = await setup();
    writeFileSync(join(dir, 'post.md'), '---\ntitle: First post\n---\nHello.\n');
    const base = ['wp', 'publish', '--site', 's', '--content-file', 'post.md'];
    expect((await run(base)).code).toBe(0);
    const same = await run(base);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).toContain('already published');

    const different = [...base, '--title', 'A different post', '--status', 'publish'];
    const other = await run([...different, '--json']);
    expect(other.code, other.stderr).toBe(0);
    expect(JSON.parse(other.stdout)).toMatchObject({ alreadyPublished: false, status: 'publish' });
    expect(titled('A different post')).toHaveLength(1);
    // Only the status differs: another post too.
    const draft = await run([...base, '--title', 'A different post', '--json']);
    expect(JSON.parse(draft.stdout)).toMatchObject({ alreadyPublished: false, status: 'draft' });
    expect(titled('A different post')).toHaveLength(2);

    const again = await run(different);
    expect(again.stderr).toContain('already published');
    expect(titled('A different post')).toHaveLength(2);
    expect(titled('First post')).toHaveLength(1);
  });

  it('flags alone: the same title and content with another status are another post', async () => {
    const { run } = await setup();
    const base = ['wp', 'publish', '--site', 's', '--title', 'Flag post', '--content', '<p>f</p>'];
    expect((await run(base)).code).toBe(0);
    expect((await run(base)).stderr).toContain('already published');
    const published = await run([...base, '--status', 'publish']);
    expect(published.stderr).not.toContain('already published');
    expect(titled('Flag post')).toHaveLength(2);
  });

  it('--from-blog with the flags of `blog create --publish` is the same publish; with other flags it is not', async () => {
    const { run } = await setup();
    const created = await run([
      'blog',
      'create',
      ...createFlags('journal keys'),
      '--publish',
      's',
      '--status',
      'publish',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const { blog } = JSON.parse(created.stdout) as { blog: { _id: string; title: string } };
    const from = ['wp', 'publish', '--site', 's', '--from-blog', blog._id];
    const same = await run([...from, '--status', 'publish']);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).toContain('already published');
    const asDraft = await run(from);
    expect(asDraft.stderr).not.toContain('already published');
    expect(titled(blog.title)).toHaveLength(2);
  });

  it('--key stays the whole identity, whatever the post fields', async () => {
    const { run } = await setup();
    const base = ['wp', 'publish', '--site', 's', '--key', 'weekly-9', '--content', '<p>k</p>'];
    expect((await run([...base, '--title', 'Keyed one'])).code).toBe(0);
    const again = await run([...base, '--title', 'Keyed two', '--status', 'publish']);
    expect(again.stderr).toContain('already published');
    expect(titled('Keyed two')).toHaveLength(0);
  });

  it('an entry written before posts were fingerprinted is still honoured', async () => {
    const { dir, run } = await setup();
    const bytes = '<p>legacy</p>';
    const path = join(realpathSync(dir), 'old.html');
    writeFileSync(path, bytes);
    const legacyKey = `file:${path}:${sha256(bytes)}`;
    appendFileSync(
      journalPath(dir),
      `${JSON.stringify({ v: 1, site: wp.url, sourceKey: legacyKey, source: { kind: 'file', path, hash: sha256(bytes) }, postId: 7, link: `${wp.url}/?p=7`, status: 'draft', publishedAt: '2025-01-01T00:00:00.000Z' })}\n`,
    );
    const res = await run(['wp', 'publish', '--site', 's', '--title', 'Old', 'old.html']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('already published');
    expect(titled('Old')).toHaveLength(0);
  });
});

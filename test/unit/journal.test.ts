import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { registerSecret } from '../../src/output/redact.js';
import {
  blogSource,
  fileSource,
  findPublished,
  flagsSource,
  journalKey,
  journalPath,
  journalSite,
  keySource,
  legacyJournalKey,
  recordPublished,
  sha256,
  withJournalLock,
  type JournalEntry,
} from '../../src/publishing/journal.js';
import { buildPostDraft } from '../../src/publishing/publish-draft.js';
import { makeJob, postFingerprint } from '../../src/publishing/publish-job.js';

const SITE = 'https://blog.example.com';
const tempDir = (): string => mkdtempSync(join(tmpdir(), 'blogctl-journal-'));

function entry(overrides: Partial<JournalEntry> = {}): JournalEntry {
  const source = overrides.source ?? keySource('weekly-1');
  return {
    site: SITE,
    sourceKey: journalKey(source),
    source,
    postId: 42,
    link: `${SITE}/?p=42`,
    status: 'draft',
    publishedAt: '2025-01-02T03:04:05.000Z',
    ...overrides,
  };
}

describe('journalKey', () => {
  it('file: absolute path and the hash of the bytes', () => {
    const source = fileSource('posts/a.md', '# Hello');
    expect(source).toEqual({ kind: 'file', path: resolve('posts/a.md'), hash: sha256('# Hello') });
    expect(journalKey(source)).toBe(`file:${resolve('posts/a.md')}:${sha256('# Hello')}`);
    // An edited file is a different publish; the same bytes at the same path are the same one.
    expect(journalKey(fileSource('posts/a.md', '# Hello!'))).not.toBe(journalKey(source));
    expect(journalKey(fileSource(resolve('posts/a.md'), Buffer.from('# Hello')))).toBe(journalKey(source));
  });

  it('blog, key and flags', () => {
    expect(journalKey(blogSource('65f0c0ffee'))).toBe('blog:65f0c0ffee');
    expect(journalKey(keySource('weekly-2025-01'))).toBe('key:weekly-2025-01');
    const flags = journalKey(flagsSource('Title', '<p>Body</p>'));
    expect(flags).toBe(`content:${sha256(JSON.stringify(['Title', '<p>Body</p>']))}`);
    // Title and content are hashed as a pair: moving text between them is a different post.
    expect(journalKey(flagsSource('ab', 'c'))).not.toBe(journalKey(flagsSource('a', 'bc')));
  });

  it('journalSite: one spelling per WordPress', () => {
    expect(journalSite('https://Blog.Example.com/')).toBe('https://blog.example.com');
    expect(journalSite('https://blog.example.com:443/news//')).toBe('https://blog.example.com/news');
    expect(journalSite('http://user:pw@127.0.0.1:8080/wp/?x=1#y')).toBe('http://127.0.0.1:8080/wp');
    expect(journalSite('myblog')).toBe('myblog');
  });
});

describe('record and find', () => {
  it('finds what was recorded, per site and source; the latest entry wins', async () => {
    const dir = tempDir();
    expect(findPublished(dir, SITE, 'key:weekly-1')).toBeUndefined();
    await recordPublished(dir, entry());
    expect(findPublished(dir, SITE, 'key:weekly-1')).toMatchObject({ postId: 42, status: 'draft' });
    expect(findPublished(dir, 'https://other.example.com', 'key:weekly-1')).toBeUndefined();
    expect(findPublished(dir, SITE, 'key:weekly-2')).toBeUndefined();

    await recordPublished(dir, entry({ postId: 43, status: 'publish' }));
    expect(findPublished(dir, SITE, 'key:weekly-1')).toMatchObject({ postId: 43, status: 'publish' });
    const lines = readFileSync(journalPath(dir), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toEqual({ v: 1, ...entry() });
    expect(statSync(journalPath(dir)).mode & 0o777).toBe(0o600);
  });

  it('sees entries another process appended since the last read', async () => {
    const dir = tempDir();
    await recordPublished(dir, entry());
    expect(findPublished(dir, SITE, 'key:weekly-1')).toBeDefined();
    const other = entry({ source: keySource('other'), sourceKey: 'key:other' });
    appendFileSync(journalPath(dir), `${JSON.stringify({ v: 1, ...other })}\n`);
    expect(findPublished(dir, SITE, 'key:other')).toMatchObject({ postId: 42 });
  });

  it('skips a torn last line, and the next append starts a fresh line after it', async () => {
    const dir = tempDir();
    await recordPublished(dir, entry());
    const full = JSON.stringify({ v: 1, ...entry({ source: keySource('torn'), sourceKey: 'key:torn' }) });
    appendFileSync(journalPath(dir), full.slice(0, 40)); // a crash mid-append
    expect(findPublished(dir, SITE, 'key:weekly-1')).toBeDefined();
    expect(findPublished(dir, SITE, 'key:torn')).toBeUndefined();

    await recordPublished(dir, entry({ source: keySource('after'), sourceKey: 'key:after' }));
    const text = readFileSync(journalPath(dir), 'utf8');
    expect(text.split('\n')).toHaveLength(4); // good, torn, good, ''
    expect(findPublished(dir, SITE, 'key:after')).toBeDefined();
    expect(findPublished(dir, SITE, 'key:weekly-1')).toBeDefined();
    // A fresh reader (no cache) agrees.
    const copy = tempDir();
    writeFileSync(journalPath(copy), text);
    expect(findPublished(copy, SITE, 'key:after')).toBeDefined();
    expect(findPublished(copy, SITE, 'key:torn')).toBeUndefined();
  });

  it('a torn line of the same source never hides the complete one before it', async () => {
    const dir = tempDir();
    await recordPublished(dir, entry({ postId: 1 }));
    const newer = JSON.stringify({ v: 1, ...entry({ postId: 2 }) });
    appendFileSync(journalPath(dir), newer.slice(0, newer.indexOf('"postId"')));
    expect(findPublished(dir, SITE, 'key:weekly-1')).toMatchObject({ postId: 1 });
    await recordPublished(dir, entry({ source: keySource('x'), sourceKey: 'key:x' }));
    expect(findPublished(dir, SITE, 'key:weekly-1')).toMatchObject({ postId: 1 });
  });

  it('ignores garbage and foreign lines instead of failing', () => {
    const dir = tempDir();
    writeFileSync(
      journalPath(dir),
      ['{not json', '[]', 'null', '{"site":1}', JSON.stringify({ v: 1, ...entry() }), ''].join('\n'),
    );
    expect(findPublished(dir, SITE, 'key:weekly-1')).toMatchObject({ postId: 42 });
  });

  it('never writes credentials: userinfo is stripped and registered secrets are redacted', async () => {
    const dir = tempDir();
    const secret = 'journal-secret-Qw8Er7Ty6';
    registerSecret(secret);
    await recordPublished(
      dir,
      entry({
        site: `https://admin:${encodeURIComponent(secret)}@blog.example.com`,
        link: `https://admin:pw12345@blog.example.com/?p=42`,
        source: keySource(`oops ${secret}`),
        sourceKey: `key:oops ${secret}`,
      }),
    );
    const text = readFileSync(journalPath(dir), 'utf8');
    expect(text).not.toContain(secret);
    expect(text).not.toContain(Buffer.from(secret).toString('base64'));
    expect(text).not.toContain('pw12345');
    expect(JSON.parse(text)).toMatchObject({
      site: 'https://blog.example.com/',
      link: 'https://blog.example.com/?p=42',
    });
  });

  it('a session writes records in groups, in order and whole; each is on disk when its promise settles', async () => {
    const dir = tempDir();
    const synced: string[] = [];
    await withJournalLock(dir, async (journal) => {
      const pending = [];
      for (let i = 0; i < 50; i++) {
        const source = keySource(`batch-${i}`);
        pending.push(
          journal.record(entry({ source, sourceKey: journalKey(source), postId: i })).then(() => {
            // In the file once its promise settles, whatever group it was written with.
            const lines = readFileSync(journalPath(dir), 'utf8').trimEnd().split('\n');
            expect(lines.map((l) => (JSON.parse(l) as JournalEntry).postId)).toContain(i);
            synced.push(`batch-${i}`);
          }),
        );
        // The records of one tick wait for the end of it, to share the group's one write and fsync.
        if (i === 9) await Promise.all(pending);
      }
      await Promise.all(pending);
    });
    expect(synced).toHaveLength(50);
    const lines = readFileSync(journalPath(dir), 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as JournalEntry).postId)).toEqual([...Array(50).keys()]);
    expect(findPublished(dir, SITE, 'key:batch-49')).toMatchObject({ postId: 49 });
  });

  it('a record waits a few milliseconds for company, then is written anyway; flush() writes it at once', async () => {
    const dir = tempDir();
    await withJournalLock(dir, async (journal) => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        let written = false;
        const first = journal.record(entry()).then(() => (written = true));
        await new Promise((resolve) => setImmediate(resolve));
        expect(written).toBe(false);
        expect(existsSync(journalPath(dir))).toBe(false);
        // The wait ends: written without anyone asking.
        vi.advanceTimersByTime(5);
        await first;
        expect(findPublished(dir, SITE, 'key:weekly-1')).toMatchObject({ postId: 42 });
        // With the clock stopped, only flush() can write this one.
        const source = keySource('flushed');
        const second = journal.record(entry({ source, sourceKey: journalKey(source), postId: 43 }));
        journal.flush();
        await second;
        expect(findPublished(dir, SITE, 'key:flushed')).toMatchObject({ postId: 43 });
      } finally {
        vi.useRealTimers();
      }
    });
  });

  it('a group written after another writer appended (or tore a line) starts on a line of its own', async () => {
    const dir = tempDir();
    await withJournalLock(dir, async (journal) => {
      await journal.record(entry({ postId: 1 }));
      // Not through the session: a torn fragment the session did not write.
      appendFileSync(journalPath(dir), '{"v":1,"site":"torn');
      const source = keySource('after-torn');
      await Promise.all([
        journal.record(entry({ source, sourceKey: journalKey(source), postId: 2 })),
        journal.record(entry({ postId: 3 })),
      ]);
    });
    const lines = readFileSync(journalPath(dir), 'utf8').split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[1]).toBe('{"v":1,"site":"torn');
    expect(lines[4]).toBe('');
    expect(findPublished(dir, SITE, 'key:after-torn')).toMatchObject({ postId: 2 });
    expect(findPublished(dir, SITE, 'key:weekly-1')).toMatchObject({ postId: 3 });
  });

  it('a record nobody waits for is still in the journal when the session ends', async () => {
    const dir = tempDir();
    await withJournalLock(dir, async (journal) => {
      void journal.record(entry());
    });
    expect(findPublished(dir, SITE, 'key:weekly-1')).toMatchObject({ postId: 42 });
  });

  it('a session reads the journal once and answers from what it recorded, before it is on disk', async () => {
    const dir = tempDir();
    await recordPublished(dir, entry({ postId: 1 }));
    const other = keySource('other');
    let inSession: JournalEntry | undefined;
    await withJournalLock(dir, async (journal) => {
      expect(journal.find(SITE, 'key:weekly-1')).toMatchObject({ postId: 1 });
      expect(journal.find(SITE, journalKey(other))).toBeUndefined();
      // Lazy records: not written yet, and already the answer.
      void journal.record(entry({ postId: 2, link: 'https://me:pw@blog.example.com/?p=2' }));
      void journal.record(entry({ source: other, sourceKey: journalKey(other), postId: 3 }));
      // Only the entry from before the session is on disk.
      expect(readFileSync(journalPath(dir), 'utf8').trimEnd().split('\n')).toHaveLength(1);
      // What the file will say: the link without its credentials.
      expect(journal.find(SITE, 'key:weekly-1')).toMatchObject({
        postId: 2,
        link: 'https://blog.example.com/?p=2',
      });
      expect(journal.find(SITE, journalKey(other))).toMatchObject({ postId: 3 });
      inSession = journal.find(SITE, 'key:weekly-1');
    });
    expect(findPublished(dir, SITE, 'key:weekly-1')).toEqual(inSession);
    expect(findPublished(dir, SITE, journalKey(other))).toMatchObject({ postId: 3 });
  });

  it('refuses an entry without its required fields', async () => {
    const dir = tempDir();
    await expect(recordPublished(dir, { ...entry(), link: undefined as unknown as string })).rejects.toThrow(
      /link must be a string/,
    );
    await expect(recordPublished(dir, entry({ site: '' }))).rejects.toThrow(/required/);
  });
});

describe('locking', () => {
  it('withJournalLock runs overlapping check-publish-record one after the other', async () => {
    const dir = tempDir();
    let published = 0;
    const publishOnce = () =>
      withJournalLock(dir, async (journal) => {
        if (journal.find(SITE, 'key:weekly-1')) return 'already';
        await new Promise((r) => setTimeout(r, 50)); // the request
        published++;
        journal.record(entry());
        return 'published';
      });
    const results = await Promise.all([publishOnce(), publishOnce(), publishOnce()]);
    expect(results.sort()).toEqual(['already', 'already', 'published']);
    expect(published).toBe(1);
  });

  it('gives up after waitMs with an "unavailable" error, and a stale lock is taken over', async () => {
    const dir = tempDir();
    let release!: () => void;
    const held = withJournalLock(dir, () => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 20));
    await expect(recordPublished(dir, entry(), { waitMs: 200 })).rejects.toMatchObject({
      exitCode: 7,
      message: expect.stringMatching(/another blogctl is publishing/),
    });
    release();
    await held;

    // A lock directory left by a process that died (old mtime) is stale: taken over.
    const { mkdirSync, utimesSync } = await import('node:fs');
    mkdirSync(`${journalPath(dir)}.lock`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${journalPath(dir)}.lock`, old, old);
    await recordPublished(dir, entry({ postId: 7 }), { waitMs: 2_000 });
    expect(findPublished(dir, SITE, 'key:weekly-1')).toMatchObject({ postId: 7 });
  });
});

// How fast lookups are is the benchmark's business (npm run bench publishes 500 posts through the journal);
// this checks what the cache must keep right while it makes them fast.
describe('a large journal', () => {
  const line = (i: number, site = `https://site-${i % 5}.example.com`): string => {
    const source = fileSource(`/srv/posts/post-${i}.md`, `content ${i}`);
    return JSON.stringify({
      v: 1,
      ...entry({ site, source, sourceKey: journalKey(source), postId: i, link: `${site}/?p=${i}` }),
    });
  };
  const keyOf = (i: number): string => journalKey(fileSource(`/srv/posts/post-${i}.md`, `content ${i}`));

  it('answers from 10,000 entries, sees lines appended by another process, restarts on a replaced file', () => {
    const dir = tempDir();
    const lines = Array.from({ length: 10_000 }, (_, i) => line(i));
    writeFileSync(journalPath(dir), `${lines.join('\n')}\n`);
    for (let i = 0; i < 10_000; i += 499)
      expect(findPublished(dir, `https://site-${i % 5}.example.com`, keyOf(i))).toMatchObject({ postId: i });
    // The right key on the wrong site is not a match.
    expect(findPublished(dir, 'https://site-1.example.com', keyOf(9999))).toBeUndefined();
    expect(findPublished(dir, 'https://site-4.example.com', keyOf(10_000))).toBeUndefined();

    // Another process appends (the cache read the file up to its old end, and remembered a miss).
    appendFileSync(journalPath(dir), `${line(10_000, 'https://site-4.example.com')}\n`);
    expect(findPublished(dir, 'https://site-4.example.com', keyOf(10_000))).toMatchObject({ postId: 10_000 });

    // Replaced by a shorter file: what the cache held is gone.
    const replacement = join(dir, 'replacement.jsonl');
    writeFileSync(replacement, `${line(3)}\n`);
    renameSync(replacement, journalPath(dir));
    expect(findPublished(dir, 'https://site-3.example.com', keyOf(3))).toMatchObject({ postId: 3 });
    expect(findPublished(dir, 'https://site-4.example.com', keyOf(9999))).toBeUndefined();
  });
});

describe('the identity of a post', () => {
  const layer = (values: Record<string, unknown>) => ({ values, names: {} });
  const now = new Date('2026-01-01T00:00:00Z');

  it('the fingerprint covers every field as sent, not the order they were given in', () => {
    const a = buildPostDraft([layer({ title: 'T', content: 'c', status: 'draft', meta: { a: 1, b: 2 } })], {
      now,
    });
    const b = buildPostDraft([layer({ meta: { b: 2, a: 1 }, status: 'draft', content: 'c', title: 'T' })], {
      now,
    });
    expect(postFingerprint(a)).toBe(postFingerprint(b));
    for (const change of [
      { title: 'T2' },
      { status: 'publish' },
      { slug: 's' },
      { categories: ['News'] },
      { meta: { a: 1, b: 3 } },
    ]) {
      const other = buildPostDraft(
        [layer({ title: 'T', content: 'c', status: 'draft', meta: { a: 1, b: 2 }, ...change })],
        { now },
      );
      expect(postFingerprint(other), JSON.stringify(change)).not.toBe(postFingerprint(a));
    }
    expect(postFingerprint(a, '/img/a.png')).not.toBe(postFingerprint(a));
  });

  it('makeJob adds it to every source but an explicit --key, and keeps the older key for the journal', async () => {
    const spec = { name: 'flags', layers: [layer({ title: 'T', content: 'c' })] };
    const flags = await makeJob({ ...spec, source: (c) => flagsSource(c.title, c.content) }, { now });
    expect(flags.sourceKey).toBe(`${journalKey(flagsSource('T', 'c'))}#post:${postFingerprint(flags.draft)}`);
    expect(flags.legacySourceKey).toBe(legacyJournalKey(flagsSource('T', 'c')));
    const keyed = await makeJob({ ...spec, source: keySource('weekly') }, { now });
    expect(keyed.sourceKey).toBe('key:weekly');
    expect(keyed.legacySourceKey).toBeUndefined();
  });
});

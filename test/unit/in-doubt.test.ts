// The in-doubt log (`in-doubt.jsonl`): which publishes it leaves in doubt, how it survives a torn last line,
// how a lock session writes it (each doubt on disk before it resolves, concurrent doubts sharing writes and
// fsyncs) and leaves it small, and how it reads without the lock.
import { appendFileSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { inDoubtPath, readInDoubt, type InDoubtRecord } from '../../src/publishing/in-doubt.js';
import { journalKey, keySource, withJournalLock } from '../../src/publishing/journal.js';
import { inDoubtKeys } from '../helpers/in-doubt.js';

// Every fsync the writer starts, counted: the grouping is the point of the log.
const fsyncs = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const fsync = (fd: number, callback: (error: NodeJS.ErrnoException | null) => void): void => {
    fsyncs.count++;
    fs.fsync(fd, callback);
  };
  return { ...fs, default: { ...fs, fsync }, fsync };
});

const SITE = 'https://blog.example.com';
const tempDir = (): string => mkdtempSync(join(tmpdir(), 'blogctl-doubt-'));

function record(name: string, overrides: Partial<InDoubtRecord> = {}): InDoubtRecord {
  const source = keySource(name);
  return {
    site: SITE,
    sourceKey: journalKey(source),
    source,
    idempotencyKey: `key-of-${name}`,
    title: `Post ${name}`,
    sentAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const lines = (dir: string): Record<string, unknown>[] =>
  readFileSync(inDoubtPath(dir), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('what is in doubt', () => {
  it('a key whose latest line is a doubt line; settled keys are not, and the session sees its own lines', async () => {
    const dir = tempDir();
    await withJournalLock(dir, async (journal) => {
      expect(journal.findDoubt(SITE, 'key:a')).toBeUndefined();
      await Promise.all([journal.doubt(record('a')), journal.doubt(record('b'))]);
      journal.settle(SITE, 'key:a');
      expect(journal.findDoubt(SITE, 'key:a')).toBeUndefined();
      expect(journal.findDoubt(SITE, 'key:b')).toEqual(record('b'));
      expect(journal.findDoubt('https://other.example', 'key:b')).toBeUndefined();
      journal.settle(SITE, 'key:b');
      // Doubted again (a --force publish that got no answer either): the latest line counts, and the
      // settled line waiting for the session's end is dropped.
      await journal.doubt(record('a', { idempotencyKey: 'second' }));
      expect(journal.findDoubt(SITE, 'key:a')?.idempotencyKey).toBe('second');
      // Settling what is not in doubt writes nothing.
      journal.settle(SITE, 'key:never');
      await journal.doubt(record('c'));
      // The lines as written so far: settled lines wait for the session's end.
      expect(lines(dir)).toEqual([
        { v: 1, kind: 'doubt', ...record('a') },
        { v: 1, kind: 'doubt', ...record('b') },
        { v: 1, kind: 'doubt', ...record('a', { idempotencyKey: 'second' }) },
        { v: 1, kind: 'doubt', ...record('c') },
      ]);
    });
    // Compacted at the end: b was settled, a (doubted again) and c were not.
    expect(lines(dir)).toEqual([
      { v: 1, kind: 'doubt', ...record('a', { idempotencyKey: 'second' }) },
      { v: 1, kind: 'doubt', ...record('c') },
    ]);
    expect(statSync(inDoubtPath(dir)).mode & 0o777).toBe(0o600);
    expect(readInDoubt(dir, SITE, 'key:a')?.idempotencyKey).toBe('second');
    expect(readInDoubt(dir, SITE, 'key:b')).toBeUndefined();
    expect(inDoubtKeys(dir).sort()).toEqual(['key:a', 'key:c']);
  });

  it('a later session finds what an earlier one left in doubt, and can settle it', async () => {
    const dir = tempDir();
    await withJournalLock(dir, (journal) => journal.doubt(record('a')));
    await withJournalLock(dir, async (journal) => {
      expect(journal.findDoubt(SITE, 'key:a')).toEqual(record('a'));
      journal.settle(SITE, 'key:a');
    });
    expect(readInDoubt(dir, SITE, 'key:a')).toBeUndefined();
    expect(inDoubtKeys(dir)).toEqual([]);
  });

  it('ignores garbage, foreign lines and doubt lines without their fields', () => {
    const dir = tempDir();
    const { idempotencyKey: _key, ...partial } = record('c');
    writeFileSync(
      inDoubtPath(dir),
      [
        '{not json',
        '[]',
        'null',
        '{"site":1}',
        JSON.stringify({ v: 1, kind: 'doubt', ...partial }),
        JSON.stringify({ v: 1, kind: 'other', ...record('d') }),
        JSON.stringify({ v: 1, kind: 'doubt', ...record('a') }),
        '',
      ].join('\n'),
    );
    expect(readInDoubt(dir, SITE, 'key:a')).toEqual(record('a'));
    expect(readInDoubt(dir, SITE, 'key:c')).toBeUndefined();
    expect(readInDoubt(dir, SITE, 'key:d')).toBeUndefined();
  });
});

describe('a torn last line (a crash mid-append)', () => {
  it('is skipped: a torn settled line does not settle, a torn doubt line is no doubt', async () => {
    const dir = tempDir();
    await withJournalLock(dir, async (journal) => {
      await journal.doubt(record('a'));
    });
    const settled = JSON.stringify({ v: 1, kind: 'settled', site: SITE, sourceKey: 'key:a', at: 'x' });
    appendFileSync(inDoubtPath(dir), settled.slice(0, -1)); // all but the closing brace and newline
    expect(readInDoubt(dir, SITE, 'key:a')).toEqual(record('a'));
    expect(inDoubtKeys(dir)).toEqual(['key:a']);

    const torn = tempDir();
    const doubt = JSON.stringify({ v: 1, kind: 'doubt', ...record('b') });
    writeFileSync(inDoubtPath(torn), doubt); // complete JSON, but no newline: not known to be whole
    expect(readInDoubt(torn, SITE, 'key:b')).toBeUndefined();
  });

  it('the next append starts a fresh line, and the session end drops the fragment', async () => {
    const dir = tempDir();
    await withJournalLock(dir, (journal) => journal.doubt(record('a')));
    const fragment = JSON.stringify({ v: 1, kind: 'doubt', ...record('torn') }).slice(0, 40);
    appendFileSync(inDoubtPath(dir), fragment);
    await withJournalLock(dir, async (journal) => {
      expect(journal.findDoubt(SITE, 'key:a')).toEqual(record('a'));
      await journal.doubt(record('b'));
      const text = readFileSync(inDoubtPath(dir), 'utf8');
      expect(text.split('\n')).toHaveLength(4); // good, torn, good, ''
      expect(readInDoubt(dir, SITE, 'key:b')).toEqual(record('b'));
    });
    // Rewritten with the outstanding doubts alone.
    expect(lines(dir)).toEqual([
      { v: 1, kind: 'doubt', ...record('a') },
      { v: 1, kind: 'doubt', ...record('b') },
    ]);
  });
});

describe('the end of a session', () => {
  it('empties the log when nothing is left in doubt', async () => {
    const dir = tempDir();
    await withJournalLock(dir, async (journal) => {
      await Promise.all(['a', 'b', 'c'].map((n) => journal.doubt(record(n))));
      for (const n of ['a', 'b', 'c']) journal.settle(SITE, `key:${n}`);
    });
    expect(readFileSync(inDoubtPath(dir), 'utf8')).toBe('');
    expect(statSync(inDoubtPath(dir)).mode & 0o777).toBe(0o600);
  });

  it('keeps the outstanding doubt lines alone, byte for byte', async () => {
    const dir = tempDir();
    await withJournalLock(dir, async (journal) => {
      await Promise.all(['a', 'b', 'c'].map((n) => journal.doubt(record(n))));
      journal.settle(SITE, 'key:b');
    });
    const kept = readFileSync(inDoubtPath(dir), 'utf8');
    expect(kept).toBe(
      `${['a', 'c'].map((n) => JSON.stringify({ v: 1, kind: 'doubt', ...record(n) })).join('\n')}\n`,
    );
    // Nothing to drop: the next session leaves the file alone.
    const { ino } = statSync(inDoubtPath(dir));
    await withJournalLock(dir, async (journal) => void journal.find(SITE, 'key:a'));
    expect(statSync(inDoubtPath(dir)).ino).toBe(ino);
    expect(readFileSync(inDoubtPath(dir), 'utf8')).toBe(kept);
  });

  it('a session that never doubts creates no log, and still compacts one left by a crash', async () => {
    const dir = tempDir();
    await withJournalLock(dir, async () => undefined);
    expect(existsSync(inDoubtPath(dir))).toBe(false);
    // A crash after the settled line, before the session's end.
    writeFileSync(
      inDoubtPath(dir),
      `${JSON.stringify({ v: 1, kind: 'doubt', ...record('a') })}\n${JSON.stringify({ v: 1, kind: 'settled', site: SITE, sourceKey: 'key:a', at: 'x' })}\n`,
    );
    await withJournalLock(dir, async () => undefined);
    expect(readFileSync(inDoubtPath(dir), 'utf8')).toBe('');
  });

  it('a doubt after the session has ended is refused: nothing may be sent on it', async () => {
    const dir = tempDir();
    let late: ((r: InDoubtRecord) => Promise<void>) | undefined;
    await withJournalLock(dir, async (journal) => {
      late = (r) => journal.doubt(r);
    });
    await expect(late!(record('a'))).rejects.toThrow(/session has ended/);
    expect(inDoubtKeys(dir)).toEqual([]);
  });
});

describe('writing', () => {
  it('the doubts of one tick share one write and one fsync, and each resolves only once it is on disk', async () => {
    const dir = tempDir();
    await withJournalLock(dir, async (journal) => {
      const before = fsyncs.count;
      const group = (from: number, count: number): Promise<void>[] =>
        Array.from({ length: count }, (_, k) =>
          journal.doubt(record(`batch-${from + k}`)).then(() => {
            // Resolved only after an fsync that began once the line was written.
            expect(fsyncs.count).toBeGreaterThan(before);
            expect(lines(dir).map((l) => l['sourceKey'])).toContain(`key:batch-${from + k}`);
          }),
        );
      const first = group(0, 50);
      // Nothing is written before the end of the tick: the 50 lines go in one write.
      expect(existsSync(inDoubtPath(dir))).toBe(false);
      await Promise.all(first);
      expect(fsyncs.count - before).toBe(1);
      // The next ones: one more group, written after the first, whole lines in order.
      await Promise.all(group(50, 30));
      expect(fsyncs.count - before).toBe(2);
      expect(lines(dir).map((l) => l['sourceKey'])).toEqual(
        Array.from({ length: 80 }, (_, i) => `key:batch-${i}`),
      );

      // Settled lines are not waited for; the session's end syncs them with the rest.
      for (let i = 0; i < 80; i++) journal.settle(SITE, `key:batch-${i}`);
    });
    expect(readFileSync(inDoubtPath(dir), 'utf8')).toBe('');
  });
});

describe('reading without the lock', () => {
  it('sees what a session holding the lock has written, before that session ends', async () => {
    const dir = tempDir();
    let release!: () => void;
    let written!: () => void;
    const wrote = new Promise<void>((r) => (written = r));
    const held = withJournalLock(dir, async (journal) => {
      await journal.doubt(record('a'));
      written();
      await new Promise<void>((r) => (release = r));
      journal.settle(SITE, 'key:a');
    });
    await wrote;
    expect(readInDoubt(dir, SITE, 'key:a')).toEqual(record('a'));
    // A line being appended (no newline yet) is not read.
    appendFileSync(inDoubtPath(dir), '{"v":1,"kind":"settled","site"');
    expect(readInDoubt(dir, SITE, 'key:a')).toEqual(record('a'));
    release();
    await held;
    expect(readInDoubt(dir, SITE, 'key:a')).toBeUndefined();
  });

  it('reads nothing from a config dir without a log', () => {
    expect(readInDoubt(tempDir(), SITE, 'key:a')).toBeUndefined();
  });
});

// The git commit a run's sources are at, and what the repository's history says about other commits: the
// sync records the commit of each write, and a run of an older commit (a CI job re-run) changes nothing
// (publishing/sync/stale-run.ts). Asks the `git` program, never a shell: each call has a bounded time and
// output, and a missing or failing git means "no commit known", never a failed run.
import { execFile } from 'node:child_process';
import { findGitRoot } from './git-root.js';

/** A commit and its committer date (seconds since 1970), as git has them. */
interface Commit {
  sha: string;
  /** The committer date, in seconds: what orders commits when history cannot (a shallow clone). */
  date: number;
}

/** What the repository's history can answer about commits the site recorded. */
export interface CommitHistory {
  /** The commit the sources are at (HEAD). */
  readonly head: Commit;
  /** Of `shas`, the commits this clone holds. */
  known(shas: string[]): Promise<Set<string>>;
  /** Of `shas` (all known), those HEAD is neither equal to nor a descendant of (newer ones, or other branches'). */
  notBehind(shas: string[]): Promise<string[]>;
  /** Whether HEAD is an ancestor of `sha` (a known commit other than HEAD): HEAD is the older commit. */
  headIsAncestorOf(sha: string): Promise<boolean>;
  /** Whether this clone is shallow (history cut: `git clone --depth`). */
  shallow(): Promise<boolean>;
}

/** Each git call's bound: a repository answers these in milliseconds; a stuck one must not hold the run. */
const GIT_TIMEOUT_MS = 15_000;
/** Every answer read is a few lines of hashes at most. */
const MAX_OUTPUT = 1 << 20;
const SHA_RE = /^[0-9a-f]{40}$/;

/** git's answer: `code` is its exit code (undefined when it did not run, or ran out of time). */
interface GitAnswer {
  ok: boolean;
  code?: number;
  stdout: string;
  stderr: string;
  /** The git program was not found. */
  missing?: boolean;
}

function git(root: string, args: string[], input?: string): Promise<GitAnswer> {
  return new Promise((resolve) => {
    const child = execFile(
      'git',
      args,
      {
        cwd: root,
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: MAX_OUTPUT,
        encoding: 'utf8',
        windowsHide: true,
        // Never a pager, never a prompt for credentials: these calls only read the local repository.
        env: { ...process.env, GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
      },
      (error, stdout, stderr) => {
        if (!error) return resolve({ ok: true, code: 0, stdout, stderr });
        const code = typeof error.code === 'number' && !error.killed ? error.code : undefined;
        resolve({
          ok: false,
          ...(code !== undefined && { code }),
          ...(error.code === 'ENOENT' && { missing: true }),
          stdout: stdout ?? '',
          stderr: stderr ?? '',
        });
      },
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input ?? '');
  });
}

/**
 * The history of the git work tree around `dir`, with its HEAD; undefined outside git, in a repository
 * without a commit yet, or one git does not take for a repository. `problem` says why git could not answer
 * about a repository it should read (not installed; `safe.directory` refusing another user's), for a warning.
 */
export async function gitHistory(
  dir: string,
): Promise<{ history?: CommitHistory; problem?: string } | undefined> {
  const root = findGitRoot(dir);
  if (!root) return undefined;
  const head = await git(root, ['show', '-s', '--format=%H %ct', 'HEAD']);
  const [sha, seconds] = head.stdout.trim().split(' ');
  if (head.ok && sha && SHA_RE.test(sha) && /^\d+$/.test(seconds ?? ''))
    return { history: historyAt(root, { sha, date: Number(seconds) }) };
  if (head.missing)
    return { problem: `git is not installed (or not on PATH), so the commit of ${root} is unknown` };
  if (head.stderr.includes('safe.directory'))
    return {
      problem: `git refuses to read ${root}, owned by another user (git config --global --add safe.directory ${root})`,
    };
  return {};
}

function historyAt(root: string, head: Commit): CommitHistory {
  let shallow: Promise<boolean> | undefined;
  return {
    head,
    async known(shas) {
      const asked = shas.filter((s) => SHA_RE.test(s));
      if (!asked.length) return new Set();
      // One call for them all: `<sha> commit <size>` for each held, `<sha> missing` otherwise.
      const answer = await git(root, ['cat-file', '--batch-check'], asked.map((s) => `${s}\n`).join(''));
      const held = new Set<string>();
      if (!answer.ok) return held;
      for (const line of answer.stdout.split('\n')) {
        const [sha, type] = line.split(' ');
        if (sha && type === 'commit') held.add(sha);
      }
      return held;
    },
    async notBehind(shas) {
      const asked = shas.filter((s) => SHA_RE.test(s) && s !== head.sha);
      if (!asked.length) return [];
      // Nothing reachable from them but not from HEAD: every one is HEAD or behind it (one call, the usual case).
      const ahead = await git(root, ['rev-list', '--max-count=1', ...asked, '--not', head.sha]);
      if (ahead.ok && ahead.stdout.trim() === '') return [];
      const out: string[] = [];
      for (const sha of asked) {
        const behind = await git(root, ['merge-base', '--is-ancestor', sha, head.sha]);
        if (!(behind.ok && behind.code === 0)) out.push(sha);
      }
      return out;
    },
    async headIsAncestorOf(sha) {
      const answer = await git(root, ['merge-base', '--is-ancestor', head.sha, sha]);
      return answer.ok && answer.code === 0;
    },
    shallow: () =>
      (shallow ??= git(root, ['rev-parse', '--is-shallow-repository']).then(
        (a) => a.ok && a.stdout.trim() === 'true',
      )),
  };
}

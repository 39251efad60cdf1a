// The fault matrix's rows and columns, shared by its two files: test/commands/faults.test.ts (every command
// against every fault, in-process) and test/commands/faults-publish.test.ts (the publish column across two
// runs); test/process/faults.test.ts spawns the built CLI for what only a process shows.
//
// The publish column's expectations — what a publishing command asks of the site, what it says about a post
// that may exist — sit in PUBLISH_COLUMN below, and its next runs in faults-publish.test.ts: a change to how
// `wp publish` finds its posts on the site changes those and nothing else.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CliResult } from './cli.js';
import { startFakeWordPress, type FakeWordPress } from './fake-wordpress.js';
import { runInProcess } from './in-process.js';
import { faultRows, notInFaultMatrix, type FaultContext } from './sweeps.js';
import {
  CREATED_BLOG,
  DEFAULT_WORDPRESS_URL,
  SECRETS,
  WP_USER,
  seededConfigDir,
  snapshotDir,
  startFaultServer,
  type Fault,
  type FaultServer,
  type FaultServerOptions,
  type ServiceCommand,
  type Step,
} from './fault-server.js';

const workDir = mkdtempSync(join(tmpdir(), 'blogctl-faults-'));
// A git work tree: its files' sources are their paths from its root (outside one they could not be tracked).
mkdirSync(join(workDir, '.git'));
/**
 * Every command that talks to the service, with flags that need no prompt (each verb's rows are in its
 * sweep.ts). Those that publish go to DEFAULT_WORDPRESS_URL (with --url) or the config dir's stored site,
 * which is asked which posts exist before anything is sent (all but the posts from flags alone, which have
 * no source to be found by).
 */
export const COMMANDS = faultRows(faultContext(workDir));
/**
 * The verbs that send nothing to the service, so have no row in the matrix, and why (their sweep.ts says).
 * With COMMANDS' names they name every declared verb (test/unit/command-tree.test.ts).
 */
export const NOT_IN_MATRIX: Record<string, string> = notInFaultMatrix();
/** Every key the fault matrix names a verb by: its rows' names and the verbs it leaves out. */
export const FAULT_MATRIX_KEYS = [...COMMANDS.map((c) => c.name), ...Object.keys(NOT_IN_MATRIX)];
export const PUBLISHING = COMMANDS.filter((c) => c.route === 'publish');
export const RETRIES = 2;
/** Another change decides what `auth login` stores when the service fails: only its output is pinned here. */
export const LOGIN = 'auth login';

/** Faults whose answer proves nothing was done, or whose connection broke: the ones worth repeating. */
export const RETRIED: Fault[] = ['502', '503', '504', '429', 'reset', 'truncated'];
/** Answers that say for certain the request was not acted on: anything else leaves a publish in doubt. */
export const DEFINITE: Fault[] = ['429', '401', '403', '404', '413'];

export const FAULTS: { fault: Step; exit: number; label: string }[] = [
  { label: 'html500', fault: 'html500', exit: 7 },
  { label: '502', fault: '502', exit: 7 },
  { label: '503 + Retry-After seconds', fault: { fault: '503', retryAfter: '0' }, exit: 7 },
  { label: '504', fault: '504', exit: 7 },
  // 429 is "another 4xx" in the exit-code table (issue 3).
  {
    label: '429 + Retry-After date',
    fault: { fault: '429', retryAfter: new Date(Date.now() - 5_000).toUTCString() },
    exit: 6,
  },
  { label: 'hang', fault: 'hang', exit: 7 },
  { label: 'reset', fault: 'reset', exit: 7 },
  { label: 'truncated', fault: 'truncated', exit: 7 },
  { label: 'invalidJson', fault: 'invalidJson', exit: 7 },
  { label: 'empty204', fault: 'empty204', exit: 7 },
  { label: '401', fault: '401', exit: 4 },
  { label: '403', fault: '403', exit: 4 },
  { label: '404', fault: '404', exit: 5 },
  { label: '413', fault: '413', exit: 6 },
  { label: 'huge', fault: 'huge', exit: 7 },
  { label: 'hugeDeclared', fault: 'hugeDeclared', exit: 7 },
];

export const faultName = (step: Step): Fault => (typeof step === 'string' ? step : step.fault);
export const postsOf = (command: ServiceCommand): number => command.posts ?? 1;
export const generates = (command: ServiceCommand): boolean =>
  command.args[0] === 'blog' && command.args[1] === 'create';
/** The fault leaves the outcome of a POST unknown: the service may have acted on it. */
export const ambiguous = (step: Step): boolean => !DEFINITE.includes(faultName(step));

/** What the documented behaviour is for one command and one fault. */
export function expectedExit(command: ServiceCommand, step: Step, base: number): number {
  // A 204 is one of the two documented answers to a delete.
  if (command.route === 'delete' && faultName(step) === 'empty204') return 0;
  return base;
}

export function expectedRequests(command: ServiceCommand, step: Step): number {
  const fault = faultName(step);
  // A publish's first create of tracked sources goes alone: refused credentials stop the others.
  if (!command.idempotent)
    return command.route === 'publish' && tracked(command) && ['401', '403'].includes(fault)
      ? 1
      : postsOf(command);
  if (command.route === 'delete' && fault === 'empty204') return 1;
  return RETRIED.includes(fault) ? RETRIES + 1 : 1;
}

/** A fault server, a fake WordPress for the commands that publish, and a seeded config dir; runs blogctl. */
export interface Session {
  server: FaultServer;
  wp: FakeWordPress | undefined;
  dir: string;
  before: Record<string, string>;
  /** The command's own arguments, pointed at this session's WordPress. */
  args: string[];
  /** The command's arguments (or others), after the global flags. */
  run(args?: string[], extra?: { env?: Record<string, string>; timeout?: string }): Promise<CliResult>;
  close(): Promise<void>;
}

export async function session(
  command: ServiceCommand,
  plan: Step | Step[],
  options: Omit<FaultServerOptions, 'plan'> = {},
): Promise<Session> {
  const wp =
    command.route === 'publish'
      ? await startFakeWordPress({ username: WP_USER, password: SECRETS.BLOGCTL_WP_PASSWORD })
      : undefined;
  const server = await startFaultServer({
    ...(wp && { relay: (body: string) => relayTo(wp, body) }),
    ...options,
    plan: { [command.route]: plan },
  });
  const dir = seededConfigDir(undefined, wp?.url);
  const own = command.args.map((a) => (wp && a === DEFAULT_WORDPRESS_URL ? wp.url : a));
  // A hanging service is met by --timeout, so a plan with a hang gets a short one — but not so short that the
  // request may not have reached the server when it ends: --timeout counts from before the request is sent,
  // and the concurrent runs share this process's event loop with the server, which a loaded machine holds
  // up for a second at a time (a 1 s deadline then ended runs whose request the server never saw). Any other
  // plan is answered at once, and there the deadline only decides whether a loaded machine fails the test.
  const hangs = (Array.isArray(plan) ? plan : [plan]).some((step) => faultName(step) === 'hang');
  const deadline = hangs ? '4' : '30';
  return {
    server,
    wp,
    dir,
    before: snapshotDir(dir),
    args: own,
    run: (args = own, extra = {}) =>
      runInProcess(
        // --json [fields] takes an optional value, so extra flags go after the command's own arguments.
        [
          '--base-url',
          server.url,
          '--retries',
          String(RETRIES),
          '--timeout',
          extra.timeout ?? deadline,
          ...args,
        ],
        {
          env: {
            BLOGCTL_CONFIG_DIR: dir,
            ...SECRETS,
            BLOGCTL_RETRY_BASE_MS: '1',
            BLOGCTL_MAX_RESPONSE_MB: '1',
            ...extra.env,
          },
          ...(command.input !== undefined && { input: command.input }),
        },
      ),
    close: async () => {
      await Promise.all([server.close(), wp?.close()]);
    },
  };
}

export interface Run {
  result: CliResult;
  server: FaultServer;
  wp: FakeWordPress | undefined;
  dir: string;
  before: Record<string, string>;
  after: Record<string, string>;
}

/** The service relaying a publish to the fake WordPress: the post made there, as WordPress would. */
export function relayTo(wp: FakeWordPress, body: string): { id: number; link: string; status: string } {
  const { content } = JSON.parse(body) as { content: Record<string, unknown> };
  const now = new Date().toISOString().slice(0, 19);
  const id = 500 + wp.posts.length;
  const status = String(content['status'] ?? 'draft');
  wp.posts.push({
    ...content,
    id,
    status,
    slug: String(content['slug'] ?? ''),
    title: String(content['title']),
    date_gmt: now,
    modified_gmt: now,
  });
  return { id, link: `${wp.url}/?p=${id}`, status };
}

/** One run of a command against its own fault server, with the config dir watched. */
export async function run(
  command: ServiceCommand,
  plan: Step | Step[],
  extra: { args?: string[]; env?: Record<string, string>; timeout?: string } = {},
): Promise<Run> {
  const s = await session(command, plan);
  try {
    const result = await s.run([...s.args, ...(extra.args ?? [])], extra);
    return { result, server: s.server, wp: s.wp, dir: s.dir, before: s.before, after: snapshotDir(s.dir) };
  } finally {
    await s.close();
  }
}

/** GET requests for posts on the fake WordPress: the look-up before a re-send. */
export const lookups = (wp: FakeWordPress | undefined): number =>
  wp?.requests.filter((r) => r.method === 'GET' && decodeURIComponent(r.url).includes('wp/v2/posts'))
    .length ?? 0;

/** Whether a publishing command's posts have a source to be found by (not flags alone). */
export const tracked = (command: ServiceCommand): boolean =>
  command.route === 'publish' && !(command.args.includes('--title') && !command.args.includes('--slug'));

/**
 * The publish column: what a publishing command asks of its WordPress site and says, for one run of the
 * matrix. Every column, this one included, leaves the config dir byte-identical (the site is the record).
 */
export const PUBLISH_COLUMN = {
  /**
   * A failed publish looks on the site first (posts with a source) and never writes to it directly: a create
   * goes through the service, and one that may have reached it is not sent again. The error says when the
   * post may exist.
   */
  afterFault(r: Run, command: ServiceCommand, step: Step): void {
    // Per plan: the namespace's posts, and the slug each new source would get (a post holding it without a
    // marker is the source's own post, marker lost); for files of the git work tree (`workDir`), also the
    // namespace such files had before theirs was `git:<repository>` (scope.ts), where a post not found in
    // theirs may still be.
    const inWorkTree = command.args.some((a) => a.startsWith(workDir));
    expect(lookups(r.wp)).toBe(generates(command) ? 4 : tracked(command) ? (inWorkTree ? 3 : 2) : 0);
    expect((r.wp?.requests ?? []).filter((q) => q.method !== 'GET')).toEqual([]);
    if (ambiguous(step)) expect(r.result.stderr).toContain('the post may exist');
    else expect(r.result.stderr).not.toContain('may exist');
  },
};

/**
 * The command a failed `blog create --publish` names to publish its blog later: `wp publish --from-blog` with
 * the same post flags (here --status publish), as argv after `blogctl`.
 */
export const LATER = [
  'wp',
  'publish',
  '--site',
  'stored',
  '--from-blog',
  String(CREATED_BLOG['_id']),
  '--status',
  'publish',
];

/** Where the rows' input files go: `workDir`. */
export function faultContext(workDir: string, wordpressUrl = DEFAULT_WORDPRESS_URL): FaultContext {
  return {
    workDir,
    wordpressUrl,
    file(name, text) {
      const path = join(workDir, name);
      writeFileSync(path, text);
      return path;
    },
  };
}

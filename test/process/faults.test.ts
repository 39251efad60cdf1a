// Every command that talks to the service, against every fault the service (or the network) can produce: the
// documented exit code, one clear line on stderr, no stack, no secret, the config dir untouched, and no POST
// sent twice — while the requests that are safe to repeat are retried and succeed once the fault clears.
// Then every publishing command across two runs (as from two CI runners: nothing is kept on the machine): a
// fault, then the next run, which finds the post on the site when the service made it before the fault, and
// otherwise sends it again with the same Idempotency-Key.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import {
  CREATED_BLOG,
  DEFAULT_WORDPRESS_URL,
  FIXTURE_BLOGS,
  SECRETS,
  WP_USER,
  authCommands,
  expectNoSecrets,
  expectOneErrorLine,
  seededConfigDir,
  serviceCommands,
  snapshotDir,
  startFaultServer,
  type Fault,
  type FaultServer,
  type FaultServerOptions,
  type ServiceCommand,
  type Step,
} from '../helpers/fault-server.js';

const workDir = mkdtempSync(join(tmpdir(), 'blogctl-faults-'));
const COMMANDS = [...serviceCommands(workDir), ...authCommands()];
const PUBLISHING = COMMANDS.filter((c) => c.route === 'publish');
const RETRIES = 2;
/** Another change decides what `auth login` stores when the service fails: only its output is pinned here. */
const LOGIN = 'auth login';

/** Faults whose answer proves nothing was done, or whose connection broke: the ones worth repeating. */
const RETRIED: Fault[] = ['502', '503', '504', '429', 'reset', 'truncated'];
/** Answers that say for certain the request was not acted on: anything else leaves a publish in doubt. */
const DEFINITE: Fault[] = ['429', '401', '403', '404', '413'];

const FAULTS: { fault: Step; exit: number; label: string }[] = [
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

const faultName = (step: Step): Fault => (typeof step === 'string' ? step : step.fault);
const postsOf = (command: ServiceCommand): number => command.posts ?? 1;
const generates = (command: ServiceCommand): boolean =>
  command.args[0] === 'blog' && command.args[1] === 'create';

/** What the documented behaviour is for one command and one fault. */
function expectedExit(command: ServiceCommand, step: Step, base: number): number {
  // A 204 is one of the two documented answers to a delete.
  if (command.route === 'delete' && faultName(step) === 'empty204') return 0;
  return base;
}

function expectedRequests(command: ServiceCommand, step: Step): number {
  const fault = faultName(step);
  if (!command.idempotent) return postsOf(command);
  if (command.route === 'delete' && fault === 'empty204') return 1;
  return RETRIED.includes(fault) ? RETRIES + 1 : 1;
}

/** A fault server, a fake WordPress for the commands that publish, and a seeded config dir; runs blogctl. */
interface Session {
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

async function session(
  command: ServiceCommand,
  plan: Step | Step[],
  options: Omit<FaultServerOptions, 'plan'> = {},
): Promise<Session> {
  const wp =
    command.route === 'publish'
      ? await startFakeWordPress({ username: WP_USER, password: SECRETS.BLOGCTL_WP_PASSWORD })
      : undefined;
  const server = await startFaultServer({ ...options, plan: { [command.route]: plan } });
  const dir = seededConfigDir(undefined, wp?.url);
  const own = command.args.map((a) => (wp && a === DEFAULT_WORDPRESS_URL ? wp.url : a));
  return {
    server,
    wp,
    dir,
    before: snapshotDir(dir),
    args: own,
    run: (args = own, extra = {}) =>
      runCli(
        // --json [fields] takes an optional value, so extra flags go after the command's own arguments.
        ['--base-url', server.url, '--retries', String(RETRIES), '--timeout', extra.timeout ?? '1', ...args],
        {
          env: {
            BLOGCTL_CONFIG_DIR: dir,
            ...SECRETS,
            BLOGCTL_RETRY_BASE_MS: '1',
            BLOGCTL_MAX_RESPONSE_MB: '1',
            ...extra.env,
          },
          ...(command.input !== undefined && { input: command.input }),
          timeoutMs: 15_000,
        },
      ),
    close: async () => {
      await Promise.all([server.close(), wp?.close()]);
    },
  };
}

interface Run {
  result: CliResult;
  server: FaultServer;
  wp: FakeWordPress | undefined;
  dir: string;
  before: Record<string, string>;
  after: Record<string, string>;
}

/** One run of a command against its own fault server, with the config dir watched. */
async function run(
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

/** Whether a publishing command's posts have a source to be found by (not flags alone). */
const tracked = (command: ServiceCommand): boolean =>
  command.route === 'publish' && !(command.args.includes('--title') && !command.args.includes('--slug'));

/** GET requests for posts on the fake WordPress: the look-up before anything is sent. */
const lookups = (wp: FakeWordPress | undefined): number =>
  wp?.requests.filter((r) => r.method === 'GET' && decodeURIComponent(r.url).includes('wp/v2/posts'))
    .length ?? 0;

describe.concurrent.each(COMMANDS)('$name', (command) => {
  it('succeeds when the service answers well', async () => {
    const { result, server: s, before, after } = await run(command, 'ok');
    expect(result.stderr).not.toMatch(/error:/);
    expect(result.code, result.stderr).toBe(0);
    expectNoSecrets(result.stdout, result.stderr);
    if (command.name === LOGIN) return; // it stores the key: that is its job
    expect(s.count(command.route)).toBe(command.route === 'publish' ? postsOf(command) : 1);
    // Nothing is kept on this machine: the site knows what was published.
    expect(after).toEqual(before);
  });

  it.each(FAULTS)('$label → exit $exit', async ({ fault, exit }) => {
    const { result, server: s, wp, before, after } = await run(command, fault);
    expect(result.signal, 'ended by itself, not by the test timeout').toBeNull();
    expectNoSecrets(result.stdout, result.stderr);
    if (command.name === LOGIN) {
      // Unavailable: either stored with a warning that the key could not be checked (exit 0) or refused (7).
      expect(exit === 7 ? [0, 7] : [exit], result.stderr).toContain(result.code);
      if (result.code !== 0) expectOneErrorLine(result);
      return;
    }
    const code = expectedExit(command, fault, exit);
    expect(result.code, `${result.stderr}`).toBe(code);
    if (code !== 0) expectOneErrorLine(result);
    expect(after, 'config dir byte-identical').toEqual(before);
    const ambiguous = !DEFINITE.includes(faultName(fault));
    expect(s.count(command.route), 'requests that reached the server').toBe(expectedRequests(command, fault));
    if (generates(command)) expect(s.count('create')).toBe(1);
    expect(s.unexpected).toEqual([]);
    if (!command.idempotent) {
      const keys = s.keys(command.route);
      for (const key of keys) expect(key).toMatch(/^\S{8,}$/);
      expect(new Set(keys).size, 'no POST sent twice').toBe(keys.length);
    }
    if (command.route === 'publish') {
      // The run looks on the site first (posts with a source), and never writes to it directly: a create
      // goes through the service, and one that may have reached it is not sent again.
      expect(lookups(wp)).toBe(generates(command) ? 2 : tracked(command) ? 1 : 0);
      expect((wp?.requests ?? []).filter((r) => r.method !== 'GET')).toEqual([]);
      if (ambiguous) expect(result.stderr).toContain('the post may exist');
      else expect(result.stderr).not.toContain('may exist');
    }
  });
});

describe.concurrent('recovery once the fault clears', () => {
  const idempotent = COMMANDS.filter((c) => c.idempotent && c.name !== LOGIN);
  it.each(
    idempotent.flatMap((c) =>
      (['502', '503', '504', '429', 'reset'] as const).map((fault) => ({ c, fault, name: c.name })),
    ),
  )('$name after $fault twice', async ({ c, fault }) => {
    const { result, server: s } = await run(c, [fault, fault, 'ok']);
    expect(result.code, result.stderr).toBe(0);
    expect(s.count(c.route)).toBe(3);
    expect(result.stderr).not.toMatch(/error:/);
  });

  it('honours a Retry-After of one second', async () => {
    const started = Date.now();
    const list = COMMANDS.find((c) => c.name === 'blog list')!;
    const { result, server: s } = await run(list, [{ fault: '503', retryAfter: '1' }, 'ok'], {
      timeout: '10',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(s.count('list')).toBe(2);
  });

  it('--retries 0 sends a GET once', async () => {
    const list = COMMANDS.find((c) => c.name === 'blog list')!;
    const faults = await startFaultServer({ plan: { list: '503' } });
    try {
      const result = await runCli(['--base-url', faults.url, '--retries', '0', 'blog', 'list'], {
        env: { BLOGCTL_CONFIG_DIR: seededConfigDir(), ...SECRETS, BLOGCTL_RETRY_BASE_MS: '1' },
      });
      expect(result.code).toBe(7);
      expect(faults.count(list.route)).toBe(1);
    } finally {
      await faults.close();
    }
  });

  it.each(COMMANDS.filter((c) => !c.idempotent))(
    '$name is not repeated after 503, even when it clears',
    async (c) => {
      const { result, server: s } = await run(c, ['503', 'ok']);
      expect(result.code).toBe(7);
      expect(s.count(c.route)).toBe(postsOf(c));
    },
  );
});

describe.concurrent('--json errors', () => {
  it.each(COMMANDS.filter((c) => c.name !== LOGIN))(
    '$name: one error line and one JSON object on stderr',
    async (c) => {
      const { result } = await run(c, '503', { args: ['--json'] });
      expect(result.code).toBe(7);
      expectOneErrorLine(result, { json: true });
      const objects = result.stderr.split('\n').filter((l) => l.startsWith('{'));
      expect(objects).toHaveLength(1);
      // A batch reports one error for all its posts (each post's own is in the JSON rows on stdout).
      expect(JSON.parse(objects[0]!)).toMatchObject({
        error: 'unavailable',
        exitCode: 7,
        ...(postsOf(c) === 1 && { status: 503 }),
      });
      if (c.route === 'delete') {
        // `delete --json` reports each id's outcome on stdout, failures included (issue 3).
        expect(JSON.parse(result.stdout)).toEqual([
          expect.objectContaining({ id: 'blog-1', deleted: false, status: 503 }),
        ]);
      } else if (postsOf(c) > 1) {
        const rows = JSON.parse(result.stdout) as { action: string; exitCode: number }[];
        expect(rows.map((r) => [r.action, r.exitCode])).toEqual([
          ['failed', 7],
          ['failed', 7],
        ]);
      } else if (generates(c) && c.route === 'publish') {
        // The blog was made: {blog, publish} on stdout says so, and that the publish failed.
        expect(JSON.parse(result.stdout)).toMatchObject({
          blog: { _id: CREATED_BLOG['_id'] },
          publish: { published: false, exitCode: 7 },
        });
      } else {
        expect(result.stdout).toBe('');
      }
      expectNoSecrets(result.stdout, result.stderr);
    },
  );
});

/**
 * The command a failed `blog create --publish` names to publish its blog later: `wp publish --from-blog` with
 * the same post flags (here --status publish), as argv after `blogctl`.
 */
const LATER = [
  'wp',
  'publish',
  '--site',
  'stored',
  '--from-blog',
  String(CREATED_BLOG['_id']),
  '--status',
  'publish',
];

describe.concurrent('the next run after a fault', () => {
  const cases = PUBLISHING.flatMap((c) => FAULTS.map((f) => ({ c, ...f, name: c.name })));

  it.each(cases)(
    '$name, $label: the post not made, the next run sends it (with a source: the same Idempotency-Key)',
    async ({ c, fault, exit }) => {
      const posts = postsOf(c);
      const s = await session(c, [...Array<Step>(posts).fill(fault), 'ok'], {
        blogs: [...FIXTURE_BLOGS, CREATED_BLOG],
      });
      try {
        const first = await s.run();
        expect(first.code, first.stderr).toBe(exit);
        const firstKeys = s.server.keys('publish');
        expect(firstKeys).toHaveLength(posts);
        const ambiguous = !DEFINITE.includes(faultName(fault));

        // blog create's next run is the command its advice names (another blog create would make a new blog).
        if (generates(c) && ambiguous)
          expect(first.stderr).toContain(`\`blogctl ${LATER.join(' ')}\` finds it`);
        const second = await s.run(generates(c) ? LATER : undefined);
        expect(second.code, second.stderr).toBe(0);
        const keys = s.server.keys('publish');
        expect(keys, 'one POST per post and run').toHaveLength(2 * posts);
        const again = keys.slice(posts);
        // The key comes from the site, the source and the post: any machine sends the same one again. A post
        // from flags alone has no source, so its key guards only its own request.
        if (tracked(c) || generates(c)) expect([...again].sort()).toEqual([...firstKeys].sort());
        else for (const key of again) expect(firstKeys).not.toContain(key);
        expect(s.server.count('create')).toBe(generates(c) ? 1 : 0);
        expect(snapshotDir(s.dir), 'nothing kept on this machine').toEqual(s.before);
        expectNoSecrets(first.stdout, first.stderr, second.stdout, second.stderr);
      } finally {
        await s.close();
      }
    },
  );

  // The service made the post and lost the answer: a few faults of each kind (no answer, a cut or unreadable
  // answer, a 5xx) stand for the rest. Only a post with a source can be found again.
  const acted: Fault[] = ['hang', 'reset', 'truncated', 'empty204', 'html500'];
  it.each(cases.filter(({ c, fault }) => acted.includes(faultName(fault)) && (tracked(c) || generates(c))))(
    '$name, $label, the post made before the fault: the next run finds it and sends nothing',
    async ({ c, fault }) => {
      const posts = postsOf(c);
      const site: { wp?: FakeWordPress } = {};
      const s = await session(c, [...Array<Step>(posts).fill(fault), 'ok'], {
        blogs: [...FIXTURE_BLOGS, CREATED_BLOG],
        // The service relayed the post to WordPress, then lost the answer.
        actsOnPublish: (body) => {
          const { content } = JSON.parse(body) as { content: Record<string, unknown> };
          const now = new Date().toISOString().slice(0, 19);
          site.wp!.posts.push({
            ...content,
            id: 500 + site.wp!.posts.length,
            status: String(content['status'] ?? 'draft'),
            slug: String(content['slug'] ?? ''),
            title: String(content['title']),
            date_gmt: now,
            modified_gmt: now,
          });
        },
      });
      const wp = (site.wp = s.wp!);
      try {
        const first = await s.run();
        expect(first.code, first.stderr).toBe(7);
        const second = await s.run(generates(c) ? [...LATER, '--json'] : [...s.args, '--json']);
        expect(second.code, second.stderr).toBe(0);
        expect(s.server.count('publish'), 'nothing sent again').toBe(posts);
        expect(wp.posts).toHaveLength(posts);
        expect(wp.updates).toEqual([]);
        const out = JSON.parse(second.stdout) as unknown;
        const views = (Array.isArray(out) ? out : [out]) as { action: string; id: string }[];
        for (const view of views) expect(view.action).toBe('unchanged');
        expect(views.map((v) => Number(v.id)).sort()).toEqual(wp.posts.map((p) => p.id).sort());
      } finally {
        await s.close();
      }
    },
  );

  it('blog create --publish refused: the error names the command that publishes the blog later', async () => {
    const c = PUBLISHING.find((p) => generates(p))!;
    const s = await session(c, '413');
    try {
      const res = await s.run([...s.args, '--json']);
      expect(res.code).toBe(6);
      expect(res.stderr).not.toContain('may exist');
      // In the error line itself (and so in the JSON error's message): a cron log has no hint lines.
      const [line, object] = res.stderr.split('\n');
      const later = `; the blog was generated (${String(CREATED_BLOG['_id'])}): publish it later with \`blogctl ${LATER.join(' ')}\``;
      expect(line!.endsWith(later)).toBe(true);
      expect((JSON.parse(object!) as { message: string }).message.endsWith(later)).toBe(true);
    } finally {
      await s.close();
    }
  });

  it('a site that refuses to be asked: exit 4, nothing sent, and the line says what was being done', async () => {
    const c = PUBLISHING.find((p) => p.name === 'wp publish FILE…')!;
    const s = await session(c, 'ok');
    try {
      // The stored password is not the one the site knows: the look-up is refused (401).
      const res = await s.run(undefined, { env: { BLOGCTL_WP_PASSWORD: 'wrong pass word 0000 1111 2222' } });
      expect(res.code, res.stderr).toBe(4);
      expectOneErrorLine(res);
      expect(res.stderr).toMatch(
        /^error: looking up which posts already exist on stored failed: .*; nothing was published/,
      );
      expect(s.server.count('publish')).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('a site that does not answer: exit 7, nothing sent; --service-only publishes through the service alone', async () => {
    const c = PUBLISHING.find((p) => p.name === 'wp publish FILE…')!;
    const s = await session(c, 'ok');
    try {
      await s.wp!.close();
      const res = await s.run();
      expect(res.code).toBe(7);
      expectOneErrorLine(res);
      expect(res.stderr).toMatch(
        /^error: looking up which posts already exist on stored failed: .*; nothing was published/,
      );
      expect(res.stderr).toContain('--service-only');
      expect(s.server.count('publish')).toBe(0);
      const blind = await s.run([...s.args, '--service-only']);
      expect(blind.code, blind.stderr).toBe(0);
      expect(blind.stderr).toMatch(/^warning: --service-only: .*a repeat cannot be detected/m);
      expect(s.server.count('publish')).toBe(2);
    } finally {
      await s.close();
    }
  });
});

describe('timeouts', () => {
  it('a hanging service ends at --timeout, even with retries left', async () => {
    const list = COMMANDS.find((c) => c.name === 'blog list')!;
    const started = Date.now();
    const { result, server: s } = await run(list, 'hang', { args: ['--retries', '5'] });
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/within 1 s/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(s.count('list')).toBe(1);
  });

  it('a hanging publish ends at --timeout once: no second wait for a second attempt', async () => {
    const publish = PUBLISHING.find((c) => c.name === 'wp publish --status publish')!;
    const started = Date.now();
    const { result, server: s } = await run(publish, 'hang', { timeout: '3' });
    expect(result.code).toBe(7);
    expect(Date.now() - started).toBeLessThan(5_500);
    expect(s.count('publish')).toBe(1);
  });

  it('BLOGCTL_TIMEOUT bounds blog create too', async () => {
    const create = COMMANDS.find((c) => c.name === 'blog create')!;
    const faults = await startFaultServer({ plan: { create: 'hang' } });
    try {
      const started = Date.now();
      const result = await runCli(['--base-url', faults.url, ...create.args], {
        env: { BLOGCTL_CONFIG_DIR: seededConfigDir(), ...SECRETS, BLOGCTL_TIMEOUT: '1' },
      });
      expect(result.code).toBe(7);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(faults.count('create')).toBe(1);
    } finally {
      await faults.close();
    }
  });

  it('a service that is not listening is exit 7 with the reason', async () => {
    const list = COMMANDS.find((c) => c.name === 'blog list')!;
    const result = await runCli(['--base-url', 'http://127.0.0.1:9', '--retries', '1', ...list.args], {
      env: { BLOGCTL_CONFIG_DIR: seededConfigDir(), ...SECRETS, BLOGCTL_RETRY_BASE_MS: '1' },
    });
    expect(result.code).toBe(7);
    expectOneErrorLine(result);
    expect(result.stderr).toMatch(/connection refused/);
  });
});

// Ambiguous publish failures: the request went out and the answer was lost. A relay in front of the sandbox
// drops the connection of the first publish — after the sandbox created the post on the fake WordPress, or
// before forwarding it at all. The failing run sends nothing more (exit 7, the publish left in doubt); the
// next run of the same publish looks for the post on the site first, and across both runs exactly one post
// exists, made by one request unless the site showed the post was not there.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFlags, runCli, tempConfigDir, type CliResult } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { inDoubtKeys } from '../helpers/in-doubt.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

type Mode = 'created-then-dropped' | 'dropped-before' | 'pass';

interface Relay {
  url: string;
  /** What the next publish meets; later ones pass. */
  next: Mode;
  /** Idempotency-Key of every publish that reached the relay. */
  keys: (string | undefined)[];
  /** create-blog requests that reached the relay. */
  creates: number;
  close(): Promise<void>;
}

/** The service, as the CLI sees it: the sandbox behind a relay that can lose one publish's answer. */
async function startRelay(target: string): Promise<Relay> {
  const relay: Relay = { url: '', next: 'pass', keys: [], creates: 0, close: async () => undefined };
  const forward = async (req: IncomingMessage, body: Buffer): Promise<Response> => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers.set(k, v);
    return fetch(`${target}${req.url}`, {
      method: req.method!,
      headers,
      ...(body.length && { body }),
    });
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const isPublish = req.url?.endsWith('/integrations/wordpress/publish') ?? false;
        if (req.url?.endsWith('/create-blog')) relay.creates++;
        if (isPublish) relay.keys.push(req.headers['idempotency-key'] as string | undefined);
        const mode = isPublish ? relay.next : 'pass';
        if (isPublish) relay.next = 'pass';
        if (mode === 'dropped-before') return req.socket.destroy();
        const answer = await forward(req, body);
        const text = await answer.text();
        if (mode === 'created-then-dropped') return req.socket.destroy();
        res.writeHead(answer.status, {
          'content-type': answer.headers.get('content-type') ?? 'application/json',
        });
        res.end(text);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  relay.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return relay;
}

// A 1×1 PNG; WordPress (and the fake) only need the bytes and the name.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let sandbox: TestSandbox;
let wp: FakeWordPress;
let relay: Relay;
beforeAll(async () => {
  [sandbox, wp] = await Promise.all([startTestSandbox(), startFakeWordPress()]);
  relay = await startRelay(sandbox.url);
});
afterAll(async () => {
  await Promise.all([relay.close(), sandbox.close(), wp.close()]);
});

/** A config dir with the fake WordPress as site profile "blog"; run() runs blogctl with it. */
async function setup(): Promise<{ dir: string; run: (args: string[]) => Promise<CliResult> }> {
  const dir = tempConfigDir();
  const env = { BLOGCTL_CONFIG_DIR: dir, BLOGCTL_BASE_URL: relay.url, BLOGCTL_API_KEY: sandbox.apiKey };
  const add = await runCli(
    ['wp', 'sites', 'add', 'blog', '--url', wp.url, '--username', wp.username, '--password-stdin'],
    { env, input: `${wp.password}\n` },
  );
  expect(add.code).toBe(0);
  return { dir, run: (args) => runCli(args, { env }) };
}

const titled = (title: string) => wp.posts.filter((p) => p.title === title);
/** Requests that looked for posts on the fake WordPress (the lookup before a re-send). */
const lookups = (): number =>
  wp.requests.filter((r) => r.method === 'GET' && /wp\/v2\/posts(\?|&|$)/.test(decodeURIComponent(r.url)))
    .length;

/** The failing run: exit 7, and its one error line says the post may exist and that the next run checks. */
function expectInDoubt(res: CliResult): void {
  expect(res.code, res.stderr).toBe(7);
  const lines = res.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    /^error: publish to WordPress failed: .*; the post may exist: the next run of this publish looks for it on the site first, and sends it again \(with the same Idempotency-Key\) only if it is not there$/,
  );
}

describe('the post was created, the answer lost', () => {
  it.each(['draft', 'pending', 'publish'])(
    '%s without --slug: exit 7, then the next run finds it by title, records it and sends nothing',
    async (status) => {
      const { dir, run } = await setup();
      const title = `Lost answer (${status})`;
      const args = ['wp', 'publish', '--site', 'blog', '--title', title, '--content', '<p>x</p>'];
      if (status !== 'draft') args.push('--status', status); // draft is the default: the plain one-liner
      relay.next = 'created-then-dropped';
      relay.keys.length = 0;

      const first = await run(args);
      expectInDoubt(first);
      expect(relay.keys).toHaveLength(1);
      expect(titled(title)).toHaveLength(1);
      expect(inDoubtKeys(dir)).toHaveLength(1);

      const second = await run([...args, '--json']);
      expect(second.code, second.stderr).toBe(0);
      const post = titled(title)[0]!;
      expect(second.stderr).toContain(
        `an earlier run may have sent this post and got no answer; it is on the site as post ${post.id}`,
      );
      expect(JSON.parse(second.stdout)).toMatchObject({
        published: true,
        alreadyPublished: true,
        recovered: true,
        id: String(post.id),
        status,
      });
      expect(relay.keys, 'nothing sent again').toHaveLength(1);
      expect(titled(title)).toHaveLength(1);
      expect(inDoubtKeys(dir), 'the doubt is settled').toEqual([]);

      // From now on the journal answers, without asking the site.
      const asked = lookups();
      const third = await run(args);
      expect(third.code, third.stderr).toBe(0);
      expect(third.stderr).toContain(`already published to ${wp.url} as post ${post.id}`);
      expect(lookups()).toBe(asked);
      expect(relay.keys).toHaveLength(1);
    },
  );

  it('with --slug: found by the slug sent', async () => {
    const { run } = await setup();
    const args = ['wp', 'publish', '--site', 'blog', '--title', 'Slugged', '--content', '<p>y</p>'];
    relay.next = 'created-then-dropped';
    relay.keys.length = 0;
    expectInDoubt(await run([...args, '--slug', 'slugged-post']));
    const again = await run([...args, '--slug', 'slugged-post', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ recovered: true, id: String(titled('Slugged')[0]!.id) });
    expect(relay.keys).toHaveLength(1);
    expect(
      wp.requests.some((r) => r.method === 'GET' && r.url.includes('slug=slugged-post')),
      'looked up by slug',
    ).toBe(true);
  });

  it('a repeated title: an older post of the same title is not taken for ours', async () => {
    const { run } = await setup();
    const title = 'Weekly digest';
    // Last week's post: same title, written long before this publish.
    wp.posts.push({
      id: 90_000,
      status: 'publish',
      slug: 'weekly-digest',
      title,
      content: '<p>last week</p>',
      date_gmt: '2020-01-01T09:00:00',
      modified_gmt: '2020-01-01T09:00:00',
    });
    const args = ['wp', 'publish', '--site', 'blog', '--title', title, '--content', '<p>this week</p>'];
    relay.next = 'created-then-dropped';
    relay.keys.length = 0;
    expectInDoubt(await run([...args, '--status', 'publish']));
    const again = await run([...args, '--status', 'publish', '--json']);
    expect(again.code, again.stderr).toBe(0);
    const ours = titled(title).find((p) => p.id !== 90_000)!;
    expect(JSON.parse(again.stdout)).toMatchObject({ recovered: true, id: String(ours.id) });
    expect(relay.keys).toHaveLength(1);
    expect(titled(title)).toHaveLength(2);
  });
});

describe('the request never reached WordPress', () => {
  it('exit 7 without a second request; the next run does not find it and sends it with the same Idempotency-Key', async () => {
    const { dir, run } = await setup();
    // An older post of the same title must not stop it either.
    wp.posts.push({
      id: 90_001,
      status: 'draft',
      slug: '',
      title: 'Never arrived',
      date_gmt: '2020-01-01T09:00:00',
      modified_gmt: '2020-01-01T09:00:00',
    });
    const args = ['wp', 'publish', '--site', 'blog', '--title', 'Never arrived', '--content', '<p>z</p>'];
    relay.next = 'dropped-before';
    relay.keys.length = 0;
    const started = Date.now();
    expectInDoubt(await run(args));
    expect(relay.keys, 'not sent again in the same run').toHaveLength(1);
    expect(titled('Never arrived')).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(10_000);

    const asked = lookups();
    const again = await run(args);
    expect(again.code, again.stderr).toBe(0);
    expect(lookups(), 'looked before sending').toBeGreaterThan(asked);
    expect(again.stderr).toContain(
      'an earlier run may have sent this post and got no answer, and it is not on the site: sending it again with the same Idempotency-Key',
    );
    expect(relay.keys).toHaveLength(2);
    expect(relay.keys[0]).toMatch(/^\S{8,}$/);
    expect(relay.keys[1]).toBe(relay.keys[0]);
    expect(titled('Never arrived')).toHaveLength(2);
    expect(inDoubtKeys(dir)).toEqual([]);
  });

  it('--force publishes anew: no lookup, a new Idempotency-Key', async () => {
    const { run } = await setup();
    const args = ['wp', 'publish', '--site', 'blog', '--title', 'Forced', '--content', '<p>f</p>'];
    relay.next = 'created-then-dropped';
    relay.keys.length = 0;
    expectInDoubt(await run(args));
    const asked = lookups();
    const forced = await run([...args, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(lookups()).toBe(asked);
    expect(relay.keys).toHaveLength(2);
    expect(relay.keys[1]).not.toBe(relay.keys[0]);
    expect(titled('Forced')).toHaveLength(2);
  });
});

describe('blog create --publish', () => {
  it('in doubt: one consistent hint naming the command that checks first, and that command finds the post', async () => {
    const { run } = await setup();
    // `--tag 7` below: ids are checked on the site before anything is generated.
    if (!wp.terms.tags.some((t) => t.id === 7))
      wp.terms.tags.push({ id: 7, name: 'Lost answers', slug: 'lost-answers', parent: 0 });
    relay.next = 'created-then-dropped';
    relay.keys.length = 0;
    const creates = relay.creates;
    const res = await run([
      'blog',
      'create',
      ...createFlags('lost answers'),
      '--publish',
      'blog',
      '--status',
      'publish',
      '--tag',
      '7',
      '--excerpt',
      "it's here",
    ]);
    expect(res.code, res.stderr).toBe(7);
    expect(relay.creates).toBe(creates + 1);
    // One line, and the only advice: the command that checks first (not `blog create` again).
    const lines = res.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^error: publish to WordPress failed: .*; the blog was generated \([0-9a-f]{24}\) and the post may exist: `blogctl wp publish --site blog --from-blog [0-9a-f]{24} --status publish --excerpt 'it'\\''s here' --tag 7` looks for it on the site first and sends it only if it is not there$/,
    );
    expect(res.stderr).not.toMatch(/publish it later|check the site/);
    const command = /`blogctl (.*)`/.exec(lines[0]!)![1]!;
    // The shell's reading of the quoted command: words, with '\'' as an embedded quote.
    const argv = [...command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) =>
      m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!,
    );
    const blogId = argv[argv.indexOf('--from-blog') + 1]!;
    expect(wp.posts.filter((p) => p['excerpt'] === "it's here")).toHaveLength(1);

    const later = await run([...argv, '--json']);
    expect(later.code, later.stderr).toBe(0);
    expect(JSON.parse(later.stdout)).toMatchObject({ alreadyPublished: true, recovered: true });
    expect(relay.keys, 'the post was not sent again').toHaveLength(1);
    expect(wp.posts.filter((p) => p['excerpt'] === "it's here")).toHaveLength(1);
    expect(blogId).toMatch(/^[0-9a-f]{24}$/);
  });

  it('with --key: the next run looks before generating, and generates nothing when the post is there', async () => {
    const { run } = await setup();
    const args = [
      'blog',
      'create',
      ...createFlags('keyed answers'),
      '--publish',
      'blog',
      '--key',
      'weekly-77',
    ];
    relay.next = 'created-then-dropped';
    relay.keys.length = 0;
    const first = await run(args);
    expect(first.code, first.stderr).toBe(7);
    expect(first.stderr).toContain('--key weekly-77` looks for it on the site first');
    const creates = relay.creates;
    const again = await run([...args, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      blog: null,
      publish: { alreadyPublished: true, recovered: true },
    });
    expect(relay.creates, 'nothing generated').toBe(creates);
    expect(relay.keys).toHaveLength(1);
  });
});

describe('doubt lines declared ahead of sending (a batch)', () => {
  it('posts that fail before they are sent, or are never reached, leave nothing in doubt', async () => {
    // A wrong Application Password: the first post's image upload is refused (before its publish request,
    // after its doubt line was written), and the posts after it are not attempted, though the ones within
    // --concurrency places of it had their doubt lines written ahead.
    const dir = tempConfigDir();
    const env = { BLOGCTL_CONFIG_DIR: dir, BLOGCTL_BASE_URL: relay.url, BLOGCTL_API_KEY: sandbox.apiKey };
    const add = await runCli(
      ['wp', 'sites', 'add', 'blog', '--url', wp.url, '--username', wp.username, '--password-stdin'],
      { env, input: 'wrong pass 1234 5678\n' },
    );
    expect(add.code).toBe(0);
    writeFileSync(join(dir, 'cover.png'), PNG);
    const files = [1, 2, 3, 4].map((n) => {
      const file = join(dir, `ahead-${n}.md`);
      writeFileSync(file, `---\ntitle: Declared ahead\nfeatured_image: cover.png\n---\n\nAhead ${n}.\n`);
      return file;
    });
    relay.keys.length = 0;
    const res = await runCli(['wp', 'publish', '--site', 'blog', ...files, '--concurrency', '1'], { env });
    expect(res.code, res.stderr).toBe(4);
    expect(relay.keys, 'nothing was sent').toEqual([]);
    expect(titled('Declared ahead')).toEqual([]);
    expect(inDoubtKeys(dir)).toEqual([]);
  });
});

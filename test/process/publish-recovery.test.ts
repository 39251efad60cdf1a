// Ambiguous publish failures: the request went out and the answer was lost. A relay in front of the sandbox
// drops the connection of the first publish — after the sandbox created the post on the fake WordPress, or
// before forwarding it at all — and the CLI must end with exactly one post.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir, type CliResult } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

type Mode = 'created-then-dropped' | 'dropped-before' | 'pass';

interface Relay {
  url: string;
  /** What the next publish meets; later ones pass. */
  next: Mode;
  /** Idempotency-Key of every publish that reached the relay. */
  keys: (string | undefined)[];
  close(): Promise<void>;
}

/** The service, as the CLI sees it: the sandbox behind a relay that can lose one publish's answer. */
async function startRelay(target: string): Promise<Relay> {
  const relay: Relay = { url: '', next: 'pass', keys: [], close: async () => undefined };
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

async function publish(args: string[]): Promise<{ res: CliResult; dir: string }> {
  const dir = tempConfigDir();
  const env = { BLOGCTL_CONFIG_DIR: dir, BLOGCTL_BASE_URL: relay.url, BLOGCTL_API_KEY: sandbox.apiKey };
  const add = await runCli(
    ['wp', 'sites', 'add', 'blog', '--url', wp.url, '--username', wp.username, '--password-stdin'],
    { env, input: `${wp.password}\n` },
  );
  expect(add.code).toBe(0);
  const res = await runCli(['wp', 'publish', '--site', 'blog', ...args], { env });
  return { res, dir };
}

const titled = (title: string) => wp.posts.filter((p) => p.title === title);

describe('after an ambiguous failure', () => {
  it('the post was created but the answer lost: found by its slug, recorded, not sent again', async () => {
    relay.next = 'created-then-dropped';
    relay.keys.length = 0;
    const { res } = await publish([
      '--title',
      'Lost answer',
      '--content',
      '<p>x</p>',
      '--status',
      'publish',
      '--json',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('no answer came back, but the post is on the site (slug "lost-answer"');
    expect(relay.keys).toHaveLength(1);
    const posts = titled('Lost answer');
    expect(posts).toHaveLength(1);
    expect(JSON.parse(res.stdout)).toMatchObject({
      published: true,
      recovered: true,
      id: String(posts[0]!.id),
      link: `${wp.url}/lost-answer/`,
    });
  });

  it('then the same publish is "already published" from the journal', async () => {
    relay.next = 'created-then-dropped';
    const { res, dir } = await publish([
      '--title',
      'Lost twice',
      '--content',
      '<p>y</p>',
      '--slug',
      'lost-twice',
      '--status',
      'publish',
    ]);
    expect(res.code, res.stderr).toBe(0);
    const again = await runCli(
      [
        'wp',
        'publish',
        '--site',
        'blog',
        '--title',
        'Lost twice',
        '--content',
        '<p>y</p>',
        '--slug',
        'lost-twice',
        '--status',
        'publish',
      ],
      { env: { BLOGCTL_CONFIG_DIR: dir, BLOGCTL_BASE_URL: relay.url, BLOGCTL_API_KEY: sandbox.apiKey } },
    );
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('already published');
    expect(titled('Lost twice')).toHaveLength(1);
  });

  it('the request never reached WordPress: not found by slug, sent once more with the same Idempotency-Key', async () => {
    relay.next = 'dropped-before';
    relay.keys.length = 0;
    const { res } = await publish([
      '--title',
      'Never arrived',
      '--content',
      '<p>z</p>',
      '--status',
      'publish',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(relay.keys).toHaveLength(2);
    expect(relay.keys[0]).toMatch(/^\S{8,}$/);
    expect(relay.keys[1]).toBe(relay.keys[0]);
    expect(titled('Never arrived')).toHaveLength(1);
  });

  it('a draft without --slug cannot be looked for: exit 7, not retried, and says why', async () => {
    relay.next = 'created-then-dropped';
    relay.keys.length = 0;
    const { res } = await publish(['--title', 'Unfindable draft', '--content', '<p>d</p>', '--json']);
    expect(res.code).toBe(7);
    // stderr is not a terminal: the one line, then (--json) the error object carrying the hints.
    const [line, object, ...rest] = res.stderr.trim().split('\n');
    expect(line).toMatch(/^error: publish to WordPress failed/);
    expect(rest).toEqual([]);
    expect((JSON.parse(object!) as { hints: string[] }).hints.join('\n')).toContain(
      'a draft post has no slug on the site until it is published',
    );
    expect(relay.keys).toHaveLength(1);
    expect(titled('Unfindable draft')).toHaveLength(1);
  });
});

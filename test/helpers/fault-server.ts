// A stand-in for the service that misbehaves on request. Each of the five endpoints answers from its own fault
// plan (one fault, or a sequence whose last entry repeats), and every request is recorded — method, path,
// Idempotency-Key — so a test can prove that a POST reached the server once and that retries reused the key.
// Anything outside the five endpoints gets a loud 404 naming the method and path, and is recorded as unexpected.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { tempConfigDir, type CliResult } from './cli.js';
import { listenLocal } from './http-server.js';

export const API_PREFIX = '/api/v1/public';

export type Fault =
  /** Spec-valid answers: a blog, a list, delete 200 (or 204), settings `{success, integration}`, publish. */
  | 'ok'
  /** 500 with an HTML error page. */
  | 'html500'
  | '502'
  | '503'
  | '504'
  | '429'
  /** Never answers (the request is read; the socket stays open until the client gives up). */
  | 'hang'
  /** Reads the request, then destroys the socket without a byte of answer. */
  | 'reset'
  /** 200 with a Content-Length far larger than the body, then the connection closes. */
  | 'truncated'
  /** 200 application/json whose body is not JSON. */
  | 'invalidJson'
  /** 204 with no body where the endpoint documents JSON. */
  | 'empty204'
  | '401'
  | '403'
  | '404'
  | '413'
  /** A very large JSON body (a list of one huge blog), streamed lazily and chunked (no Content-Length). */
  | 'huge'
  /** The same, but declaring its Content-Length up front. */
  | 'hugeDeclared';

export interface FaultSpec {
  fault: Fault;
  /** The Retry-After header sent with 429/502/503/504, verbatim (seconds or an HTTP date). */
  retryAfter?: string;
}

export type Step = Fault | FaultSpec;

export type RouteName = 'create' | 'list' | 'delete' | 'settings' | 'publish';

export const ROUTES: Record<RouteName, { method: string; path: RegExp; example: string }> = {
  create: { method: 'POST', path: /^\/create-blog$/, example: `${API_PREFIX}/create-blog` },
  list: { method: 'GET', path: /^\/get-all-blogs$/, example: `${API_PREFIX}/get-all-blogs` },
  delete: { method: 'DELETE', path: /^\/delete-blog\/[^/]+$/, example: `${API_PREFIX}/delete-blog/blog-1` },
  settings: {
    method: 'PATCH',
    path: /^\/integrations\/wordpress\/update-settings$/,
    example: `${API_PREFIX}/integrations/wordpress/update-settings`,
  },
  publish: {
    method: 'POST',
    path: /^\/integrations\/wordpress\/publish$/,
    example: `${API_PREFIX}/integrations/wordpress/publish`,
  },
};

export interface RecordedRequest {
  route: RouteName | undefined;
  method: string;
  /** Path without the query string. */
  path: string;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
  body: string;
  fault: Fault | 'unexpected';
}

export interface FaultServerOptions {
  port?: number;
  plan?: Partial<Record<RouteName, Step | Step[]>>;
  /** Size of the `huge` body (default 300 MB; nothing is generated beyond what the client reads). */
  hugeBytes?: number;
  deleteStatus?: 200 | 204;
  publishShape?: 'typed' | 'alt';
  /** Blogs returned by the list (default: two fixtures, ids blog-1 and blog-2). */
  blogs?: Record<string, unknown>[];
  /**
   * Called with the body of each publish that meets a fault, before the fault: a test makes the post on its
   * fake WordPress here to play a service that relayed the post and then lost the answer.
   */
  actsOnPublish?: (body: string, fault: Fault) => void;
  /**
   * Relays a publish answered `ok` to a WordPress (a fake one) and answers with the post it made, as the
   * service does; without it every publish is answered with post 42, which no site holds.
   */
  relay?: (
    body: string,
  ) => { id: number; link: string; status: string } | Promise<{ id: number; link: string; status: string }>;
}

export interface FaultServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Requests outside the five endpoints. */
  unexpected: RecordedRequest[];
  /** Replaces one route's plan (and restarts its sequence). */
  plan(route: RouteName, steps: Step | Step[]): void;
  /** Requests that reached a route (or `METHOD /path` prefix match) so far. */
  count(route: RouteName): number;
  /** Idempotency-Key of each request to a route, in order. */
  keys(route: RouteName): (string | undefined)[];
  /** Bytes of `huge` bodies handed to the socket so far (written only as fast as the client reads). */
  hugeSent(): number;
  /** Forgets requests and restarts every plan at its first step. */
  reset(): void;
  /** Stops listening and cuts every open connection (hanging ones included). */
  close(): Promise<void>;
}

export const FIXTURE_BLOGS: Record<string, unknown>[] = [
  {
    _id: 'blog-1',
    title: 'Home espresso for beginners',
    content: '<h1>Home espresso</h1><p>Start with a good grinder.</p>',
    createdAt: '2026-01-02T03:04:05.000Z',
    status: 'generated',
  },
  {
    _id: 'blog-2',
    title: 'Pour-over in five minutes',
    content: '<h1>Pour-over</h1><p>Bloom for thirty seconds.</p>',
    createdAt: '2026-01-03T03:04:05.000Z',
    status: 'generated',
  },
];

/** What `create` answers when it succeeds (list it with `blogs` to publish it later with --from-blog). */
export const CREATED_BLOG: Record<string, unknown> = {
  _id: 'blog-new',
  title: 'A fresh blog',
  content: '<h1>A fresh blog</h1><p>Generated.</p>',
  createdAt: new Date(0).toISOString(),
};

export async function startFaultServer(options: FaultServerOptions = {}): Promise<FaultServer> {
  const plans = new Map<RouteName, Step[]>();
  const cursors = new Map<RouteName, number>();
  const requests: RecordedRequest[] = [];
  let hugeSent = 0;
  const unexpected: RecordedRequest[] = [];
  const blogs = options.blogs ?? FIXTURE_BLOGS;
  const setPlan = (route: RouteName, steps: Step | Step[]): void => {
    plans.set(route, Array.isArray(steps) ? [...steps] : [steps]);
    cursors.set(route, 0);
  };
  for (const [route, steps] of Object.entries(options.plan ?? {}) as [RouteName, Step | Step[]][])
    setPlan(route, steps);

  const nextStep = (route: RouteName): FaultSpec => {
    const steps = plans.get(route) ?? ['ok'];
    const at = cursors.get(route) ?? 0;
    cursors.set(route, at + 1);
    const step = steps[Math.min(at, steps.length - 1)] ?? 'ok';
    return typeof step === 'string' ? { fault: step } : step;
  };

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(599, { 'content-type': 'text/plain' });
        res.end(`fault server bug: ${String(error)}`);
      }
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    // A proxy forwards absolute-form targets when it does not tunnel; accept both forms.
    const target = new URL(req.url ?? '/', 'http://fault.invalid');
    const path = target.pathname;
    const method = req.method ?? 'GET';
    const route = matchRoute(method, path);
    const header = (name: string): string | undefined => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const record: RecordedRequest = {
      route,
      method,
      path,
      idempotencyKey: header('idempotency-key'),
      authorization: header('authorization'),
      body,
      fault: 'unexpected',
    };
    if (!route) {
      unexpected.push(record);
      return json(res, 404, { message: `fault server: no route for ${method} ${path}` });
    }
    const step = nextStep(route);
    record.fault = step.fault;
    requests.push(record);
    if (route === 'publish' && step.fault !== 'ok') options.actsOnPublish?.(body, step.fault);
    await answer(route, step, req, res, body);
  }

  async function answer(
    route: RouteName,
    step: FaultSpec,
    req: IncomingMessage,
    res: ServerResponse,
    body: string,
  ) {
    const retryAfter: Record<string, string> =
      step.retryAfter !== undefined ? { 'retry-after': step.retryAfter } : {};
    switch (step.fault) {
      case 'ok':
        return ok(route, req, res, body);
      case 'html500':
        res.writeHead(500, { 'content-type': 'text/html; charset=utf-8' });
        return void res.end(
          '<!DOCTYPE html><html><head><title>500 Internal Server Error</title><style>body{color:red}</style>' +
            '<script>alert("x")</script></head><body><h1>Internal Server Error</h1><p>The server encountered an ' +
            'internal error &amp; could not complete your request.</p></body></html>',
        );
      case '502':
        res.writeHead(502, { 'content-type': 'text/html', ...retryAfter });
        return void res.end(
          '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>',
        );
      case '503':
        return json(res, 503, { message: 'service temporarily unavailable' }, retryAfter);
      case '504':
        res.writeHead(504, { 'content-type': 'text/plain', ...retryAfter });
        return void res.end('Gateway Timeout');
      case '429':
        return json(res, 429, { message: 'too many requests, slow down' }, retryAfter);
      case 'hang':
        return; // the socket stays open; close() destroys it
      case 'reset':
        return void req.socket.destroy();
      case 'truncated':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
        res.write('{"_id":"blog-1","title":"Home esp');
        return void setTimeout(() => req.socket.destroy(), 20);
      case 'invalidJson':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('{"_id": "blog-1", "title": "unterminated');
      case 'empty204':
        res.writeHead(204);
        return void res.end();
      case '401':
        return json(res, 401, { message: 'invalid API key' }, { 'www-authenticate': 'Bearer realm="fault"' });
      case '403':
        return json(res, 403, { message: 'this key may not do that' });
      case '404':
        return json(res, 404, { message: 'no such blog' });
      case '413':
        return json(res, 413, { message: 'request body too large' });
      case 'huge':
      case 'hugeDeclared':
        return streamHuge(
          res,
          options.hugeBytes ?? 300 * 1024 * 1024,
          step.fault === 'hugeDeclared',
          (n) => (hugeSent += n),
        );
    }
  }

  async function ok(
    route: RouteName,
    req: IncomingMessage,
    res: ServerResponse,
    body: string,
  ): Promise<void> {
    switch (route) {
      case 'create':
        return json(res, 201, CREATED_BLOG);
      case 'list':
        return json(res, 200, blogs);
      case 'delete': {
        if ((options.deleteStatus ?? 200) === 204) {
          res.writeHead(204);
          return void res.end();
        }
        const id = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.split('/').pop() ?? '');
        return json(res, 200, { success: true, id });
      }
      case 'settings': {
        let settings: unknown;
        try {
          settings = (JSON.parse(body) as { settings?: unknown }).settings;
        } catch {
          return json(res, 400, { message: 'body is not JSON' });
        }
        return json(res, 200, { success: true, integration: withoutPasswords(settings) });
      }
      case 'publish': {
        // The status asked for, as WordPress would give it (so no "not as asked" warning muddies stderr).
        let status = 'draft';
        try {
          const asked = (JSON.parse(body) as { content?: { status?: unknown } }).content?.status;
          if (typeof asked === 'string') status = asked;
        } catch {
          // keep draft
        }
        const made = (await options.relay?.(body)) ?? { id: 42, link: 'https://wp.example/?p=42', status };
        return (options.publishShape ?? 'typed') === 'alt'
          ? json(res, 200, { success: true, postUrl: made.link, postId: made.id })
          : json(res, 200, {
              isPublished: true,
              link: made.link,
              id: made.id,
              status: made.status,
              type: 'post',
            });
      }
    }
  }

  const listening = await listenLocal(server, options.port);

  return {
    url: listening.url,
    port: listening.port,
    requests,
    unexpected,
    plan: setPlan,
    count: (route) => requests.filter((r) => r.route === route).length,
    keys: (route) => requests.filter((r) => r.route === route).map((r) => r.idempotencyKey),
    hugeSent: () => hugeSent,
    reset() {
      requests.length = 0;
      unexpected.length = 0;
      for (const route of plans.keys()) cursors.set(route, 0);
    },
    close: listening.close,
  };
}

function matchRoute(method: string, path: string): RouteName | undefined {
  if (!path.startsWith(`${API_PREFIX}/`)) return undefined;
  const rest = path.slice(API_PREFIX.length);
  return (Object.entries(ROUTES) as [RouteName, (typeof ROUTES)[RouteName]][]).find(
    ([, r]) => r.method === method && r.path.test(rest),
  )?.[0];
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function withoutPasswords(settings: unknown): unknown {
  const strip = (s: unknown): unknown => {
    if (!s || typeof s !== 'object') return s;
    const { credentials, ...rest } = s as Record<string, unknown>;
    if (!credentials || typeof credentials !== 'object') return rest;
    const { password: _password, ...safe } = credentials as Record<string, unknown>;
    return { ...rest, credentials: safe };
  };
  return Array.isArray(settings) ? settings.map(strip) : strip(settings);
}

/** A JSON array of blogs, produced only as fast as the client reads it; stops when the client goes away. */
/**
 * A list whose one blog is `total` bytes long: a streamed list is limited per item (a long list of small ones
 * streams), so it is one item that has to be too large. Made lazily, only as fast as the client reads.
 */
function streamHuge(
  res: ServerResponse,
  total: number,
  declare: boolean,
  sent: (bytes: number) => void,
): void {
  res.writeHead(200, {
    'content-type': 'application/json',
    ...(declare && { 'content-length': String(total) }),
  });
  const head = '[{"_id":"huge","title":"huge","content":"';
  const tail = '"}]';
  const filler = Buffer.alloc(64 * 1024, 'z');
  let left = Math.max(0, total - head.length - tail.length);
  res.write(head);
  const pump = (): void => {
    while (left > 0) {
      const piece = left >= filler.length ? filler : filler.subarray(0, left);
      left -= piece.length;
      sent(piece.length);
      if (!res.write(piece)) return void res.once('drain', pump);
    }
    res.end(tail);
  };
  res.on('close', () => res.removeAllListeners('drain'));
  pump();
}

// ---------------------------------------------------------------------------------------------------------
// For the process tests (faults, interrupts, proxies, debug): known secret values, the commands that talk to
// the service, a config dir to watch, and the checks every failed run must pass.

export const SECRETS = {
  BLOGCTL_API_KEY: 'sk_test_Zq7vR2mKp9Lx4Wn8',
  BLOGCTL_WP_PASSWORD: 'abcd EFGH ijkl MNOP qrst UVWX',
  BLOGCTL_PROVIDER_API_KEY: 'prov_live_Hy3Tg6Jd1Qs5Fb0C',
};
/** Stored in credentials.json, used by `--site stored`. */
export const STORED_SITE_PASSWORD = 'wxyz STOR EDpw 4567 lmno PQRS';
export const WP_USER = 'editor';

/** Every spelling of a secret a careless log could show: as is, without spaces, and inside Basic auth. */
export function secretNeedles(): string[] {
  const needles = new Set<string>();
  for (const value of [...Object.values(SECRETS), STORED_SITE_PASSWORD]) {
    const compact = value.replace(/\s+/g, '');
    for (const v of [value, compact]) {
      needles.add(v);
      needles.add(Buffer.from(v).toString('base64'));
      needles.add(Buffer.from(`${WP_USER}:${v}`).toString('base64'));
    }
  }
  return [...needles];
}

export function expectNoSecrets(...outputs: string[]): void {
  for (const needle of secretNeedles()) {
    for (const out of outputs)
      expect(out.includes(needle), `secret ${needle.slice(0, 6)}… leaked`).toBe(false);
  }
}

/**
 * A config dir holding a profile, a site profile ("stored", the default site) and stored secrets, as a
 * user's would. `siteUrl`: where the stored site lives (a fake WordPress, for runs that look posts up).
 */
export function seededConfigDir(
  baseUrl = 'http://127.0.0.1:9/unused',
  siteUrl = 'https://stored.example',
): string {
  const dir = tempConfigDir();
  writeFileSync(
    join(dir, 'config.json'),
    `${JSON.stringify(
      {
        currentProfile: 'default',
        profiles: { default: { baseUrl } },
        settings: { 'default-site': 'stored' },
        sites: { stored: { url: siteUrl, username: WP_USER, label: 'Stored' } },
      },
      null,
      '\t',
    )}\n`,
    { mode: 0o600 },
  );
  writeFileSync(
    join(dir, 'credentials.json'),
    `${JSON.stringify({ apiKeys: { default: 'sk_stored_unused_key_0000' }, sitePasswords: { stored: STORED_SITE_PASSWORD } }, null, '\t')}\n`,
    { mode: 0o600 },
  );
  return dir;
}

/** Every file under a dir with its bytes and mode: compare before and after a run. */
export function snapshotDir(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else
        out[relative(dir, path)] =
          `${(statSync(path).mode & 0o777).toString(8)}:${readFileSync(path).toString('base64')}`;
    }
  };
  walk(dir);
  return out;
}

export interface ServiceCommand {
  name: string;
  /** The route the command's faults are planned on (the publish, for commands that publish). */
  route: RouteName;
  args: string[];
  /** Sent more than once only when repeating it is harmless. */
  idempotent: boolean;
  /** Posts a publishing command sends (a batch sends several); default 1. */
  posts?: number;
  /** Written to stdin. */
  input?: string;
}

/** Where the commands that publish with --url send the post (seededConfigDir's siteUrl for --site). */
export const DEFAULT_WORDPRESS_URL = 'https://wp.example';

/**
 * One `error:` line (stderr is not a terminal, so no hint lines under it), then with --json the JSON error
 * object; no stack trace; nothing on stdout.
 */
export function expectOneErrorLine(result: CliResult, options: { json?: boolean } = {}): void {
  const lines = result.stderr.split('\n').filter((l) => l.trim() !== '');
  const errors = lines.filter((l) => l.startsWith('error:'));
  expect(errors, result.stderr).toHaveLength(1);
  expect(lines[0], result.stderr).toMatch(/^error: \S/);
  expect(lines.slice(1), result.stderr).toEqual(options.json ? [expect.stringMatching(/^\{/)] : []);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stderr).not.toMatch(/\b(TypeError|ReferenceError|SyntaxError|RangeError|Undici|UND_ERR)\b/);
  expect(errors[0]!.length, 'the error line stays readable').toBeLessThan(600);
  expect(result.stderr).not.toMatch(/<[a-z!/][^>]*>/i);
}

// A service that answers with a redirect: never success (a 301 to a delete is not a delete), never followed
// (the API key must not travel to wherever it points), one line naming the status and the Location, exit 7.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFlags, tempConfigDir } from '../helpers/cli.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';

guardStrayOutput();

const KEY = 'redirect-test-key-0123456789';
let status = 301;
let service: Server;
let elsewhere: Server;
let base: string;
let other: string;
const seenElsewhere: IncomingMessage[] = [];

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

beforeAll(async () => {
  elsewhere = createServer((req, res) => {
    seenElsewhere.push(req);
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  other = await listen(elsewhere);
  service = createServer((req, res) => {
    req.resume();
    res.writeHead(status, { location: `${other}${req.url ?? '/'}` }).end();
  });
  base = await listen(service);
});
afterAll(async () => {
  await Promise.all([service, elsewhere].map((s) => new Promise((r) => s.close(r))));
});

const COMMANDS: [string, string[]][] = [
  ['blog list', ['blog', 'list']],
  ['blog create', ['blog', 'create', ...createFlags()]],
  ['blog delete', ['blog', 'delete', 'blog-1', '--yes', '--json']],
  ['wp settings update', ['wp', 'settings', 'update', '--site', 'main', '--label', 'Main']],
  [
    'wp publish',
    [
      'wp',
      'publish',
      '--url',
      'http://127.0.0.1:9',
      '--username',
      'u',
      '--title',
      'T',
      '--content',
      'c',
      '--service-only',
    ],
  ],
];

describe.each([301, 302, 307, 308])('HTTP %i', (code) => {
  it.each(COMMANDS)(
    '%s: exit 7 naming the status and the Location; nothing sent elsewhere',
    async (_name, args) => {
      status = code;
      const res = await runInProcess(['--base-url', base, '--retries', '0', ...args], {
        env: {
          BLOGCTL_API_KEY: KEY,
          BLOGCTL_CONFIG_DIR: tempConfigDir(),
          BLOGCTL_WP_PASSWORD: 'abcd efgh ijkl mnop',
        },
      });
      expect(res.code, res.stderr).toBe(7);
      const line = res.stderr.split('\n').find((l) => l.startsWith('error:'))!;
      expect(line).toMatch(
        new RegExp(
          `the server answered HTTP ${code}, a redirect to ${other.replace(/[.:/]/g, '\\$&')}/\\S*; blogctl does not follow redirects`,
        ),
      );
      expect(res.stdout + res.stderr).not.toContain(KEY);
      expect(seenElsewhere).toEqual([]);
      if (args[1] === 'delete')
        expect(JSON.parse(res.stdout)).toEqual([expect.objectContaining({ deleted: false })]);
    },
  );
});

describe('the advice a redirect gets names the address that moved', () => {
  it('the service: its base URL; a WordPress site: the site URL, never the base URL', async () => {
    status = 301;
    const env = {
      BLOGCTL_API_KEY: KEY,
      BLOGCTL_CONFIG_DIR: tempConfigDir(),
      BLOGCTL_BASE_URL: base,
      BLOGCTL_WP_PASSWORD: 'abcd efgh ijkl mnop',
    };
    const service = await runInProcess(['--retries', '0', '--no-input', 'blog', 'list', '--json'], { env });
    expect(service.code).toBe(7);
    expect(service.stderr).toMatch(
      /if the service moved, use its new address as the base URL \(BLOGCTL_BASE_URL\)/,
    );
    const add = await runInProcess(
      ['wp', 'sites', 'add', 'moved', '--url', base, '--username', 'u', '--no-verify'],
      { env },
    );
    expect(add.code, add.stderr).toBe(0);
    const site = await runInProcess(['--retries', '0', '--json', 'wp', 'sites', 'verify', 'moved'], { env });
    expect(site.code).toBe(7);
    expect(site.stderr).toContain(
      `the WordPress site ${base} redirects: use the address it points to as the site's URL`,
    );
    expect(site.stderr).not.toMatch(/base URL|BLOGCTL_BASE_URL/);
  });
});

// Hostile servers that echo the Authorization header they were sent into their error messages, where the
// CLI cuts a peer's message short (300 characters): the secret is hidden before the cut, and the cut never
// leaves the start of a secret, in the error line and in the --json error object. The real command tree
// in-process against real servers on 127.0.0.1.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';
import { tempConfigDir } from '../helpers/cli.js';

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse, base: string) => void,
): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handler(req, res, base));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return base;
}

/** Every start of `secret` at least 4 characters long that `text` contains. */
function startsIn(text: string, secret: string): string[] {
  const found: string[] = [];
  for (let k = 4; k <= secret.length; k++)
    if (text.includes(secret.slice(0, k))) found.push(secret.slice(0, k));
  return found;
}

const API_KEY = 'sk_test_Zq7vR2mKp9Lx4Wn8Tb5Q';

describe('the service echoing "Authorization: Bearer <key>" near the cut', () => {
  /** How many characters of padding come before the header, for this run. */
  let pad = 0;
  let html = false;
  let url = '';

  it.each([false, true])('html %s: no start of the key at any cut position', async (asHtml) => {
    html = asHtml;
    url ||= await listen((req, res) => {
      const echo = `${'x'.repeat(pad)} you sent Authorization: ${req.headers.authorization ?? ''} which is bad`;
      if (html) {
        res.writeHead(400, { 'content-type': 'text/html' });
        res.end(`<html><head><title>${echo}</title></head></html>`);
      } else {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: echo }));
      }
    });
    const env = { BLOGCTL_API_KEY: API_KEY, BLOGCTL_CONFIG_DIR: tempConfigDir(), BLOGCTL_RETRY_BASE_MS: '1' };
    // The message is cut at 300 characters: every position from before "Bearer" to past the key's end.
    const before = ' you sent Authorization: Bearer '.length;
    for (let cut = 280; cut <= 300 + 4; cut++) {
      pad = Math.max(0, cut - before);
      const res = await runInProcess(['--base-url', url, 'blog', 'list', '--json'], { env });
      expect(res.code, res.stderr).not.toBe(0);
      const [line, json] = res.stderr.trimEnd().split('\n');
      expect(line).toMatch(/^error: /);
      expect(JSON.parse(json!)).toHaveProperty('message');
      expect(startsIn(res.stderr, API_KEY), `pad ${pad}: ${res.stderr}`).toEqual([]);
    }
    // Whole and not cut, the key is hidden too.
    pad = 0;
    const whole = await runInProcess(['--base-url', url, 'blog', 'list'], { env });
    expect(whole.stderr).toContain('Bearer ***');
  });
});

describe('a peer echoing the key cut short its own way', () => {
  const KEY = 'sk_live_4Fq9Zr2Kp7Lx8Wn3Tb6Qm1Vc5Yd0Hs2Jg4'; // 40 characters
  let shown = '';
  it.each([
    ['a start and "..."', (k: string) => `${k.slice(0, 28)}...`],
    ['"..." and an end', (k: string) => `...${k.slice(-28)}`],
    ['the middle elided', (k: string) => `${k.slice(0, 14)}...${k.slice(-14)}`],
    ['the middle elided with "…"', (k: string) => `${k.slice(0, 10)}…${k.slice(-10)}`],
    ['a start and " [...]"', (k: string) => `${k.slice(0, 20)} [...]`],
  ])('%s: none of it in the error line or the --json error object', async (_name, cut) => {
    shown = cut(KEY);
    const url = await listen((req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `invalid API key ${shown}` }));
    });
    const env = { BLOGCTL_API_KEY: KEY, BLOGCTL_CONFIG_DIR: tempConfigDir() };
    for (const args of [
      ['blog', 'list'],
      ['blog', 'list', '--json'],
    ]) {
      const res = await runInProcess(['--base-url', url, ...args], { env });
      expect(res.code).toBe(4);
      expect(res.stderr).toContain('invalid API key');
      for (let k = 4; k <= KEY.length; k++) expect(res.stderr, res.stderr).not.toContain(KEY.slice(0, k));
      for (let k = 5; k <= KEY.length; k++) expect(res.stderr, res.stderr).not.toContain(KEY.slice(-k));
    }
  });
});

describe('WordPress echoing the Basic Authorization header (usernames of each length mod 3)', () => {
  const PASSWORD = 'abcd EFGH ijkl MNOP qrst UVWX';
  let pad = 0;

  it.each(['a', 'ed', 'bob', 'edit', 'editor', 'editors'])('username %j', async (username) => {
    const url = await listen((req, res, base) => {
      const link = `<${base}/wp-json/>; rel="https://api.w.org/"`;
      if (!req.headers.authorization) {
        res.writeHead(200, { 'content-type': 'text/html', link });
        return void res.end('<html><head><title>Hostile</title></head></html>');
      }
      res.writeHead(401, { 'content-type': 'application/json', link });
      res.end(
        JSON.stringify({
          code: 'rest_not_logged_in',
          message: `${'y'.repeat(pad)} got ${req.headers.authorization} from you`,
        }),
      );
    });
    const encoded = Buffer.from(`${username}:${PASSWORD}`).toString('base64');
    // The base64 characters that come from the password's bytes alone: they decode to part of it.
    const fromPassword = encoded.slice(Math.ceil((username.length + 1) / 3) * 4, -4);
    // The site as `wp sites add` stores it: the password in credentials.json (0600).
    const dir = tempConfigDir();
    const config = { sites: { h: { url, username, label: 'Hostile' } } };
    writeFileSync(join(dir, 'config.json'), `${JSON.stringify(config)}\n`, { mode: 0o600 });
    const credentials = { sitePasswords: { h: PASSWORD } };
    writeFileSync(join(dir, 'credentials.json'), `${JSON.stringify(credentials)}\n`, { mode: 0o600 });
    const env = { BLOGCTL_CONFIG_DIR: dir };
    const args = ['wp', 'sites', 'verify', 'h', '--json'];
    for (const cut of [0, 250, 260, 270, 280, 290, 295]) {
      pad = cut;
      const res = await runInProcess(args, { env });
      expect(res.code, res.stderr).toBe(4);
      expect(res.stderr).toContain('from you');
      for (const text of [res.stdout, res.stderr]) {
        expect(text, `pad ${cut}`).not.toContain(encoded);
        expect(text, `pad ${cut}`).not.toContain(fromPassword);
        expect(startsIn(text, encoded), `pad ${cut}: ${text}`).toEqual([]);
      }
    }
  });
});

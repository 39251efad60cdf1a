// The service's base URL as people type it, in-process against the sandbox: whatever part of the API prefix
// is typed after it (`/api`, `/api/v1/public/`, trailing slashes) is not sent twice; a base URL that answers
// a web page, and one that cannot be reached, get advice naming where the URL came from.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir, type CliResult } from '../helpers/cli.js';
import { unusedLocalUrl } from '../helpers/fake-wordpress.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

guardStrayOutput();

let sandbox: TestSandbox;
/** A web site: every path answers an HTML page, as a base URL pointing at a company's home page would. */
let site: Server;
let siteUrl: string;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  site = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><body><h1>Welcome</h1></body></html>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await sandbox?.close();
  await new Promise((resolve) => site?.close(resolve));
});

const run = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
  runInProcess(args, {
    env: { BLOGCTL_CONFIG_DIR: tempConfigDir(), BLOGCTL_API_KEY: sandbox.apiKey, ...env },
  });

describe('a typed base URL is normalised', () => {
  it.each(['/api', '/api/', '/api/v1', '/api/v1/public', '/api/v1/public/', '/API/V1/Public//', '//'])(
    '--base-url <sandbox>%s lists the blogs',
    async (suffix) => {
      const res = await run(['--base-url', `${sandbox.url}${suffix}`, 'blog', 'list', '--json', 'id']);
      expect(res.code, res.stderr).toBe(0);
      expect(Array.isArray(JSON.parse(res.stdout))).toBe(true);
    },
  );

  it('BLOGCTL_BASE_URL and config set base-url too', async () => {
    const viaEnv = await run(['blog', 'list', '--json', 'id'], { BLOGCTL_BASE_URL: `${sandbox.url}/api/` });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    const dir = tempConfigDir();
    const env = { BLOGCTL_CONFIG_DIR: dir };
    expect((await run(['config', 'set', 'base-url', `${sandbox.url}/api/v1/public/`], env)).code).toBe(0);
    const got = await run(['config', 'get', 'base-url'], env);
    expect(got.stdout).toBe(`${sandbox.url}\n`);
  });
});

describe('a base URL that is not the service', () => {
  it('answers a web page: exit 7, "this looks like a web page", naming --base-url', async () => {
    const res = await run(['--base-url', siteUrl, 'blog', 'list']);
    expect(res.code).toBe(7);
    expect(res.stderr).toContain('this looks like a web page, not the blogctl API: check --base-url');
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('from BLOGCTL_BASE_URL: the advice names the variable', async () => {
    const res = await run(['blog', 'list'], { BLOGCTL_BASE_URL: siteUrl });
    expect(res.code).toBe(7);
    expect(res.stderr).toContain('from BLOGCTL_BASE_URL');
  });

  it('cannot be reached: exit 7 with what to check', async () => {
    const url = await unusedLocalUrl();
    const res = await run(['--base-url', url, '--retries', '0', 'blog', 'list']);
    expect(res.code).toBe(7);
    expect(res.stderr).toContain(`check the base URL (${url}, from --base-url), that the service is up`);
  });
});

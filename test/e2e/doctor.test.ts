// `blogctl wp doctor` against the real WordPress, both permalink modes: with the admin's Application Password
// nothing is in the way (exit 0); an Author can publish but not sync (exit 4, the account); and behind a proxy
// on 127.0.0.1 that strips the Authorization header, as a CGI/FastCGI server or a misconfigured proxy does,
// the authorization check fails (exit 4) with the fixes for the servers in front.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';
import { createAuthor } from './users.js';

const instances = wordpressInstances();
let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'blogctl-e2e-doctor-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A reverse proxy to `target` that drops the Authorization header of every request. */
async function strippingProxy(target: string): Promise<{ url: string; server: Server }> {
  const to = new URL(target);
  const server = createServer((req, res) => {
    const headers = { ...req.headers, host: to.host };
    delete headers.authorization;
    const upstream = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

interface Report {
  ok: boolean;
  checks: { name: string; status: string; summary: string; likely?: boolean; fix?: string[] }[];
}

describe.each(instances)('blogctl wp doctor with $permalinks permalinks', (wp: WordPressInstance) => {
  const doctor = async (url: string, username: string, password: string) => {
    const res = await runCli(['--json', 'wp', 'doctor', url, '--username', username, '--password-stdin'], {
      env: { BLOGCTL_CONFIG_DIR: join(work, `${wp.permalinks}-${username}`) },
      input: password,
    });
    const report = JSON.parse(res.stdout) as Report;
    return { ...res, report, failed: report.checks.find((c) => c.status === 'fail') };
  };

  it('the admin account: every check passes, exit 0', async () => {
    const r = await doctor(wp.baseUrl, wp.username, wp.appPassword);
    expect(r.code, r.stderr).toBe(0);
    expect(r.report.ok).toBe(true);
    expect(r.report.checks.find((c) => c.name === 'permalinks')?.summary).toContain(
      wp.permalinks === 'plain' ? '?rest_route=' : '/wp-json/',
    );
    expect(r.stdout + r.stderr).not.toContain(wp.appPassword);
  });

  it('an Author: it may publish but not sync, exit 4', async () => {
    const author = await createAuthor(wp, `doctor-${wp.permalinks}-${RUN_ID}`);
    const r = await doctor(wp.baseUrl, author.username, author.appPassword);
    expect(r.code).toBe(4);
    expect(r.failed?.name).toBe('account');
    expect(r.failed?.summary).toContain('can publish but not sync');
  });

  it('behind a proxy that strips the Authorization header: the authorization check fails, exit 4', async () => {
    const proxy = await strippingProxy(wp.baseUrl);
    try {
      const r = await doctor(proxy.url, wp.username, wp.appPassword);
      expect(r.code).toBe(4);
      expect(r.failed?.name).toBe('authorization');
      // WordPress 6.1 answers a missing and a wrong password alike: a likely cause, with the fixes.
      expect(r.failed?.likely).toBe(true);
      expect(r.failed?.fix?.join('\n')).toContain('HTTP_AUTHORIZATION');
      expect(r.stdout + r.stderr).not.toContain(wp.appPassword);
    } finally {
      proxy.server.close();
    }
  });
});

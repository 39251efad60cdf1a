// A server whose certificate no known authority signed (a company proxy's, a self-signed site's): the error
// says so and names NODE_EXTRA_CA_CERTS, the documented way to add the authority — never a flag that turns
// checking off.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { UnavailableError } from '../../src/errors.js';
import { HttpClient } from '../../src/http/client.js';

let server: Server;
let url: string;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'blogctl-tls-'));
  // A throw-away self-signed certificate for 127.0.0.1, made by the machine's openssl.
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  server = createServer(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
    (_req, res) => res.end('[]'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('an unknown certificate authority: exit 7, naming NODE_EXTRA_CA_CERTS', async () => {
  const http = new HttpClient({ baseUrl: url, retry: { retries: 0 } });
  try {
    const error = await http
      .request({ method: 'GET', path: '/x', label: 'list blogs' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as Error).message).toMatch(
      /^list blogs failed: cannot reach https:\/\/127\.0\.0\.1:\d+: the server's certificate is signed by an authority Node does not know \(add it with NODE_EXTRA_CA_CERTS=/,
    );
  } finally {
    await http.close();
  }
});

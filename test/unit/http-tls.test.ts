// A server whose certificate no known authority signed (a company proxy's, a self-signed site's): the error
// says so and names NODE_EXTRA_CA_CERTS, the documented way to add the authority — never a flag that turns
// checking off.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { UnavailableError } from '../../src/errors.js';
import { HttpClient } from '../../src/http/client.js';
import { selfSignedCert } from '../helpers/tls.js';

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer(selfSignedCert(), (_req, res) => res.end('[]'));
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

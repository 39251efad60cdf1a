// Whose config (as ssh with ~/.ssh): a config dir, config.json or credentials.json that another user owns or
// that others may write is refused with the fix, before anything is sent with what it says. Real modes and
// owners (chmod, chown to uid 65534: the suite runs as root in CI), a real server on 127.0.0.1 that must
// receive nothing.
import { chmodSync, chownSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';

guardStrayOutput();

const KEY = 'sk_live_TheirServerWantsThis0123';
let server: Server;
let url: string;
let requests = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** A config dir whose profile sends the key to the server. */
function configDir(): string {
  const dir = tempConfigDir();
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { baseUrl: url } } }), {
    mode: 0o600,
  });
  writeFileSync(join(dir, 'credentials.json'), JSON.stringify({ apiKeys: { default: KEY } }), {
    mode: 0o600,
  });
  return dir;
}

const asRoot = process.getuid?.() === 0;

describe('a config others can change, or another user owns', () => {
  it('as it should be: used', async () => {
    const res = await runInProcess(['blog', 'list', '--json'], { env: { BLOGCTL_CONFIG_DIR: configDir() } });
    expect(res.code, res.stderr).toBe(0);
  });

  it.each([
    [
      'a world-writable config dir',
      (dir: string) => chmodSync(dir, 0o777),
      '',
      'may be changed by anyone (mode 0777)',
      'chmod go-w',
    ],
    [
      'a group-writable config dir',
      (dir: string) => chmodSync(dir, 0o770),
      '',
      'may be changed by its group (mode 0770)',
      'chmod go-w',
    ],
    [
      'a world-writable config.json',
      (dir: string) => chmodSync(join(dir, 'config.json'), 0o666),
      'config.json',
      'may be changed by anyone (mode 0666)',
      'chmod go-w',
    ],
    [
      'a group-writable credentials.json',
      (dir: string) => chmodSync(join(dir, 'credentials.json'), 0o620),
      'credentials.json',
      'may be changed by its group (mode 0620)',
      'chmod go-w',
    ],
  ])('%s: exit 2 naming it and the fix, nothing sent', async (_name, spoil, file, why, fix) => {
    const dir = configDir();
    spoil(dir);
    const before = requests;
    const res = await runInProcess(['blog', 'list'], { env: { BLOGCTL_CONFIG_DIR: dir } });
    expect(res.code).toBe(2);
    const path = file ? join(dir, file) : dir;
    expect(res.stderr).toContain(`the config ${file ? 'file' : 'folder'} ${path} ${why}`);
    expect(res.stderr).toContain(`${fix} ${path}`);
    expect(requests).toBe(before);
  });

  it.runIf(asRoot).each([
    ['the config dir', ''],
    ['config.json', 'config.json'],
    ['credentials.json', 'credentials.json'],
  ])('%s of another user (uid 65534): exit 2 naming it, nothing sent', async (_name, file) => {
    const dir = configDir();
    const path = file ? join(dir, file) : dir;
    chownSync(path, 65534, 65534);
    const before = requests;
    const res = await runInProcess(['blog', 'list'], { env: { BLOGCTL_CONFIG_DIR: dir } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`${path} belongs to another user (uid 65534; you are uid 0)`);
    expect(requests).toBe(before);
    // Nor is anything written into it.
    const login = await runInProcess(['auth', 'login', '--with-key', '--no-verify'], {
      env: { BLOGCTL_CONFIG_DIR: dir },
      input: 'sk_live_mine0123456789\n',
    });
    expect(login.code).toBe(2);
    expect(login.stderr).toContain('belongs to another user');
  });
});

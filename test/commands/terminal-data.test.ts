// A server's colour codes in a blog are shown on a terminal, not obeyed: `blog show` and `--jq` text results
// make every escape sequence of the data visible (^[[31m), colours included, while blogctl's own colours
// (the only escape sequences it writes) stay. In-process, with a stdout that is a terminal, against a server
// on 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { IO } from '../../src/output/io.js';
import { cliEnv, tempConfigDir } from '../helpers/cli.js';
import { guardStrayOutput } from '../helpers/in-process.js';

guardStrayOutput();

const ESC = '\u001b';
const TITLE = `Plain ${ESC}[31mred${ESC}[39m ${ESC}[1mbold${ESC}[22m`;
const CONTENT = `<p>Some ${ESC}[32mgreen${ESC}[39m text</p>`;
let server: Server;
let url = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify([{ _id: 'blog-colour', title: TITLE, content: CONTENT, status: 'generated' }]));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

/** The command run with stdout a terminal (colour on); what it wrote there. */
async function onTerminal(args: string[]): Promise<{ code: number; stdout: string }> {
  const env = cliEnv({
    BLOGCTL_API_KEY: 'sk_test_terminal_data_key',
    BLOGCTL_CONFIG_DIR: tempConfigDir(),
    BLOGCTL_PAGER: '',
    FORCE_COLOR: '1',
  });
  const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
  const stderr = new PassThrough();
  stderr.resume();
  let out = '';
  stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const io = new IO({ stdin: new PassThrough(), stdout, stderr, env });
  const code = await run(['node', 'blogctl', '--base-url', url, ...args], { env, io });
  await new Promise((r) => setImmediate(r));
  return { code, stdout: out };
}

describe("a server's colour codes on a terminal", () => {
  it('blog show: shown in caret notation, never sent as escape sequences', async () => {
    const res = await onTerminal(['blog', 'show', 'blog-colour']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Plain ^[[31mred^[[39m ^[[1mbold^[[22m');
    expect(res.stdout).toContain('^[[32mgreen^[[39m');
    for (const code of ['[31mred', '[1mbold', '[32mgreen']) expect(res.stdout).not.toContain(`${ESC}${code}`);
  });

  it('blog show --field title, and a --jq text result: the same', async () => {
    for (const args of [
      ['blog', 'show', 'blog-colour', '--field', 'title'],
      ['blog', 'show', 'blog-colour', '--json', '--jq', '.title'],
    ]) {
      const res = await onTerminal(args);
      expect(res.code).toBe(0);
      expect(res.stdout.trim()).toBe('Plain ^[[31mred^[[39m ^[[1mbold^[[22m');
    }
  });
});

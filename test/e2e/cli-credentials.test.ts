// Credentials the real WordPress refuses, both permalink modes: `wp sites add` asks the site before storing
// (a wrong Application Password and the login password are refused, exit 4, nothing stored); a wrong password
// stored unchecked makes a publish of a file exit 4 with the causes (WordPress answers its look-up of the
// site's posts as to an anonymous caller: 400 "Invalid parameter(s): status"); `wp sites set-password`
// mends the profile and the same publish then goes through.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';

const WRONG = 'aaaa bbbb cccc dddd eeee ffff';
const instances = wordpressInstances();
let sandbox: TestSandbox;
let work: string;
beforeAll(async () => {
  sandbox = await startTestSandbox({ wordpressTimeoutMs: 30_000 });
  work = await mkdtemp(join(tmpdir(), 'blogctl-e2e-credentials-'));
});
afterAll(async () => {
  await sandbox?.close();
  await rm(work, { recursive: true, force: true });
});

describe.each(instances)('refused credentials with $permalinks permalinks', (wp: WordPressInstance) => {
  let dir: string;
  const blogctl = (args: string[], input?: string): Promise<CliResult> =>
    runCli(['--base-url', sandbox.url, ...args], {
      env: { BLOGCTL_CONFIG_DIR: join(dir, 'config'), BLOGCTL_API_KEY: sandbox.apiKey },
      cwd: dir,
      timeoutMs: 60_000,
      ...(input !== undefined && { input }),
    });
  const add = (id: string, password: string, ...extra: string[]): Promise<CliResult> =>
    blogctl(
      [
        'wp',
        'sites',
        'add',
        id,
        '--url',
        wp.baseUrl,
        '--username',
        wp.username,
        '--password-stdin',
        ...extra,
      ],
      `${password}\n`,
    );
  const sites = async (): Promise<string[]> =>
    (JSON.parse((await blogctl(['wp', 'sites', 'list', '--json', 'id'])).stdout) as { id: string }[]).map(
      (s) => s.id,
    );

  beforeAll(async () => {
    dir = await mkdtemp(join(work, `${wp.permalinks}-`));
  });

  it.each([
    ['a wrong Application Password', WRONG],
    ['the login password', 'login'],
  ])('wp sites add with %s: exit 4 with the causes, nothing stored', async (_name, which) => {
    const res = await add('refused', which === 'login' ? wp.adminPassword : which);
    expect(res.code, res.stderr).toBe(4);
    expect(res.stderr).toMatch(/^error: WordPress site "refused" not added: .*HTTP 401/);
    expect(res.stderr).toContain('the Application Password is wrong or was revoked');
    expect(await sites()).toEqual([]);
  });

  it('publishing a file with a wrong stored password: exit 4 with the causes; set-password mends it', async () => {
    expect((await add('site', WRONG, '--no-verify')).code).toBe(0);
    const file = `post-${RUN_ID}-${wp.permalinks}.md`;
    await writeFile(
      join(dir, file),
      `---\nkey: credentials-${RUN_ID}\n---\n# Credentials ${RUN_ID}\n\nBody.\n`,
    );

    const refused = await blogctl(['wp', 'publish', '--site', 'site', file]);
    expect(refused.code, refused.stderr).toBe(4);
    expect(refused.stderr).toContain('HTTP 401');
    expect(refused.stderr).toContain('the Application Password is wrong or was revoked');
    expect(refused.stderr).toContain('blogctl wp sites set-password');
    expect(refused.stderr).not.toContain('aaaa bbbb');

    const set = await blogctl(
      ['wp', 'sites', 'set-password', 'site', '--password-stdin'],
      `${wp.appPassword}\n`,
    );
    expect(set.code, set.stderr).toBe(0);
    const config = JSON.parse(await readFile(join(dir, 'config', 'config.json'), 'utf8')) as {
      sites: Record<string, { isWebsiteValid?: boolean }>;
    };
    expect(config.sites['site']?.isWebsiteValid).toBe(true);

    const published = await blogctl(['wp', 'publish', '--site', 'site', file, '--json']);
    expect(published.code, published.stderr).toBe(0);
  });
});

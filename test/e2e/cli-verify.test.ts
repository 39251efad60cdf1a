// `blogctl wp sites verify` against real WordPress, both permalink modes: good credentials pass and are
// recorded on the profile; an Author is told it may create tags but not categories; a wrong Application
// Password, the password's name given as the username and the login password are refused with exit 4 and
// the likely causes as hint lines.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';
import { createAuthor } from './users.js';

const instances = wordpressInstances();
let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'blogctl-e2e-verify-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe.each(instances)('blogctl wp sites verify with $permalinks permalinks', (wp: WordPressInstance) => {
  let config: string;
  const blogctl = (args: string[], input?: string): Promise<CliResult> =>
    runCli(args, { env: { BLOGCTL_CONFIG_DIR: config }, ...(input !== undefined && { input }) });
  const add = async (id: string, username: string, password: string): Promise<void> => {
    const res = await blogctl(
      // Stored unchecked (--no-verify): what `wp sites verify` says of refused credentials is the test.
      [
        'wp',
        'sites',
        'add',
        id,
        '--url',
        wp.baseUrl,
        '--username',
        username,
        '--password-stdin',
        '--no-verify',
      ],
      `${password}\n`,
    );
    expect(res.code, res.stderr).toBe(0);
  };
  const profile = async (id: string) =>
    JSON.parse(await readFile(join(config, 'config.json'), 'utf8')).sites[id] as Record<string, unknown>;

  beforeAll(async () => {
    config = join(await mkdtemp(join(work, `${wp.permalinks}-`)), 'config');
    await add('good', wp.username, wp.appPassword);
    await add('wrong', wp.username, 'aaaa bbbb cccc dddd eeee ffff');
    await add('named', wp.appPasswordName, wp.appPassword);
    await add('login', wp.username, wp.adminPassword);
  });

  it('passes for good credentials and reports what they may do', async () => {
    const res = await blogctl(['wp', 'sites', 'verify', 'good', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      id: 'good',
      valid: true,
      restRoot: wp.restUrl,
      permalinks: wp.permalinks,
      applicationPasswords: true,
      user: { id: 1, username: wp.username, roles: ['administrator'] },
      can: { publish: true, uploadMedia: true, createCategories: true, createTags: true, sync: true },
    });
    expect(await profile('good')).toMatchObject({ isWebsiteValid: true, verifiedAt: expect.any(String) });
    const human = await blogctl(['wp', 'sites', 'verify', 'good']);
    expect(human.stdout.split('\n')).toContain(`REST API:           ${wp.restUrl}`);
    expect(human.stdout).toMatch(/can publish: +yes/);
  });

  it('an Author may create tags but not categories, and is told exactly that', async () => {
    const author = await createAuthor(wp, `author-v-${RUN_ID}-${wp.permalinks}`);
    await add('author', author.username, author.appPassword);
    const res = await blogctl(['wp', 'sites', 'verify', 'author', '--json', 'user,can']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      user: { username: author.username, roles: ['author'] },
      can: { publish: true, uploadMedia: true, createCategories: false, createTags: true, sync: false },
    });
    const human = await blogctl(['wp', 'sites', 'verify', 'author']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/can add categories: +no\ncan add tags: +yes\ncan sync: +no\n$/);
    expect(human.stderr).toContain(
      'this user cannot create categories (WordPress asks for manage_categories: an Editor or Administrator): --create-terms can add new tags, not new categories',
    );
    expect(human.stdout + human.stderr).not.toContain(author.appPassword);
  });

  it.each([
    ['wrong', 'a wrong Application Password'],
    ['named', "the Application Password's name as the username"],
    ['login', 'the login password'],
  ])('explains %s (%s): exit 4 with the likely causes', async (id) => {
    const res = await blogctl(['wp', 'sites', 'verify', id]);
    expect(res.code).toBe(4);
    expect(res.stdout).toBe('');
    // stderr is not a terminal: one line, the likely causes folded into it; --json lists them one by one.
    const lines = res.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: WordPress at .* did not accept the credentials of ".*": HTTP 401/);
    expect(lines[0]).toContain('not the name given to the Application Password');
    const json = await blogctl(['wp', 'sites', 'verify', id, '--json']);
    expect(json.code).toBe(4);
    const hints = (JSON.parse(json.stderr.trimEnd().split('\n')[1]!) as { hints: string[] }).hints;
    expect(hints.length).toBeGreaterThanOrEqual(3);
    expect(hints.join('\n')).toContain('not the name given to the Application Password');
    expect(json.stderr).not.toContain(wp.adminPassword);
    expect(res.stderr).not.toContain(wp.adminPassword);
    expect(await profile(id)).toMatchObject({ isWebsiteValid: false });
  });
});

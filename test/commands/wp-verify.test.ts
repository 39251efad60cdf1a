// `wp sites verify` (the command tree in-process) against a fake WordPress: good credentials (report, --json, the profile
// marked valid), a wrong Application Password (exit 4, the likely causes in the --json error object, marked
// not valid), a site that cannot be reached (exit 7, profile untouched) and an unknown profile (exit 5).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir, type CliResult } from '../helpers/cli.js';
import { startFakeWordPress, unusedLocalUrl, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';

guardStrayOutput();

let wp: FakeWordPress;
let plain: FakeWordPress;
beforeAll(async () => {
  [wp, plain] = await Promise.all([startFakeWordPress(), startFakeWordPress({ permalinks: 'plain' })]);
});
afterAll(async () => {
  await Promise.all([wp.close(), plain.close()]);
});

async function withSite(
  url: string,
  password: string,
  username = 'admin',
): Promise<{ dir: string; run: (args: string[]) => Promise<CliResult> }> {
  const dir = tempConfigDir();
  const env = { BLOGCTL_CONFIG_DIR: dir };
  const add = await runInProcess(
    ['wp', 'sites', 'add', 'site', '--url', url, '--username', username, '--password-stdin', '--no-verify'],
    {
      env,
      input: `${password}\n`,
    },
  );
  expect(add.code, add.stderr).toBe(0);
  return { dir, run: (args) => runInProcess(args, { env }) };
}

const profile = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).sites.site;

describe('wp sites verify', () => {
  it('good credentials: the report, and the profile recorded as valid', async () => {
    const { dir, run } = await withSite(wp.url, wp.password);
    const res = await run(['wp', 'sites', 'verify', 'site']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`REST API:           ${wp.url}/wp-json/`);
    expect(res.stdout).toContain('permalinks:         pretty (/wp-json/)');
    expect(res.stdout).toContain('app passwords:      available');
    expect(res.stdout).toContain('user:               admin (id 1, Fake Admin)');
    expect(res.stdout).toContain('roles:              administrator');
    expect(res.stdout).toMatch(
      /can publish: +yes\ncan upload: +yes\ncan add categories: +yes\ncan add tags: +yes\ncan sync: +yes\n$/,
    );
    expect(res.stderr).not.toContain('warning');
    expect(profile(dir)).toMatchObject({ isWebsiteValid: true, verifiedAt: expect.any(String) });
    const show = await run(['wp', 'sites', 'show', 'site', '--json', 'isWebsiteValid,verifiedAt']);
    expect(JSON.parse(show.stdout)).toEqual({ isWebsiteValid: true, verifiedAt: profile(dir).verifiedAt });
    // -q: only the id of the site that works.
    expect(await run(['wp', 'sites', 'verify', 'site', '-q'])).toMatchObject({ code: 0, stdout: 'site\n' });
  });

  it('--json, and plain permalinks are found through ?rest_route=', async () => {
    const { run } = await withSite(plain.url, plain.password);
    const res = await run(['wp', 'sites', 'verify', 'site', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({
      id: 'site',
      url: plain.url,
      valid: true,
      verifiedAt: expect.any(String),
      restRoot: `${plain.url}/index.php?rest_route=/`,
      permalinks: 'plain',
      applicationPasswords: true,
      siteName: 'Fake WordPress',
      user: { id: 1, name: 'Fake Admin', slug: 'admin', username: 'admin', roles: ['administrator'] },
      can: { publish: true, uploadMedia: true, createCategories: true, createTags: true, sync: true },
      // No companion plugin on the fake site: the sync keeps its state in the marker.
      syncState: { kind: 'marker' },
      seo: {
        plugin: null,
        writable: [],
        missing: Object.fromEntries(
          ['title', 'description', 'focus_keyword', 'canonical', 'noindex'].map((f) => [
            f,
            'no SEO plugin on the site',
          ]),
        ),
      },
    });
  });

  it('an Author: may create tags but not categories, and the warning says exactly that', async () => {
    const author = await startFakeWordPress({ role: 'author' });
    try {
      const { run } = await withSite(author.url, author.password);
      const res = await run(['wp', 'sites', 'verify', 'site']);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toMatch(/can add categories: +no\ncan add tags: +yes\ncan sync: +no\n$/);
      expect(res.stderr).toContain(
        'warning: this user cannot create categories (WordPress asks for manage_categories: an Editor or Administrator): --create-terms can add new tags, not new categories',
      );
      const json = await run(['wp', 'sites', 'verify', 'site', '--json', 'user,can']);
      expect(JSON.parse(json.stdout)).toMatchObject({
        user: { roles: ['author'] },
        can: { publish: true, uploadMedia: true, createCategories: false, createTags: true, sync: false },
      });
    } finally {
      await author.close();
    }
  });

  it('a wrong Application Password: exit 4, the causes in the --json error, the profile marked not valid', async () => {
    const { dir, run } = await withSite(wp.url, 'wrong pass 1234 5678');
    const res = await run(['wp', 'sites', 'verify', 'site']);
    expect(res.code).toBe(4);
    expect(res.stdout).toBe('');
    // Not a terminal: the one line, no hint lines under it.
    expect(res.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        /^error: WordPress at .* did not accept the credentials of "admin": HTTP 401 .*You are not currently logged in/,
      ),
    ]);
    const json = await run(['wp', 'sites', 'verify', 'site', '--json']);
    expect(json.code).toBe(4);
    const [line, object, ...rest] = json.stderr.trimEnd().split('\n');
    expect(line).toBe(res.stderr.trimEnd());
    expect(rest).toEqual([]);
    expect((JSON.parse(object!) as { hints: string[] }).hints.join('\n')).toMatch(
      /Application Password is wrong[\s\S]*name given to the Application Password[\s\S]*Authorization header/,
    );
    for (const r of [res, json]) expect(r.stderr).not.toContain('wrong pass 1234 5678');
    expect(profile(dir)).toMatchObject({ isWebsiteValid: false, verifiedAt: expect.any(String) });
  });

  it('a REST API without wp/v2: exit 7, "REST API present but wp/v2 missing"', async () => {
    const locked = await startFakeWordPress({ namespaces: ['oembed/1.0'] });
    try {
      const { dir, run } = await withSite(locked.url, locked.password);
      const res = await run(['wp', 'sites', 'verify', 'site']);
      expect(res.code).toBe(7);
      expect(res.stdout).toBe('');
      // One line (stderr is not a terminal), the advice folded into it; also in the --json error object.
      expect(res.stderr).toMatch(
        /^error: WordPress at .*: REST API present but wp\/v2 missing \(the REST index at .*\/wp-json\/ lists the namespaces: oembed\/1\.0\) \(blogctl needs wp\/v2 .*\)\n$/,
      );
      const json = await run(['wp', 'sites', 'verify', 'site', '--json']);
      expect(json.code).toBe(7);
      expect(JSON.parse(json.stderr.split('\n')[1]!).hints).toEqual([
        expect.stringMatching(/^blogctl needs wp\/v2/),
        expect.stringMatching(/disables the REST API/),
      ]);
      expect(profile(dir)).not.toHaveProperty('isWebsiteValid');
      expect(locked.requests.some((r) => r.url.includes('users/me'))).toBe(false);
    } finally {
      await locked.close();
    }
  });

  it('a site that cannot be reached: exit 7, the profile left as it was', async () => {
    const { dir, run } = await withSite(await unusedLocalUrl(), 'pw 1234');
    const res = await run(['wp', 'sites', 'verify', 'site']);
    expect(res.code).toBe(7);
    expect(res.stderr).toMatch(/^error: .*connection refused/);
    expect(profile(dir).isWebsiteValid).toBeUndefined();
  });

  it('an unknown profile: exit 5', async () => {
    const { run } = await withSite(wp.url, wp.password);
    const res = await run(['wp', 'sites', 'verify', 'ghost']);
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('no WordPress site profile "ghost"');
  });
});

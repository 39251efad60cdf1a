// `wp sites verify` reports the site's SEO plugin (from the REST index's namespaces) and which front matter
// `seo:` fields it can take, with the reason per field it cannot: Yoast SEO and Rank Math keep them in post
// meta that WordPress writes through REST only where the keys are registered (their own sources register
// none for REST: Yoast's inc/class-wpseo-meta.php and Rank Math's includes/rest/class-shared.php write them
// through their own code), so blogctl reads the registered keys from `OPTIONS wp/v2/posts` (the schema's
// properties.meta.properties, WP_REST_Meta_Fields::get_field_schema); AIOSEO takes all five on its own route
// (app/Common/Api/PostsTerms.php).
import { afterEach, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';

guardStrayOutput();

const YOAST_KEYS = [
  '_yoast_wpseo_title',
  '_yoast_wpseo_metadesc',
  '_yoast_wpseo_focuskw',
  '_yoast_wpseo_canonical',
  '_yoast_wpseo_meta-robots-noindex',
];

const servers: FakeWordPress[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function verify(options: Parameters<typeof startFakeWordPress>[0], ...flags: string[]) {
  const wp = await startFakeWordPress(options);
  servers.push(wp);
  const env = { BLOGCTL_CONFIG_DIR: tempConfigDir() };
  const add = await runInProcess(
    [
      'wp',
      'sites',
      'add',
      's',
      '--url',
      wp.url,
      '--username',
      wp.username,
      '--password-stdin',
      '--no-verify',
    ],
    { env, input: `${wp.password}\n` },
  );
  expect(add.code, add.stderr).toBe(0);
  const res = await runInProcess(['wp', 'sites', 'verify', 's', ...flags], { env });
  return { res, wp };
}

describe('wp sites verify: SEO', () => {
  it('Yoast with every key registered: all five writable, from one OPTIONS request', async () => {
    const { res, wp } = await verify(
      { namespaces: ['wp/v2', 'yoast/v1'], registeredMeta: YOAST_KEYS },
      '--json',
      'seo',
    );
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({
      seo: {
        plugin: 'yoast',
        writable: ['title', 'description', 'focus_keyword', 'canonical', 'noindex'],
        missing: {},
      },
    });
    expect(wp.requests.filter((r) => r.method === 'OPTIONS').length).toBe(1);
  });

  it('Yoast without the companion plugin: nothing writable, each field a warning naming its key', async () => {
    const { res } = await verify({
      namespaces: ['wp/v2', 'yoast/v1'],
      registeredMeta: ['_yoast_wpseo_title'],
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/SEO:\s+Yoast SEO \(writable: title\)/);
    expect(res.stderr).toContain(
      'SEO field description cannot be written: _yoast_wpseo_metadesc is not registered for the REST API',
    );
    expect(res.stderr).toContain('docs/wordpress-plugin.md');
    expect(res.stderr).not.toContain('SEO field title cannot');
  });

  it('Rank Math with its keys registered, AIOSEO by its route, and a site with none', async () => {
    const rank = await verify(
      {
        namespaces: ['wp/v2', 'rankmath/v1'],
        registeredMeta: ['rank_math_title', 'rank_math_description', 'rank_math_robots'],
      },
      '--json',
      'seo',
    );
    expect(JSON.parse(rank.res.stdout).seo).toMatchObject({
      plugin: 'rankmath',
      writable: ['title', 'description', 'noindex'],
      missing: {
        focus_keyword: expect.stringContaining('rank_math_focus_keyword'),
        canonical: expect.stringContaining('rank_math_canonical_url'),
      },
    });

    const aioseo = await verify({ namespaces: ['wp/v2', 'aioseo/v1'] }, '--json', 'seo');
    expect(JSON.parse(aioseo.res.stdout).seo).toEqual({
      plugin: 'aioseo',
      writable: ['title', 'description', 'focus_keyword', 'canonical', 'noindex'],
      missing: {},
    });
    expect(aioseo.wp.requests.some((r) => r.method === 'OPTIONS')).toBe(false);

    const none = await verify({}, '--json', 'seo');
    expect(JSON.parse(none.res.stdout).seo.plugin).toBeNull();
    const text = await verify({});
    expect(text.res.stdout).toMatch(/SEO:\s+no SEO plugin/);
    expect(text.res.stderr).not.toContain('SEO field');
  });
});

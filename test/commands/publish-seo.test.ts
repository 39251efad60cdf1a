// Front matter `seo:` published in-process through the sandbox to a fake WordPress (with Rank Math's and
// AIOSEO's routes where a test plays them, shaped from includes/rest/class-shared.php and
// app/Common/Api/PostsTerms.php): on a Yoast site whose
// keys are registered for REST (blogctl's companion plugin registers them; Yoast's own
// inc/class-wpseo-meta.php does not), the keys go in the create request's own `meta` (one save) and are
// reported written once read back; a field the site cannot take (its key not registered, or no SEO plugin at
// all) is a warning naming it, and never sent.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import {
  startFakeWordPress,
  type FakeWordPress,
  type FakeWordPressOptions,
} from '../helpers/fake-wordpress.js';
import { guardStrayOutput } from '../helpers/in-process.js';
import { syncWorld } from '../helpers/sync-project.js';

guardStrayOutput();

const world = syncWorld('seo', { fakeWordPress: false });
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
});

const YOAST_KEYS = [
  '_yoast_wpseo_title',
  '_yoast_wpseo_metadesc',
  '_yoast_wpseo_focuskw',
  '_yoast_wpseo_canonical',
  '_yoast_wpseo_meta-robots-noindex',
];

async function publishOne(options: FakeWordPressOptions, front: string) {
  const wp: FakeWordPress = await startFakeWordPress(options);
  closers.push(() => wp.close());
  const run = await world.runner({ wp, service: world.sandbox.url });
  const dir = mkdtempSync(join(world.home, 'posts-'));
  const write = (fm: string) =>
    writeFileSync(join(dir, 'a.md'), `---\nkey: seo-a\n${fm}---\n# Hello\n\nThe body.\n`);
  write(front);
  const publish = (...extra: string[]): Promise<CliResult> =>
    run(['wp', 'publish', '--site', 'blog', dir, '--json', ...extra]);
  const res = await publish();
  return { res, wp, write, publish };
}

const SEO = 'seo:\n  title: Short title\n  description: What the post says\n  noindex: true\n';

describe('wp publish with seo:', () => {
  it('Yoast with its keys registered: sent in the create request, read back, reported', async () => {
    const { res, wp } = await publishOne(
      { namespaces: ['wp/v2', 'yoast/v1'], registeredMeta: YOAST_KEYS },
      SEO,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('SEO fields written to Yoast SEO: title, description, noindex');
    expect(wp.posts[0]!['meta']).toMatchObject({
      _yoast_wpseo_title: 'Short title',
      _yoast_wpseo_metadesc: 'What the post says',
      '_yoast_wpseo_meta-robots-noindex': '1',
    });
    const creates = wp.requests.filter((r) => r.method === 'POST' && /wp\/v2\/posts(?:$|[?&])/.test(r.url));
    expect(creates.length).toBeGreaterThan(0);
    expect(creates[0]!.body).toContain('_yoast_wpseo_title');
  });

  it('in the plan: a second run sends nothing; a changed seo.title is planned and sent alone', async () => {
    const { res, wp, write, publish } = await publishOne(
      { namespaces: ['wp/v2', 'yoast/v1'], registeredMeta: YOAST_KEYS },
      SEO,
    );
    expect(res.code, res.stderr).toBe(0);
    const writes = () => wp.requests.filter((r) => r.method !== 'GET').length;
    const before = writes();
    const again = await publish('--exit-code');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)[0]).toMatchObject({ action: 'unchanged' });
    expect(writes()).toBe(before);

    write(SEO.replace('Short title', 'A better title'));
    const plan = await publish('--dry-run');
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)[0]).toMatchObject({ action: 'update', fields: ['seo_title'] });
    expect(writes()).toBe(before);

    const sent = await publish();
    expect(sent.code, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout)[0]).toMatchObject({ action: 'updated', fields: ['seo_title'] });
    expect(sent.stderr).toContain('SEO fields written to Yoast SEO: title');
    expect(sent.stderr).not.toContain('description');
    expect(wp.posts[0]!['meta']).toMatchObject({
      _yoast_wpseo_title: 'A better title',
      _yoast_wpseo_metadesc: 'What the post says',
    });
    expect(JSON.parse((await publish()).stdout)[0]).toMatchObject({ action: 'unchanged' });
  });

  it('an editor changing the SEO title on the site is drift: kept and reported; changed in the source too, a conflict', async () => {
    const { res, wp, write, publish } = await publishOne(
      { namespaces: ['wp/v2', 'yoast/v1'], registeredMeta: YOAST_KEYS },
      SEO,
    );
    expect(res.code, res.stderr).toBe(0);
    // An editor rewrites the SEO title in WordPress (Yoast's box).
    (wp.posts[0]!['meta'] as Record<string, unknown>)['_yoast_wpseo_title'] = 'Editor title';
    const plan = await publish('--dry-run', '--exit-code');
    expect(plan.code, plan.stderr).toBe(8);
    expect(JSON.parse(plan.stdout)[0]).toMatchObject({ action: 'unchanged', edited: ['seo_title'] });
    const kept = await publish();
    expect(kept.code, kept.stderr).toBe(0);
    expect((wp.posts[0]!['meta'] as Record<string, unknown>)['_yoast_wpseo_title']).toBe('Editor title');

    write(SEO.replace('Short title', 'Mine'));
    const conflict = await publish();
    expect(conflict.code, conflict.stderr).toBe(6);
    expect((wp.posts[0]!['meta'] as Record<string, unknown>)['_yoast_wpseo_title']).toBe('Editor title');
    const forced = await publish('--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect((wp.posts[0]!['meta'] as Record<string, unknown>)['_yoast_wpseo_title']).toBe('Mine');
    expect(JSON.parse((await publish()).stdout)[0]).toMatchObject({ action: 'unchanged' });
  });

  it('Rank Math: updateMeta after the create, read back from its registered keys', async () => {
    const { res, wp } = await publishOne(
      {
        namespaces: ['wp/v2', 'rankmath/v1'],
        registeredMeta: ['rank_math_title', 'rank_math_description', 'rank_math_robots'],
        seoRoutes: 'rankmath',
      },
      SEO,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('SEO fields written to Rank Math: title, description, noindex');
    expect(wp.posts[0]!['meta']).toMatchObject({
      rank_math_title: 'Short title',
      rank_math_description: 'What the post says',
      rank_math_robots: ['noindex'],
    });
    const update = wp.requests.find((r) => r.url.includes('rankmath'));
    expect(JSON.parse(update!.body)).toMatchObject({ objectType: 'post', objectID: wp.posts[0]!.id });
  });

  it('AIOSEO: its own route after the create, all five fields, read back', async () => {
    const { res, wp } = await publishOne(
      { namespaces: ['wp/v2', 'aioseo/v1'], seoRoutes: 'aioseo' },
      `${SEO}  focus_keyword: bread\n  canonical: https://example.com/a\n`,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(
      'SEO fields written to All in One SEO: title, description, focus_keyword, canonical, noindex',
    );
    const sent = wp.requests.find((r) => r.method === 'POST' && r.url.includes('aioseo'));
    expect(JSON.parse(sent!.body)).toEqual({
      id: wp.posts[0]!.id,
      title: 'Short title',
      description: 'What the post says',
      canonicalUrl: 'https://example.com/a',
      default: false,
      noindex: true,
      keyphrases: { focus: { keyphrase: 'bread' } },
    });
  });

  it('Yoast without registered keys: a warning per field, nothing sent', async () => {
    const { res, wp } = await publishOne(
      { namespaces: ['wp/v2', 'yoast/v1'], registeredMeta: ['_yoast_wpseo_title'] },
      SEO,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(
      'seo.description not sent: _yoast_wpseo_metadesc is not registered for the REST API',
    );
    expect(res.stderr).toContain('seo.noindex not sent');
    expect(res.stderr).toContain('SEO fields written to Yoast SEO: title');
    expect(wp.requests.some((r) => r.body.includes('_yoast_wpseo_metadesc'))).toBe(false);
  });

  it('no SEO plugin: every field a warning, never reported as sent', async () => {
    const { res, wp } = await publishOne({}, SEO);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(
      'seo.title, seo.description, seo.noindex not sent: no SEO plugin on the site',
    );
    expect(res.stderr).not.toContain('SEO fields written');
    expect(wp.requests.some((r) => r.body.includes('_yoast'))).toBe(false);
  });

  it("AIOSEO drift: the look-up reads its route again, an editor's change is kept and reported", async () => {
    const { res, wp, write, publish } = await publishOne(
      { namespaces: ['wp/v2', 'aioseo/v1'], seoRoutes: 'aioseo' },
      SEO,
    );
    expect(res.code, res.stderr).toBe(0);
    const id = wp.posts[0]!.id;
    const again = await publish('--dry-run', '--exit-code');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)[0]).toMatchObject({ action: 'unchanged' });
    expect(wp.requests.filter((r) => r.method === 'GET' && r.url.includes('aioseo')).length).toBeGreaterThan(
      1,
    );

    // An editor rewrites the description in AIOSEO's box.
    wp.aioseo.set(id, { ...wp.aioseo.get(id), description: 'Editor description' });
    const plan = await publish('--dry-run', '--exit-code');
    expect(plan.code, plan.stderr).toBe(8);
    expect(JSON.parse(plan.stdout)[0]).toMatchObject({ action: 'unchanged', edited: ['seo_description'] });
    write(SEO.replace('What the post says', 'Mine'));
    const conflict = await publish('--dry-run');
    expect(conflict.code, conflict.stderr).toBe(6);
    const forced = await publish('--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(wp.aioseo.get(id)).toMatchObject({ description: 'Mine' });
    expect((await publish('--dry-run', '--exit-code')).code).toBe(0);
  });

  it('AIOSEO storing another value than sent: warned once, recorded as stored, no drift claimed after', async () => {
    const { res, wp, publish } = await publishOne(
      {
        namespaces: ['wp/v2', 'aioseo/v1'],
        seoRoutes: 'aioseo',
        aioseoSaves: (b) => (typeof b['title'] === 'string' ? { ...b, title: b['title'].slice(0, 5) } : b),
      },
      SEO,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('seo.title: All in One SEO stored "Short", not what was sent');
    expect(wp.aioseo.get(wp.posts[0]!.id)).toMatchObject({ title: 'Short' });
    const again = await publish('--dry-run', '--exit-code');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)[0]).toMatchObject({ action: 'unchanged' });
    expect(JSON.parse(again.stdout)[0]!.edited).toBeUndefined();
  });

  it("Rank Math with its keys registered: an editor's change in its meta is drift", async () => {
    const { res, wp, publish } = await publishOne(
      {
        namespaces: ['wp/v2', 'rankmath/v1'],
        registeredMeta: ['rank_math_title', 'rank_math_description', 'rank_math_robots'],
        seoRoutes: 'rankmath',
      },
      SEO,
    );
    expect(res.code, res.stderr).toBe(0);
    expect((await publish('--dry-run', '--exit-code')).code).toBe(0);
    (wp.posts[0]!['meta'] as Record<string, unknown>)['rank_math_title'] = 'Editor title';
    const plan = await publish('--dry-run', '--exit-code');
    expect(plan.code, plan.stderr).toBe(8);
    expect(JSON.parse(plan.stdout)[0]).toMatchObject({ action: 'unchanged', edited: ['seo_title'] });
  });

  it('Rank Math without registered keys: nothing can be read back, so nothing is sent and no drift is claimed', async () => {
    const { res, wp, publish } = await publishOne(
      { namespaces: ['wp/v2', 'rankmath/v1'], seoRoutes: 'rankmath' },
      SEO,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('rank_math_title is not registered for the REST API');
    expect(wp.requests.some((r) => r.url.includes('rankmath'))).toBe(false);
    const again = await publish('--dry-run', '--exit-code');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)[0]!.edited).toBeUndefined();
  });
});

describe('clearing an SEO field', () => {
  it('removed from the source: planned and sent as a clear (Yoast: the empty value)', async () => {
    const { res, wp, write, publish } = await publishOne(
      { namespaces: ['wp/v2', 'yoast/v1'], registeredMeta: YOAST_KEYS },
      SEO,
    );
    expect(res.code, res.stderr).toBe(0);
    write('seo:\n  title: Short title\n');
    const plan = await publish('--dry-run');
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)[0]).toMatchObject({
      action: 'update',
      fields: ['seo_description', 'seo_noindex'],
    });
    const sent = await publish();
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toContain('SEO fields cleared in Yoast SEO: description, noindex');
    expect(wp.posts[0]!['meta']).toMatchObject({
      _yoast_wpseo_title: 'Short title',
      _yoast_wpseo_metadesc: '',
      '_yoast_wpseo_meta-robots-noindex': '0',
    });
    expect(JSON.parse((await publish('--exit-code')).stdout)[0]).toMatchObject({ action: 'unchanged' });
  });

  it("written as '': a clear sent to AIOSEO's route (and to Rank Math's, which deletes the key)", async () => {
    const { res, wp, write, publish } = await publishOne(
      { namespaces: ['wp/v2', 'aioseo/v1'], seoRoutes: 'aioseo' },
      SEO,
    );
    expect(res.code, res.stderr).toBe(0);
    write(SEO.replace('What the post says', '""'));
    const sent = await publish();
    expect(sent.code, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout)[0]).toMatchObject({ action: 'updated', fields: ['seo_description'] });
    expect(sent.stderr).toContain('SEO fields cleared in All in One SEO: description');
    expect(wp.aioseo.get(wp.posts[0]!.id)).toMatchObject({ description: '', title: 'Short title' });
    expect((await publish('--dry-run', '--exit-code')).code).toBe(0);

    const rm = await publishOne(
      {
        namespaces: ['wp/v2', 'rankmath/v1'],
        registeredMeta: ['rank_math_title', 'rank_math_description', 'rank_math_robots'],
        seoRoutes: 'rankmath',
      },
      SEO,
    );
    rm.write('seo:\n  title: Short title\n  description: ""\n');
    const cleared = await rm.publish();
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(rm.wp.posts[0]!['meta']).toEqual({ rank_math_title: 'Short title' });
  });
});

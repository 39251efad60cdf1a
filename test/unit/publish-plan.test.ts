// The plan's diff and the marker it rests on: which post is a source's, which fields changed, and what is
// never touched (an editor's post, one in the trash).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fieldSum,
  formatMarker,
  idempotencyKey,
  keyHash,
  nsHash,
  readMarker,
  replaceMarker,
  stripMarker,
  withMarker,
  type Marker,
} from '../../src/publishing/identity.js';
import { changedFields, planActions, type SitePost } from '../../src/publishing/sync/plan.js';
import { fileSourceKey, keySourceKey, slugSourceKey } from '../../src/publishing/source-key.js';

const NS = nsHash('unit');
const marker = (key: string, fields: Record<string, unknown>, ns = NS): Marker => ({
  ns,
  key: keyHash(keySourceKey(key)),
  sums: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, fieldSum(v)])),
});
const post = (id: number, extra: Partial<SitePost> = {}): SitePost => ({
  id,
  status: 'publish',
  slug: `post-${id}`,
  link: `https://blog.example/post-${id}/`,
  ...extra,
});

describe('the marker', () => {
  it('round-trips through the content, and is found where an editor left it', () => {
    const m = marker('weekly', { title: 'T', content: '<p>x</p>', status: 'publish' });
    const content = withMarker('<p>x</p>\n\n', m);
    // Inside the last element: on a line of its own WordPress would wrap it in an empty paragraph.
    // The content's trailing line breaks stay after it, as sent.
    expect(content).toMatch(
      /^<p>x<!-- blogctl:v1 ns=[0-9a-f]{16} key=[0-9a-f]{24} sums=content\.[0-9a-f]{8},status\.[0-9a-f]{8},title\.[0-9a-f]{8} --><\/p>\n\n$/,
    );
    expect(withMarker('<ul>\n<li>a</li>\n</ul>\n', m)).toBe(`<ul>\n<li>a${formatMarker(m)}</li>\n</ul>\n`);
    expect(withMarker('plain text', m)).toBe(`plain text${formatMarker(m)}`);
    expect(stripMarker(withMarker('<ul>\n<li>a</li>\n</ul>', m))).toBe('<ul>\n<li>a</li>\n</ul>');
    expect(readMarker(content)).toEqual(m);
    expect(stripMarker(content)).toBe('<p>x</p>');
    // The block editor keeps it inside an HTML block.
    const edited = `<!-- wp:paragraph -->\n<p>y</p>\n<!-- /wp:paragraph -->\n<!-- wp:html -->\n${formatMarker(m)}\n<!-- /wp:html -->`;
    expect(readMarker(edited)).toEqual(m);
    expect(readMarker('<p>An editor wrote this.</p>')).toBeUndefined();
    expect(readMarker('<!-- blogctl:v1 key=short sums= -->')).toBeUndefined();
    // A marker without a namespace is no post of any project's.
    expect(readMarker(formatMarker(m).replace(/ ns=[0-9a-f]+/, ''))).toBeUndefined();
  });

  it('stays out of a trailing lone shortcode or embed URL, which WordPress must see alone', () => {
    const m = marker('weekly', { title: 'T' });
    const c = formatMarker(m);
    // shortcode_unautop unwraps `<p>[audio …]</p>` only when nothing else is in the paragraph.
    expect(withMarker('<p>Text.</p>\n[audio src="a.mp3"]\n', m)).toBe(
      `<p>Text.${c}</p>\n[audio src="a.mp3"]\n`,
    );
    expect(withMarker('Text.\n\n[gallery ids="1,2"]\n\n[audio src="a.mp3"]', m)).toBe(
      `Text.${c}\n\n[gallery ids="1,2"]\n\n[audio src="a.mp3"]`,
    );
    expect(withMarker('<p>x</p>\n[caption id="1"]<img src="c.png" /> A cat[/caption]\n', m)).toBe(
      `<p>x${c}</p>\n[caption id="1"]<img src="c.png" /> A cat[/caption]\n`,
    );
    // An embed URL alone on the last line, and one before a trailing shortcode.
    expect(withMarker('<p>Intro</p>\nhttps://video.example/v\n', m)).toBe(
      `<p>Intro${c}</p>\nhttps://video.example/v\n`,
    );
    expect(withMarker('Intro\nhttps://video.example/v\n\n[audio src="a.mp3"]', m)).toBe(
      `Intro${c}\nhttps://video.example/v\n\n[audio src="a.mp3"]`,
    );
    // Nothing before them: a paragraph of its own after them.
    expect(withMarker('[audio src="a.mp3"]\n', m)).toBe(`[audio src="a.mp3"]\n\n${c}\n`);
    // Not a lone shortcode: the last element as ever.
    expect(withMarker('<p>See [audio] below</p>', m)).toBe(`<p>See [audio] below${c}</p>`);
    expect(withMarker('Some [b]text[/b] here', m)).toBe(`Some [b]text[/b] here${c}`);
    // A block post's closing comment ends it: the marker after it, the line break kept.
    expect(withMarker('<!-- wp:shortcode -->\n[audio]\n<!-- /wp:shortcode -->\n', m)).toBe(
      `<!-- wp:shortcode -->\n[audio]\n<!-- /wp:shortcode -->${c}\n`,
    );
    for (const html of [
      '<p>Text.</p>\n[audio src="a.mp3"]\n',
      '[audio src="a.mp3"]\n',
      'Intro\nhttps://v.example/v',
    ])
      expect(stripMarker(withMarker(html, m))).toBe(html.trimEnd());
  });

  it('never contains "--" inside the comment, whatever the field values', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.dictionary(fc.constantFrom('title', 'content', 'meta', 'slug'), fc.string()),
        (key, fields) => {
          const text = formatMarker(marker(key, fields));
          expect(text.slice(4, -3)).not.toContain('--');
          expect(readMarker(text)).toEqual(marker(key, fields));
        },
      ),
    );
  });

  it('source keys name the source, not the machine nor where blogctl runs: a path relative to the project root', () => {
    expect(fileSourceKey('/work/repo/posts/a.md', '/work/repo')).toBe('path:posts/a.md');
    expect(fileSourceKey('/work/repo/posts/../posts/a.md', '/work/repo')).toBe('path:posts/a.md');
    // Another checkout, another folder: the same key.
    expect(keyHash(fileSourceKey('/a/posts/a.md', '/a'))).toBe(
      keyHash(fileSourceKey('/b/c/posts/a.md', '/b/c')),
    );
    const cwd = process.cwd();
    try {
      process.chdir('/');
      const fromRoot = fileSourceKey('work/repo/posts/a.md', '/work/repo');
      process.chdir('/tmp');
      expect(fileSourceKey('/work/repo/posts/a.md', '/work/repo')).toBe(fromRoot);
    } finally {
      process.chdir(cwd);
    }
    expect(keyHash(slugSourceKey('x'))).not.toBe(keyHash(keySourceKey('x')));
  });

  it('the Idempotency-Key is the same for the same site, source and fields, on any machine', () => {
    const m = marker('k', { title: 'T' });
    const key = idempotencyKey('https://blog.example/', m);
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(idempotencyKey('https://blog.example', m)).toBe(key);
    expect(idempotencyKey('https://other.example', m)).not.toBe(key);
    expect(idempotencyKey('https://blog.example', marker('k', { title: 'T2' }))).not.toBe(key);
  });
});

describe("the plan's diff", () => {
  it('names exactly the fields that differ, added or removed, in a stable order', () => {
    const site = marker('k', { title: 'A', content: 'c', excerpt: 'e', status: 'draft' });
    const wanted = marker('k', { title: 'B', content: 'c', status: 'publish', tags: ['x'] });
    expect(changedFields(site, wanted)).toEqual(['title', 'excerpt', 'status', 'tags']);
    expect(changedFields(site, site)).toEqual([]);
  });

  it('create, update, unchanged; the oldest post outside the trash is the one kept in step', () => {
    const a = marker('a', { title: 'A' });
    const b = marker('b', { title: 'B' });
    const c = marker('c', { title: 'C' });
    const onSite = [
      post(7, { marker: a }),
      post(3, { marker: a }),
      post(5, { marker: { ...b, sums: { title: fieldSum('old') } } }),
    ];
    const plan = planActions([{ marker: a }, { marker: b }, { marker: c }], onSite, []);
    expect(plan[0]).toEqual({ action: { kind: 'unchanged', post: onSite[1] }, duplicates: [onSite[0]] });
    expect(plan[1]!.action).toEqual({ kind: 'update', post: onSite[2], fields: ['title'] });
    expect(plan[2]!.action).toEqual({ kind: 'create' });
  });

  it('a post in the trash is left there; one outside the trash wins over it', () => {
    const a = marker('a', { title: 'A' });
    const binned = post(2, { status: 'trash', marker: a });
    expect(planActions([{ marker: a }], [binned], [])[0]!.action).toEqual({ kind: 'trashed', post: binned });
    const live = post(9, { status: 'draft', marker: a });
    expect(planActions([{ marker: a }], [binned, live], [])[0]).toEqual({
      action: { kind: 'unchanged', post: live },
      duplicates: [binned],
    });
  });

  it("a slug held by an editor's post (or another source's) is a conflict, never the source's post", () => {
    const a = marker('a', { title: 'A' });
    const editors = post(4, { slug: 'hello' });
    expect(planActions([{ marker: a, slug: 'hello' }], [], [editors])[0]!.action).toEqual({
      kind: 'conflict',
      post: editors,
    });
    const another = post(6, { slug: 'hello', marker: marker('z', { title: 'Z' }) });
    expect(planActions([{ marker: a, slug: 'hello' }], [another], [another])[0]!.action.kind).toBe(
      'conflict',
    );
    // The source's own post holding its slug is just its post; a trashed holder frees the slug.
    const own = post(8, { slug: 'hello', marker: a });
    expect(planActions([{ marker: a, slug: 'hello' }], [own], [own])[0]!.action.kind).toBe('unchanged');
    const gone = post(9, { slug: 'hello', status: 'trash' });
    expect(planActions([{ marker: a, slug: 'hello' }], [], [gone])[0]!.action.kind).toBe('create');
    // Never by title: a same-titled post without the key is not this source's.
    expect(
      planActions([{ marker: a }], [post(1, { marker: marker('b', { title: 'A' }) })], [])[0]!.action.kind,
    ).toBe('create');
  });

  it("a post password is compared with the site's own value, never hashed into the (public) marker", () => {
    const a = marker('a', { title: 'A' });
    const site = post(3, { marker: a, password: 'old' });
    expect(planActions([{ marker: a, password: 'new' }], [site], [])[0]!.action).toEqual({
      kind: 'update',
      post: site,
      fields: ['password'],
    });
    expect(planActions([{ marker: a, password: 'old' }], [site], [])[0]!.action.kind).toBe('unchanged');
    // A source without a password leaves an editor's alone; '' removes it.
    expect(planActions([{ marker: a }], [site], [])[0]!.action.kind).toBe('unchanged');
    expect(planActions([{ marker: a, password: '' }], [site], [])[0]!.action.kind).toBe('update');
  });
});

describe('replaceMarker', () => {
  it("replaces the marker where an editor's changes left it, or adds one", () => {
    const old = formatMarker(marker('a', { title: 'A' }));
    const next = marker('a', { title: 'B' });
    expect(replaceMarker(`<!-- wp:html -->\n${old}\n<!-- /wp:html -->\n<p>after</p>`, next)).toBe(
      `<!-- wp:html -->\n${formatMarker(next)}\n<!-- /wp:html -->\n<p>after</p>`,
    );
    expect(replaceMarker('<p>x</p>\n', next)).toBe(`<p>x${formatMarker(next)}</p>\n`);
  });
});

describe('jobMarker', () => {
  it('sums every field sent but the post password', async () => {
    const { jobMarker } = await import('../../src/publishing/sync/publish-plan.js');
    const m = jobMarker(
      {
        name: 'x.md',
        sourceKey: 'path:x.md',
        draft: {
          content: { title: 'T', content: 'c', status: 'draft', password: 'hunter2' },
          requestedStatus: 'draft',
          statusStated: true,
          warnings: [],
        },
      },
      NS,
    );
    expect(Object.keys(m!.sums).sort()).toEqual(['content', 'status', 'title']);
    expect(m!.ns).toBe(NS);
  });
});

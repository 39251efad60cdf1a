// The WordPress library against real WordPress 6.1 (Debian's package), once with pretty permalinks and once
// with plain ones: verify, terms by name across pages, media upload, a post with all 18 content fields read
// back field by field, WordPress's scheduling rules, and a Markdown file landing as a post.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthError, UsageError } from '../../src/errors.js';
import { parseMarkdownPost } from '../../src/publishing/sources/markdown.js';
import { planSchedule } from '../../src/publishing/sources/schedule.js';
import type { PostContent } from '../../src/schemas/wordpress.js';
import { WordPressClient } from '../../src/wordpress/client.js';
import { uploadMedia } from '../../src/wordpress/media.js';
import { findPostsBySlugs, getPost, type WpPostDetail } from '../../src/wordpress/posts.js';
import { listTerms, resolveTermIds } from '../../src/wordpress/terms.js';
import { verifySite } from '../../src/wordpress/verify.js';
import { RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';

const findPostsBySlug = (client: WordPressClient, slug: string): Promise<WpPostDetail[]> =>
  findPostsBySlugs(client, [slug], 'e2e look-up');

/** A valid 1×1 RGBA PNG, built here: signature, IHDR, one IDAT row, IEND, each with its CRC. */
export function onePixelPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (buf: Buffer): number => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0); // width
  ihdr.writeUInt32BE(1, 4); // height
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, deflate, no filter, no interlace
  const row = Buffer.from([0, 0x2a, 0x7f, 0xd4, 0xff]); // filter byte + one pixel
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(row)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const instances = wordpressInstances();
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'blogctl-e2e-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.each(instances)('WordPress with $permalinks permalinks', (wp: WordPressInstance) => {
  const tag = `${RUN_ID}-${wp.permalinks}`;
  const clients: WordPressClient[] = [];
  /** A fresh client (its own discovery and term cache); `requests` collects its debug lines. */
  const connect = (overrides: { username?: string; password?: string } = {}) => {
    const requests: string[] = [];
    const client = new WordPressClient(
      {
        websiteUrl: wp.baseUrl,
        username: overrides.username ?? wp.username,
        password: overrides.password ?? wp.appPassword,
      },
      { debug: (line) => requests.push(line), timeoutMs: 30_000 },
    );
    clients.push(client);
    return { client, requests };
  };
  let client: WordPressClient;
  beforeAll(() => {
    client = connect().client;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });

  describe('verifySite', () => {
    it('accepts good credentials and reports roles, abilities and permalinks', async () => {
      const result = await verifySite(connect().client);
      expect(result).toMatchObject({
        restRoot: wp.restUrl,
        permalinks: wp.permalinks,
        applicationPasswords: true,
        user: { id: 1, username: wp.username, slug: wp.username, roles: ['administrator'] },
        can: { publish: true, uploadMedia: true, createCategories: true, createTags: true, sync: true },
      });
    });

    it("explains a wrong Application Password (exit 4, WordPress's 401, likely causes)", async () => {
      const error = await verifySite(connect({ password: 'aaaa bbbb cccc dddd eeee ffff' }).client).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AuthError);
      const auth = error as AuthError;
      expect(auth.exitCode).toBe(4);
      expect(auth.context).toMatchObject({ status: 401, peerCode: 'rest_not_logged_in' });
      expect(auth.message).toContain('HTTP 401');
      // The index offers Application Passwords here, so "unavailable" is ruled out; the other three remain.
      expect(auth.context.hints).toHaveLength(3);
      expect(auth.context.hints!.join('\n')).toMatch(
        /Application Password is wrong[\s\S]*name given to the Application Password[\s\S]*Authorization header/,
      );
    });

    it("refuses the Application Password's name given as the username, and the login password", async () => {
      for (const creds of [{ username: wp.appPasswordName }, { password: wp.adminPassword }]) {
        const error = await verifySite(connect(creds).client).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(AuthError);
        expect((error as AuthError).context.status).toBe(401);
        expect((error as AuthError).context.hints![1]).toContain(
          'not the name given to the Application Password',
        );
      }
    });
  });

  describe('resolveTermIds', () => {
    const catName = (i: number) => `E2E ${tag} Cat ${String(i).padStart(3, '0')}`;
    let lastId: number;
    let lastSlug: string;

    beforeAll(async () => {
      // 105 more categories: with "Uncategorized" and earlier runs, the last ones are past the first page.
      const ids: number[] = [];
      for (let start = 0; start < 105; start += 8) {
        const batch = Array.from({ length: Math.min(8, 105 - start) }, (_, k) => start + k);
        const created = await Promise.all(
          batch.map((i) =>
            client.route('wp/v2/categories', {
              method: 'POST',
              json: { name: catName(i) },
              label: 'create a test category',
            }),
          ),
        );
        for (const res of created) ids.push((res.body as { id: number }).id);
      }
      lastId = ids.at(-1)!;
      lastSlug = `e2e-${tag}-cat-104`.toLowerCase();
    });

    it('finds a category on page 2 by name and by slug, listing the taxonomy once', async () => {
      const { client: fresh, requests } = connect();
      const page1 = await fresh.route('wp/v2/categories', {
        method: 'GET',
        params: { per_page: 100, page: 1, orderby: 'id', order: 'asc', _fields: 'id' },
      });
      expect((page1.body as { id: number }[]).map((t) => t.id)).not.toContain(lastId);
      expect(Number(page1.headers['x-wp-totalpages'])).toBeGreaterThanOrEqual(2);
      requests.length = 0;

      expect(
        await resolveTermIds(fresh, 'categories', [catName(104).toUpperCase()], { create: false }),
      ).toEqual([lastId]);
      expect(
        await resolveTermIds(fresh, 'categories', [lastSlug, lastId, String(lastId)], { create: false }),
      ).toEqual([lastId]);
      // Debug lines: "GET <url>" when sent, "GET <url> → 200 in …" when answered.
      const listings = requests.filter(
        (l) => l.startsWith('GET ') && l.includes('categories') && !l.includes('→'),
      );
      expect(listings.length).toBe(Number(page1.headers['x-wp-totalpages']));
      expect((await listTerms(fresh, 'categories')).some((t) => t.id === lastId)).toBe(true);
    });

    it('matches names with HTML entities and names every unknown term', async () => {
      const name = `Food & Drink ${tag}`;
      const created = await client.route('wp/v2/categories', { method: 'POST', json: { name } });
      const { id, name: stored } = created.body as { id: number; name: string };
      expect(stored).toContain('&amp;');
      const { client: fresh } = connect();
      expect(await resolveTermIds(fresh, 'categories', [name.toLowerCase()], { create: false })).toEqual([
        id,
      ]);
      const error = await resolveTermIds(fresh, 'tags', [`nope-${tag}`, `nada-${tag}`], {
        create: false,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).message).toBe(
        `unknown tag: nope-${tag}, nada-${tag} (use --create-terms to create them)`,
      );
    });

    it('creates missing terms, and takes term_exists from a concurrent creator as found', async () => {
      // B lists tags before A creates the term, so B's POST meets term_exists.
      const a = connect().client;
      const b = connect().client;
      await listTerms(b, 'tags');
      const name = `Raced ${tag}`;
      const [idA] = await resolveTermIds(a, 'tags', [name], { create: true });
      const [idB] = await resolveTermIds(b, 'tags', [name], { create: true });
      expect(idB).toBe(idA);

      // And truly concurrently, from two clients with empty caches.
      const twin = `Twin ${tag}`;
      const [[x], [y]] = await Promise.all([
        resolveTermIds(connect().client, 'categories', [twin], { create: true }),
        resolveTermIds(connect().client, 'categories', [twin], { create: true }),
      ]);
      expect(x).toBe(y);
      const all = await listTerms(connect().client, 'categories');
      expect(all.filter((t) => t.name === twin)).toHaveLength(1);
    });
  });

  describe('uploadMedia', () => {
    it('uploads a PNG that WordPress then serves back', async () => {
      const png = onePixelPng();
      const file = join(dir, `pixel-${tag}.png`);
      await writeFile(file, png);
      const media = await uploadMedia(client, file);
      expect(media.id).toBeGreaterThan(0);
      expect(media.source_url).toMatch(new RegExp(`/wp-content/uploads/.*pixel-${tag}\\.png$`));
      const served = await fetch(media.source_url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await served.arrayBuffer())).toEqual(png);
    });

    it('uploads a file whose name is not ASCII', async () => {
      const file = join(dir, `Café crème ${tag}.png`);
      await writeFile(file, onePixelPng());
      const media = await uploadMedia(client, file);
      expect(media.source_url).toMatch(new RegExp(`/Cafe-creme-${tag}\\.png$`));
    });
  });

  describe('posts', () => {
    it('creates a post with all 18 content fields and reads each one back', async () => {
      const [categoryId] = await resolveTermIds(client, 'categories', [`Eighteen ${tag}`], { create: true });
      const [tagId] = await resolveTermIds(client, 'tags', [`eighteen-${tag}`], { create: true });
      const file = join(dir, `featured-${tag}.png`);
      await writeFile(file, onePixelPng());
      const media = await uploadMedia(client, file);
      const when = new Date(Date.now() + 7 * 86_400_000);
      const plan = planSchedule({ status: 'future', date: when.toISOString(), now: new Date() });
      expect(plan).toMatchObject({ expectedStatus: 'future', warnings: [] });

      const content = {
        title: `All fields ${tag}`,
        content: '<p>Every <strong>field</strong>.</p>',
        status: 'future',
        // The site's time zone is UTC, so its local `date` equals `date_gmt`.
        date: plan.date_gmt,
        date_gmt: plan.date_gmt,
        slug: `all-fields-${tag}`,
        password: 'open-sesame',
        author: 1,
        excerpt: 'Eighteen fields in one post.',
        featured_media: media.id,
        comment_status: 'closed',
        ping_status: 'closed',
        format: 'aside',
        meta: { blogctl_source: `e2e ${tag}` },
        // WordPress refuses a sticky post with a password (400 rest_invalid_field): sticky is set, as false
        // here, and true in the next test.
        sticky: false,
        template: 'blank',
        categories: [categoryId!],
        tags: [tagId!],
      } satisfies PostContent;
      expect(Object.keys(content)).toHaveLength(18);

      const created = await client.createPost(content);
      expect(created.status).toBe('future');
      const post = await getPost(client, created.id, { context: 'edit' });
      expect(post.title?.raw).toBe(content.title);
      expect(post.content?.raw).toBe(content.content);
      expect(post.status).toBe('future');
      expect(post.date).toBe(plan.date_gmt);
      expect(post.date_gmt).toBe(plan.date_gmt);
      expect(post.slug).toBe(content.slug);
      expect(post.password).toBe(content.password);
      expect(post.author).toBe(1);
      expect(post.excerpt?.raw).toBe(content.excerpt);
      expect(post.featured_media).toBe(media.id);
      expect(post.comment_status).toBe('closed');
      expect(post.ping_status).toBe('closed');
      expect(post.format).toBe('aside');
      expect(post.meta).toMatchObject({ blogctl_source: `e2e ${tag}` });
      expect(post.sticky).toBe(false);
      expect(post.template).toBe('blank');
      expect(post.categories).toEqual([categoryId]);
      expect(post.tags).toEqual([tagId]);

      const found = await findPostsBySlug(client, content.slug);
      expect(found.map((p) => [p.id, p.status])).toEqual([[created.id, 'future']]);
      expect(await findPostsBySlug(client, `no-such-${tag}`)).toEqual([]);
    });

    it('keeps sticky: true', async () => {
      const created = await client.createPost({
        title: `Sticky ${tag}`,
        content: 'x',
        status: 'publish',
        sticky: true,
      });
      expect((await getPost(client, created.id)).sticky).toBe(true);
    });

    it("shows WordPress's scheduling rules as planSchedule predicts them", async () => {
      const soonDate = new Date(Date.now() + 30_000).toISOString();
      // Unforced, blogctl refuses it (the post would not be scheduled); forced, it predicts what WordPress does.
      expect(planSchedule({ status: 'future', date: soonDate, now: new Date() }).error).toMatch(
        /needs a date at least 60 s ahead/,
      );
      const soon = planSchedule({ status: 'future', date: soonDate, now: new Date(), allowImmediate: true });
      expect(soon.expectedStatus).toBe('publish');
      expect(soon.warnings[0]).toMatch(/publishes a "future" post less than 60 s ahead at once/);
      const a = await client.createPost({
        title: `Too soon ${tag}`,
        content: 'x',
        status: 'future',
        date_gmt: soon.date_gmt,
      });
      expect(a.status).toBe('publish');

      const later = planSchedule({
        status: 'publish',
        date: new Date(Date.now() + 3_600_000).toISOString(),
        now: new Date(),
      });
      expect(later.expectedStatus).toBe('future');
      expect(later.warnings[0]).toMatch(/schedules the post \(status future\)/);
      const b = await client.createPost({
        title: `Later ${tag}`,
        content: 'x',
        status: 'publish',
        date_gmt: later.date_gmt,
      });
      expect(b.status).toBe('future');
      expect((await getPost(client, b.id)).date_gmt).toBe(later.date_gmt);

      const past = planSchedule({
        status: 'future',
        date: '2020-01-01T10:00:00Z',
        now: new Date(),
        allowImmediate: true,
      });
      expect(past.warnings[0]).toMatch(/is in the past/);
      const c = await client.createPost({
        title: `Past ${tag}`,
        content: 'x',
        status: 'future',
        date_gmt: past.date_gmt,
      });
      expect(c.status).toBe('publish');
    });

    it('publishes a Markdown file with its front matter', async () => {
      await writeFile(join(dir, `md-cover-${tag}.png`), onePixelPng());
      const mdPath = join(dir, `post-${tag}.md`);
      const text = `---
slug: markdown-${tag}
status: publish
date: 2024-05-06T07:08:09+02:00
excerpt: From Markdown
categories: [Markdown ${tag}, uncategorized]
tags: md-${tag}, second ${tag}
featured_image: md-cover-${tag}.png
format: quote
sticky: true
template: blank
meta:
  blogctl_source: post-${tag}.md
comment_status: closed
ping_status: open
author: 1
---
# Markdown & *more* ${tag}

A paragraph with **bold** and a [link](https://example.com).

| a | b |
| - | - |
| 1 | 2 |
`;
      await writeFile(mdPath, text);
      const { fields, html } = parseMarkdownPost(text, { path: mdPath });
      // What the wiring step will do, by hand: terms by name, the image, the schedule, then the post.
      const categories = await resolveTermIds(client, 'categories', fields.categories!, { create: true });
      const tags = await resolveTermIds(client, 'tags', fields.tags!, { create: true });
      const media = await uploadMedia(client, fields.featured_image!);
      const plan = planSchedule({ status: fields.status!, date: fields.date, now: new Date() });
      expect(plan).toMatchObject({ date_gmt: '2024-05-06T05:08:09', warnings: [] });
      const created = await client.createPost({
        title: fields.title!,
        content: html,
        status: fields.status!,
        date_gmt: plan.date_gmt,
        slug: fields.slug,
        excerpt: fields.excerpt,
        categories,
        tags,
        featured_media: media.id,
        format: fields.format,
        sticky: fields.sticky,
        template: fields.template,
        meta: fields.meta,
        comment_status: fields.comment_status,
        ping_status: fields.ping_status,
        author: fields.author,
      });
      const post = await getPost(client, created.id);
      expect(post).toMatchObject({
        status: 'publish',
        slug: `markdown-${tag}`,
        date_gmt: '2024-05-06T05:08:09',
        featured_media: media.id,
        format: 'quote',
        sticky: true,
        template: 'blank',
        meta: { blogctl_source: `post-${tag}.md` },
        comment_status: 'closed',
        ping_status: 'open',
        author: 1,
      });
      expect(post.title?.raw).toBe(`Markdown & more ${tag}`);
      expect(post.excerpt?.raw).toBe('From Markdown');
      expect(post.content?.raw).toContain('<strong>bold</strong>');
      expect(post.content?.raw).toContain('<table>');
      expect(post.content?.raw).not.toContain('<h1>');
      expect(categories).toHaveLength(2);
      expect(categories).toContain(1);
      expect(post.categories?.sort()).toEqual([...categories].sort());
      expect(post.tags?.sort()).toEqual([...tags].sort());
      expect(tags).toHaveLength(2);
    });
  });
});

// Local images in a post's body against real WordPress (issue 31 item 3): a post with two local images is
// published with both uploaded to the media library, its rendered page's <img src> pointing at the uploads
// (which the site serves), alt text kept; a second run from another runner, on another copy of the folder,
// finds them again by their slug and uploads nothing, sends nothing.
import { cp, mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshRun, adminLogin, siteClient, syncWorld } from '../helpers/sync-project.js';
import { getPost } from '../../src/wordpress/posts.js';
import { RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';

const instances = wordpressInstances();
const world = syncWorld('e2e-images', { fakeWordPress: false, wordpressTimeoutMs: 30_000 });

// A 1×1 PNG; bytes after its end make another image WordPress still reads as a PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe.each(instances)('inline images on WordPress ($permalinks permalinks)', (wp: WordPressInstance) => {
  const tag = `${RUN_ID}-img-${wp.permalinks}`;
  const reader = siteClient(adminLogin(wp));

  it('uploads two local images once, the page shows them from the media library; another runner uploads nothing', async () => {
    const dir = await mkdtemp(join(world.home, `${wp.permalinks}-`));
    // A project (its namespace in blogctl.yml): another copy of the folder is the same project.
    await writeFile(join(dir, 'blogctl.yml'), `namespace: ${tag}\n`);
    await mkdir(join(dir, 'posts', 'img'), { recursive: true });
    const images = {
      'one.png': Buffer.concat([PNG, Buffer.from(`${tag}-1`)]),
      'two.png': Buffer.concat([PNG, Buffer.from(`${tag}-2`)]),
    };
    for (const [name, bytes] of Object.entries(images))
      await writeFile(join(dir, 'posts', 'img', name), bytes);
    await writeFile(
      join(dir, 'posts', 'pics.md'),
      `---\ntitle: Pictures ${tag}\nstatus: publish\n---\n\nFirst: ![First picture](img/one.png)\n\n<figure><img src="img/two.png" alt="Second picture"></figure>\n`,
    );
    const run = (cwd: string): ReturnType<typeof freshRun> =>
      freshRun(['wp', 'publish', '--site', 'site', 'posts', '--json'], {
        service: world.sandbox,
        site: adminLogin(wp),
        profile: 'site',
        cwd,
      });

    const first = await run(dir);
    expect(first.code, first.stderr).toBe(0);
    const [row] = JSON.parse(first.stdout) as { action: string; id: string; link: string }[];
    expect(row!.action).toBe('created');
    expect(first.stderr).toContain('uploaded img/one.png');
    expect(first.stderr).toContain('uploaded img/two.png');

    // Each image is one attachment, under the slug its bytes name.
    const slugs = Object.values(images).map(
      (b) => `blogctl-img-${createHash('sha256').update(b).digest('hex').slice(0, 32)}`,
    );
    const attachments = async (): Promise<{ id: number; slug: string; source_url: string }[]> =>
      (
        await reader.route('wp/v2/media', {
          method: 'GET',
          params: { slug: slugs.join(','), per_page: 100, _fields: 'id,slug,source_url' },
        })
      ).body as { id: number; slug: string; source_url: string }[];
    const uploaded = await attachments();
    expect(uploaded.map((m) => m.slug).sort()).toEqual([...slugs].sort());

    // The rendered page shows the uploads, alt text kept; the site serves each.
    const post = await getPost(reader, Number(row!.id), { context: 'edit' });
    const page = await (await fetch(row!.link)).text();
    const srcs = [...page.matchAll(/<img\b[^>]*\bsrc="([^"]+)"[^>]*>/g)].map((m) => m[0]);
    for (const m of uploaded) {
      expect(post.content?.raw).toContain(`src="${m.source_url}"`);
      expect(srcs.some((img) => img.includes(`src="${m.source_url}"`))).toBe(true);
      expect((await fetch(m.source_url)).status).toBe(200);
    }
    expect(srcs.some((img) => img.includes('alt="First picture"'))).toBe(true);
    expect(srcs.some((img) => img.includes('alt="Second picture"'))).toBe(true);
    expect(post.content?.raw).not.toContain('img/one.png');

    // Another runner: a fresh config dir, another copy of the folder. Nothing uploaded, the post unchanged.
    const copy = await mkdtemp(join(world.home, `${wp.permalinks}-copy-`));
    await cp(dir, copy, { recursive: true });
    const again = await run(copy);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject([{ action: 'unchanged', id: row!.id }]);
    expect(again.stderr).not.toContain('uploaded');
    expect((await attachments()).map((m) => m.id).sort()).toEqual(uploaded.map((m) => m.id).sort());
  });
});

// Local images in a post's body (issue 31 item 3), the command tree in-process against the sandbox relaying to
// the fake WordPress (its media routes are shaped from WordPress's attachments controller: see
// test/helpers/fake-wordpress.ts): uploaded once, found again by their slug on later runs from any machine,
// uploaded anew when their bytes change, the references rewritten to the attachments' URLs; a missing image is
// an input error at its file and line; remote images are left as written.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir, type CliResult } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { stripMarker } from '../../src/publishing/identity.js';

guardStrayOutput();

// A 1×1 PNG; a byte appended makes another image of the same look.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const png = (n: number): Buffer => Buffer.concat([PNG, Buffer.from([n])]);

let sandbox: TestSandbox;
let wp: FakeWordPress;
beforeAll(async () => {
  [sandbox, wp] = await Promise.all([startTestSandbox(), startFakeWordPress()]);
});
afterAll(async () => {
  await Promise.all([sandbox.close(), wp.close()]);
});

/** A git work tree with a `posts` folder, and a runner (a fresh config dir with the site "blog") for it. */
async function project(): Promise<{
  dir: string;
  runner: () => Promise<(args: string[]) => Promise<CliResult>>;
}> {
  const dir = tempConfigDir();
  mkdirSync(join(dir, '.git'));
  mkdirSync(join(dir, 'posts', 'img'), { recursive: true });
  const runner = async (): Promise<(args: string[]) => Promise<CliResult>> => {
    const env = {
      BLOGCTL_CONFIG_DIR: tempConfigDir(),
      BLOGCTL_BASE_URL: sandbox.url,
      BLOGCTL_API_KEY: sandbox.apiKey,
    };
    const run = (args: string[], input?: string): Promise<CliResult> =>
      runInProcess(args, { env, cwd: dir, ...(input !== undefined && { input }) });
    const add = await run(
      ['wp', 'sites', 'add', 'blog', '--url', wp.url, '--username', wp.username, '--password-stdin'],
      `${wp.password}\n`,
    );
    expect(add.code, add.stderr).toBe(0);
    return (args) => run(args);
  };
  return { dir, runner };
}

const posted = (title: string): Record<string, unknown> => {
  const post = wp.posts.find((p) => p.title === title);
  expect(post, title).toBeDefined();
  return post as Record<string, unknown>;
};
const bodyOf = (title: string): string => stripMarker(String(posted(title)['content'] ?? ''));
/** Requests that change the site (uploads, creates, updates) since `from`. */
const writesSince = (from: number): string[] =>
  wp.requests
    .slice(from)
    .filter((r) => r.method !== 'GET')
    .map((r) => `${r.method} ${r.url}`);
const urlOf = (slugStart: string): string => wp.media.find((m) => m.slug.startsWith(slugStart))!.url;

describe('inline images', () => {
  it('uploads each image once (two posts sharing one), rewrites the references, keeps alt text and remote images; a second run from another runner sends nothing; a changed image is uploaded anew', async () => {
    const { dir, runner } = await project();
    const tag = `img${Date.now()}`;
    writeFileSync(join(dir, 'posts', 'img', 'cover.png'), png(1));
    writeFileSync(join(dir, 'posts', 'img', 'shared.png'), png(2));
    writeFileSync(join(dir, 'posts', 'img', 'raw.png'), png(3));
    writeFileSync(
      join(dir, 'posts', 'a.md'),
      `---\ntitle: ${tag} A\n---\n\nIntro.\n\n![The cover](img/cover.png)\n\nAnd ![shared one](./img/shared.png "Shared") inline, ![remote](https://example.com/r.png).\n`,
    );
    writeFileSync(
      join(dir, 'posts', 'b.md'),
      `---\ntitle: ${tag} B\n---\n\n![again](img/shared.png)\n\n<figure class="x"><img src="img/raw.png" alt="Raw &amp; ready" width="1"></figure>\n\n<img src="data:image/png;base64,AAAA" alt="inline data">\n`,
    );
    const run = await runner();
    const media = wp.media.length;
    const first = await run(['wp', 'publish', '--site', 'blog', 'posts', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(wp.media.length - media).toBe(3);
    // Each upload said once, for the first post that uses it.
    expect(first.stderr).toContain('uploaded img/cover.png (posts/a.md:7) to the media library');
    expect(first.stderr.match(/uploaded \S*shared\.png/g)).toHaveLength(1);
    const cover = urlOf('blogctl-img-');
    expect(cover).toMatch(/\/wp-content\/uploads\/cover(-\d+)?\.png$/);
    const a = bodyOf(`${tag} A`);
    const b = bodyOf(`${tag} B`);
    const uploaded = wp.media.slice(media);
    const url = (name: string): string => uploaded.find((m) => m.filename === name)!.url;
    expect(a).toContain(`<img src="${url('cover.png')}" alt="The cover">`);
    expect(a).toContain(`<img src="${url('shared.png')}" alt="shared one" title="Shared">`);
    expect(a).toContain('<img src="https://example.com/r.png" alt="remote">');
    expect(b).toContain(`<img src="${url('shared.png')}" alt="again">`);
    // Raw HTML kept as written but for the src value.
    expect(b).toContain(
      `<figure class="x"><img src="${url('raw.png')}" alt="Raw &amp; ready" width="1"></figure>`,
    );
    expect(b).toContain('<img src="data:image/png;base64,AAAA" alt="inline data">');
    expect(a + b).not.toContain('blogctl-image:');
    // Each attachment carries the hash of its bytes in its slug.
    for (const m of uploaded) expect(m.slug).toMatch(/^blogctl-img-[0-9a-f]{32}$/);

    // Another runner (a fresh config dir, nothing kept on this machine): nothing uploaded, nothing sent.
    const mark = wp.requests.length;
    const again = await (await runner())(['wp', 'publish', '--site', 'blog', 'posts', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as { action: string }[]).map((r) => r.action)).toEqual([
      'unchanged',
      'unchanged',
    ]);
    expect(writesSince(mark)).toEqual([]);
    expect(wp.media.length - media).toBe(3);

    // A changed image: uploaded anew, only its post updated (its content), the other left.
    writeFileSync(join(dir, 'posts', 'img', 'cover.png'), png(9));
    const changed = await run(['wp', 'publish', '--site', 'blog', 'posts', '--json']);
    expect(changed.code, changed.stderr).toBe(0);
    expect(JSON.parse(changed.stdout)).toMatchObject([
      { action: 'updated', fields: ['content'] },
      { action: 'unchanged' },
    ]);
    expect(wp.media.length - media).toBe(4);
    expect(bodyOf(`${tag} A`)).toContain(`<img src="${wp.media.at(-1)!.url}" alt="The cover">`);
  });

  it('--dry-run names the images a run would upload, and none once they are on the site', async () => {
    const { dir, runner } = await project();
    const tag = `dry${Date.now()}`;
    writeFileSync(join(dir, 'posts', 'img', 'new.png'), png(40));
    writeFileSync(join(dir, 'posts', 'c.md'), `---\ntitle: ${tag}\n---\n\n![n](img/new.png)\n`);
    const run = await runner();
    const mark = wp.requests.length;
    const plan = await run(['wp', 'publish', '--site', 'blog', 'posts', '--dry-run']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain('upload img/new.png (posts/c.md:5)');
    expect(writesSince(mark)).toEqual([]);
    // The plan's post shows the image as the source names it.
    const json = await run(['wp', 'publish', '--site', 'blog', 'posts', '--dry-run', '--json']);
    expect((JSON.parse(json.stdout) as { post: { content: string } }[])[0]!.post.content).toBe(
      '<p><img src="img/new.png" alt="n"></p>\n',
    );
    expect((await run(['wp', 'publish', '--site', 'blog', 'posts'])).code).toBe(0);
    // The post changes (a new line), the image does not: nothing to upload.
    writeFileSync(join(dir, 'posts', 'c.md'), `---\ntitle: ${tag}\n---\n\n![n](img/new.png)\n\nMore.\n`);
    const later = await run(['wp', 'publish', '--site', 'blog', 'posts', '--dry-run']);
    expect(later.code, later.stderr).toBe(0);
    expect(later.stderr).not.toContain('upload img/');
  });

  it('a missing image, or one outside the project, is an input error at its file and line: exit 2, nothing sent (dry run and real run)', async () => {
    const { dir, runner } = await project();
    const tag = `miss${Date.now()}`;
    writeFileSync(join(dir, 'posts', 'img', 'ok.png'), png(50));
    writeFileSync(join(dir, 'posts', 'ok.md'), `---\ntitle: ${tag} ok\n---\n\n![fine](img/ok.png)\n`);
    writeFileSync(
      join(dir, 'posts', 'bad.md'),
      `---\ntitle: ${tag} bad\n---\n\nText.\n\n> quoted ![gone](img/gone.png)\n\n<p><img src="../../outside.png"></p>\n`,
    );
    const run = await runner();
    for (const dry of [true, false]) {
      const mark = wp.requests.length;
      const media = wp.media.length;
      const res = await run(['wp', 'publish', '--site', 'blog', 'posts', ...(dry ? ['--dry-run'] : [])]);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain('posts/bad.md:7: image img/gone.png: no such file');
      expect(res.stderr).toMatch(
        /posts\/bad\.md:9: image \.\.\/\.\.\/outside\.png: outside .*images must be inside the project/,
      );
      expect(res.stderr).toContain('nothing was published');
      expect(writesSince(mark)).toEqual([]);
      expect(wp.media.length).toBe(media);
      expect(wp.posts.some((p) => String(p.title).startsWith(tag))).toBe(false);
    }
  });

  it('editor: blocks: the image block points at the upload, its alt kept', async () => {
    const { dir, runner } = await project();
    const tag = `blk${Date.now()}`;
    writeFileSync(join(dir, 'posts', 'img', 'blk.png'), png(60));
    writeFileSync(
      join(dir, 'posts', 'd.md'),
      `---\ntitle: ${tag}\neditor: blocks\n---\n\n![Block alt](img/blk.png)\n`,
    );
    const res = await (await runner())(['wp', 'publish', '--site', 'blog', 'posts']);
    expect(res.code, res.stderr).toBe(0);
    expect(bodyOf(tag)).toContain(
      `<figure class="wp-block-image"><img src="${wp.media.at(-1)!.url}" alt="Block alt"/></figure>`,
    );
  });

  it('an HTML source: its <img src> uploaded and rewritten, the rest of the HTML as written', async () => {
    const { dir, runner } = await project();
    const tag = `html${Date.now()}`;
    writeFileSync(join(dir, 'posts', 'img', 'h.png'), png(90));
    writeFileSync(
      join(dir, 'posts', 'page.html'),
      `<html><head><title>${tag}</title></head><body>\n<p>Hi</p>\n<IMG  alt='H' SRC="img/h.png" data-x=1>\n</body></html>\n`,
    );
    const res = await (await runner())(['wp', 'publish', '--site', 'blog', 'posts']);
    expect(res.code, res.stderr).toBe(0);
    expect(bodyOf(tag)).toBe(`<p>Hi</p>\n<IMG  alt='H' SRC="${wp.media.at(-1)!.url}" data-x=1>`);
  });

  it("an attachment holding the image's slug that another account uploaded is never taken for it", async () => {
    const { dir, runner } = await project();
    const tag = `plant${Date.now()}`;
    const bytes = png(80);
    writeFileSync(join(dir, 'posts', 'img', 'mine.png'), bytes);
    writeFileSync(join(dir, 'posts', 'f.md'), `---\ntitle: ${tag}\n---\n\n![mine](img/mine.png)\n`);
    const slug = `blogctl-img-${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}`;
    wp.media.push({
      id: 99_999,
      filename: 'other.png',
      bytes: 1,
      slug,
      author: 77,
      url: 'https://elsewhere.test/x.png',
    });
    const media = wp.media.length;
    const res = await (await runner())(['wp', 'publish', '--site', 'blog', 'posts']);
    expect(res.code, res.stderr).toBe(0);
    expect(wp.media.length).toBe(media + 1);
    expect(wp.media.at(-1)!.slug).toBe(`${slug}-2`);
    expect(bodyOf(tag)).toContain(`<img src="${wp.media.at(-1)!.url}" alt="mine">`);
    expect(bodyOf(tag)).not.toContain('elsewhere.test');
    // The next run finds the project's own upload under its numbered slug: nothing uploaded or sent.
    const mark = wp.requests.length;
    const again = await (await runner())(['wp', 'publish', '--site', 'blog', 'posts']);
    expect(again.code, again.stderr).toBe(0);
    expect(writesSince(mark)).toEqual([]);
    // And when the post changes, its image is found there, not uploaded again.
    writeFileSync(join(dir, 'posts', 'f.md'), `---\ntitle: ${tag}\n---\n\n![mine](img/mine.png)\n\nMore.\n`);
    const changed = await (await runner())(['wp', 'publish', '--site', 'blog', 'posts']);
    expect(changed.code, changed.stderr).toBe(0);
    expect(wp.media.length).toBe(media + 1);
    expect(bodyOf(tag)).toContain(`<img src="${wp.media.at(-1)!.url}" alt="mine">`);
  });

  it('--service-only cannot upload: a local image is an input error at its line', async () => {
    const { dir, runner } = await project();
    writeFileSync(join(dir, 'posts', 'img', 'so.png'), png(70));
    writeFileSync(join(dir, 'posts', 'e.md'), `---\ntitle: so\n---\n\n![so](img/so.png)\n`);
    const res = await (await runner())(['wp', 'publish', '--site', 'blog', 'posts', '--service-only']);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain('posts/e.md:5: image img/so.png: --service-only cannot upload images');
  });
});

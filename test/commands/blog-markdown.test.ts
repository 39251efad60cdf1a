// A generated blog into the publish flow: `blog show --markdown` and `blog create --save` write Markdown with
// front matter that `wp publish` reads back — the same post as `--from-blog <id>` (its source is the blog).
import { existsSync, lstatSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpfsMounts } from '../helpers/tmpfs.js';
import { blogToMarkdown } from '../../src/blogs/markdown-export.js';
import { htmlToMarkdown } from '../../src/lib/html-to-markdown.js';
import { contentToMarkdown } from '../../src/publishing/pull/pull-post.js';
import { parseMarkdownPost } from '../../src/publishing/sources/markdown.js';
import { createFlags, tempConfigDir, type CliResult } from '../helpers/cli.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

guardStrayOutput();

let sandbox: TestSandbox;
let configDir: string;
let work: string;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  configDir = tempConfigDir();
  work = mkdtempSync(join(tmpdir(), 'blogctl-md-'));
});
afterAll(async () => {
  await sandbox?.close();
});

const cli = (args: string[]): Promise<CliResult> =>
  runInProcess(['--base-url', sandbox.url, ...args], {
    env: { BLOGCTL_API_KEY: sandbox.apiKey, BLOGCTL_CONFIG_DIR: configDir },
  });

describe('blog show --markdown', () => {
  it("writes front matter wp publish reads back, and a body that converts back to the blog's HTML", async () => {
    const created = await cli(['blog', 'create', ...createFlags('home espresso'), '--json']);
    expect(created.code, created.stderr).toBe(0);
    const blog = JSON.parse(created.stdout) as { _id: string; title: string; content: string };
    const res = await cli(['blog', 'show', blog._id, '--markdown']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^---\ntitle: ".+"\n(?:.+\n)*blog_id: "[0-9a-f]{24}"\n---\n\n/);
    const post = parseMarkdownPost(res.stdout, { path: 'x.md' });
    expect(post.fields).toMatchObject({ title: blog.title, blog_id: blog._id });
    // Headings, paragraphs and lists survive the round trip (marked renders what turndown wrote).
    const tags = (html: string): string[] =>
      [...html.matchAll(/<(h[1-6]|p|ul|ol|li|a|strong|em)\b/g)].map((m) => m[1]!);
    expect(tags(post.html)).toEqual(tags(blog.content));
    expect(post.html.replace(/\s+/g, ' ')).toContain(blog.content.match(/<p>([^<]{20,60})/)![1]!);

    const both = await cli(['blog', 'show', blog._id, '--markdown', '--json']);
    expect(both.code).toBe(2);
  });

  it('keeps YAML-hostile titles exactly, and converts links, emphasis and lists', () => {
    for (const title of [
      'Espresso: a "how-to" # one',
      '- starts with a dash',
      'Ünïcödé ☕ & <tags>',
      "It's 100%: yes",
    ]) {
      const text = blogToMarkdown({ _id: 'a'.repeat(24), title, content: '<p>x</p>', excerpt: 'e: f' });
      const post = parseMarkdownPost(text, { path: 'x.md' });
      expect(post.fields.title).toBe(title);
      expect(post.fields.excerpt).toBe('e: f');
      expect(post.fields.blog_id).toBe('a'.repeat(24));
    }
    expect(
      htmlToMarkdown(
        '<h2>Grind</h2><p>A <strong>fine</strong> <em>grind</em>, <a href="https://e.example/x">here</a>.</p><ul><li>one</li><li>two</li></ul>',
      ),
    ).toBe('## Grind\n\nA **fine** *grind*, [here](https://e.example/x).\n\n-   one\n-   two');
  });
});

describe('one converter for blog show --markdown and wp pull', () => {
  it('keeps what Markdown cannot say (tables, figures, superscripts) as HTML, as wp pull writes it', () => {
    const html =
      '<p>E = mc<sup>2</sup></p><figure><table><tr><td>dose</td><td>18 g</td></tr></table><figcaption>Ratios</figcaption></figure>';
    const blog = blogToMarkdown({ _id: 'b'.repeat(24), title: 'T', content: html });
    const body = blog.slice(blog.indexOf('\n---\n\n') + 6).trim();
    // Not flattened to "dose18 g" and "mc2": the page reads as the service wrote it.
    expect(body).toContain('<sup>2</sup>');
    expect(body).toContain('<table>');
    expect(body).toContain('<figcaption>Ratios</figcaption>');
    expect(body).toBe(contentToMarkdown(html));
  });
});

describe('blog create --save', () => {
  it('saves the generated blog as Markdown; refuses an existing file before generating unless --force', async () => {
    const file = join(work, 'saved.md');
    const res = await cli(['blog', 'create', ...createFlags('grinders'), '--save', file, '-q']);
    expect(res.code, res.stderr).toBe(0);
    const id = res.stdout.trim();
    const post = parseMarkdownPost(readFileSync(file, 'utf8'), { path: file });
    expect(post.fields.blog_id).toBe(id);

    writeFileSync(file, 'mine');
    const before = sandbox.logs.filter((l) => l.includes('/create-blog')).length;
    const refused = await cli(['blog', 'create', ...createFlags('grinders'), '--save', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--save: ${file} exists (--force overwrites it); nothing was generated`);
    expect(sandbox.logs.filter((l) => l.includes('/create-blog')).length).toBe(before);
    expect(readFileSync(file, 'utf8')).toBe('mine');
    const forced = await cli(['blog', 'create', ...createFlags('grinders'), '--save', file, '--force', '-q']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain(`blog_id: "${forced.stdout.trim()}"`);
  });

  it('a missing folder, or a folder named as the file, is refused before generating (exit 2)', async () => {
    const before = sandbox.logs.filter((l) => l.includes('/create-blog')).length;
    const folder = join(work, 'no-such-folder');
    const missing = await cli([
      'blog',
      'create',
      ...createFlags('grinders'),
      '--save',
      join(folder, 'weekly.md'),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      `--save: the folder ${folder} does not exist (mkdir -p ${folder}); nothing was generated`,
    );
    const dir = await cli(['blog', 'create', ...createFlags('grinders'), '--save', work, '--force']);
    expect(dir.code).toBe(2);
    expect(dir.stderr).toContain(`--save: ${work} is a folder: give a file name; nothing was generated`);
    expect(sandbox.logs.filter((l) => l.includes('/create-blog')).length).toBe(before);
  });

  it('a symbolic link at the file, even dangling, even with --force: exit 2 naming it, nothing generated or written', async () => {
    const aim = join(work, 'outside-profile');
    const file = join(work, 'linked.md');
    symlinkSync(aim, file);
    const before = sandbox.logs.filter((l) => l.includes('/create-blog')).length;
    for (const extra of [[], ['--force']]) {
      const res = await cli(['blog', 'create', ...createFlags('grinders'), '--save', file, ...extra]);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(`--save: ${file} is a symbolic link`);
    }
    expect(sandbox.logs.filter((l) => l.includes('/create-blog')).length).toBe(before);
    expect(existsSync(aim)).toBe(false);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
  });

  it('a file it cannot write (a full disk): the blog is printed, then exit 9 naming the file and how to get the post', async (ctx) => {
    // The folder is there and the name is free: the write fails, known only then.
    const mounts = tmpfsMounts('blogctl-save-full-');
    try {
      const dir = mounts.mount('full', '64k');
      if (!dir) return ctx.skip('mounting a tmpfs is not allowed here');
      try {
        writeFileSync(join(dir, 'filler'), Buffer.alloc(1024 * 1024));
      } catch {
        // Full: what the test needs.
      }
      const file = join(dir, 'weekly.md');
      const res = await cli(['blog', 'create', ...createFlags('grinders'), '--save', file, '-q']);
      expect(res.code).toBe(9);
      const id = res.stdout.trim();
      expect(id).toMatch(/^[0-9a-f]{24}$/);
      const [line] = res.stderr.split('\n');
      expect(line).toContain(`cannot write ${file}`);
      expect(line).toContain(`blogctl blog show ${id} --markdown`);
    } finally {
      mounts.cleanup();
    }
  });
});

// Generation fills the post's SEO title (at most 60 characters) and meta description (140 to 160), and
// `blog create --save` writes them as front matter `seo:` that `wp publish` reads back. In-process against
// the sandbox (its template generator), for every length and a title longer than 60 characters.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMarkdownPost } from '../../src/publishing/sources/markdown.js';
import { seoFieldsOf } from '../../src/sandbox/seo-fields.js';
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
  work = mkdtempSync(join(tmpdir(), 'blogctl-seo-gen-'));
});
afterAll(async () => {
  await sandbox?.close();
});

const cli = (args: string[]): Promise<CliResult> =>
  runInProcess(['--base-url', sandbox.url, ...args], {
    env: { BLOGCTL_API_KEY: sandbox.apiKey, BLOGCTL_CONFIG_DIR: configDir },
  });

describe('generated SEO fields', () => {
  it('a generated blog has an SEO title of at most 60 characters and a description of 140 to 160', async () => {
    for (const keywords of ['home espresso', 'sourdough starter care for busy people in small flats']) {
      const res = await cli(['blog', 'create', ...createFlags(keywords), '--json']);
      expect(res.code, res.stderr).toBe(0);
      const blog = JSON.parse(res.stdout) as { title: string; seo: { title: string; description: string } };
      expect(blog.seo.title.length).toBeGreaterThan(0);
      expect(blog.seo.title.length).toBeLessThanOrEqual(60);
      expect(blog.seo.description.length).toBeGreaterThanOrEqual(140);
      expect(blog.seo.description.length).toBeLessThanOrEqual(160);
      if (blog.title.length <= 60) expect(blog.seo.title).toBe(blog.title.trim());
    }
  });

  it('cuts a long title and a long text at a word boundary', () => {
    const seo = seoFieldsOf({
      title: 'A very long title about making espresso at home without spending a fortune on gear',
      excerpt: 'Short intro.',
      content: `<p>${'Grinding fresh beans matters more than the machine you own. '.repeat(6)}</p>`,
    });
    expect(seo.title).toBe('A very long title about making espresso at home without');
    expect(seo.description.length).toBeGreaterThanOrEqual(140);
    expect(seo.description.length).toBeLessThanOrEqual(160);
    expect(seo.description).toMatch(/^Short intro\. Grinding fresh beans .*\S…$/);
  });

  it('blog create --save writes them as front matter seo:, read back by wp publish', async () => {
    const file = join(work, 'saved.md');
    const res = await cli(['blog', 'create', ...createFlags('grinders'), '--save', file, '-q']);
    expect(res.code, res.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^seo: \{"title":".+","description":".+"\}$/m);
    const post = parseMarkdownPost(text, { path: file });
    expect(post.fields.seo?.title?.length).toBeLessThanOrEqual(60);
    expect(post.fields.seo?.description?.length).toBeGreaterThanOrEqual(140);
  });
});

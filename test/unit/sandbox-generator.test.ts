// The deterministic generator, seen through create-blog: same parameters → same post; length, structure,
// keywords, links, call to action and audience all show in the HTML.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlogParams } from '../../src/schemas/blog.js';
import { composePost } from '../../src/sandbox/generator.js';
import { escapeHtml } from '../../src/sandbox/phrases.js';
import { blogParamsFor, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

/** Counted independently of the generator: runs of letters or digits in the visible text. */
function words(html: string): number {
  const text = html.replace(/<[^>]+>/g, ' ').replace(/&[a-z]+;/g, ' ');
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}

const option = (value: string) => ({ name: value, value });

describe('create-blog content', () => {
  it('is deterministic: the same parameters give the same title and content, a new _id', async () => {
    const api = sandbox.api();
    const params = blogParamsFor({ hyperlinks: ['https://example.com/beans'] });
    const a = await api.createBlog(params);
    const b = await api.createBlog(params);
    expect(b.title).toBe(a.title);
    expect(b['content']).toBe(a['content']);
    expect(b._id).not.toBe(a._id);
    // Key order in the request does not matter either.
    const reordered = Object.fromEntries(Object.entries(params).reverse()) as BlogParams;
    expect(composePost(reordered)).toEqual(composePost(params));
  });

  it('gives different posts for different parameters', () => {
    const a = composePost(blogParamsFor());
    const b = composePost(blogParamsFor({ topicKeywords: ['cold brew'] }));
    expect(b.title).not.toBe(a.title);
    expect(b.content).not.toBe(a.content);
  });

  const targets = { Short: 300, Medium: 800, Long: 1500 } as const;
  for (const structure of ['How-to guide', 'Listicle', 'Q&A', 'Opinion piece']) {
    for (const length of ['Short', 'Medium', 'Long'] as const) {
      it(`${structure}, ${length}: about ${targets[length]} words (±15%)`, async () => {
        const blog = await sandbox.api().createBlog(
          blogParamsFor({
            contentStructure: option(structure),
            blogLength: { name: length, value: length },
          }),
        );
        const counted = words(String(blog['content']));
        expect(Math.abs(counted - targets[length])).toBeLessThanOrEqual(targets[length] * 0.15);
        expect(Math.abs(Number(blog['wordCount']) - counted)).toBeLessThanOrEqual(counted * 0.05);
      });
    }
  }

  it('follows the content structure in its sections', () => {
    const html = (structure: string, tone = 'Friendly') =>
      composePost(blogParamsFor({ contentStructure: option(structure), toneStyle: option(tone) }));
    expect(html('How-to guide').content).toMatch(/<h2>Step 1: [^<]+<\/h2>[\s\S]*<h2>Step 3: /);
    expect(html('Listicle').content).toMatch(/<h2>1\. [^<]+<\/h2>[\s\S]*<h2>5\. /);
    expect(html('Listicle').title).toMatch(/^5 /);
    expect(html('Q&A').content.match(/<h2>[^<]+\?<\/h2>/g)?.length).toBeGreaterThanOrEqual(4);
    expect(html('Essay').content).toContain('<h2>Why home espresso matters</h2>');
    // The tone picks the title's voice.
    expect(html('Essay', 'Professional').title).not.toBe(html('Essay', 'Friendly').title);
  });

  it('weaves in every keyword, link, related-reading link, call to action and the audience', async () => {
    const blog = await sandbox.api().createBlog(
      blogParamsFor({
        topicKeywords: ['pour over', 'kettle', 'water temperature'],
        hyperlinks: ['https://example.com/a', 'https://example.org/b?x=1&y=2'],
        baseUrlForLinkedBlog: 'https://myblog.example/posts',
        callToAction: { name: 'Shop', value: 'custom', customValue: 'Browse our kettle collection' },
        targetAudience: option('busy parents'),
        language: { name: 'German', value: 'de' },
      }),
    );
    const content = String(blog['content']);
    for (const k of ['pour over', 'kettle', 'water temperature']) expect(content).toContain(k);
    expect(blog.title).toContain('Pour Over');
    expect(content).toContain('<a href="https://example.com/a">');
    expect(content).toContain('<a href="https://example.org/b?x=1&amp;y=2">');
    expect(content).toMatch(
      /<h2>Related reading<\/h2>\s*<p>[^<]*<a href="https:\/\/myblog\.example\/posts">/,
    );
    expect(content).toContain('Browse our kettle collection.');
    expect(content).toContain('busy parents');
    expect(blog).toMatchObject({ language: 'de', targetAudience: 'busy parents' });
  });

  // Distinct keywords, none inside another, so each one found is that one.
  const keywordsOf = (n: number): string[] =>
    Array.from({ length: n }, (_, i) => `theme ${String(i + 1).padStart(2, '0')}`);
  for (const count of [1, 3, 8, 12, 40]) {
    for (const structure of ['How-to guide', 'Listicle', 'Q&A', 'Opinion piece']) {
      for (const length of ['Short', 'Medium', 'Long'] as const) {
        it(`weaves in all ${count} keyword(s): ${structure}, ${length}, about ${targets[length]} words (±10%)`, () => {
          const params = blogParamsFor({
            topicKeywords: keywordsOf(count),
            contentStructure: option(structure),
            blogLength: { name: length, value: length },
          });
          const post = composePost(params);
          const missing = params.topicKeywords.filter((k) => !post.content.includes(k));
          expect(missing).toEqual([]);
          const counted = words(post.content);
          expect(Math.abs(counted - targets[length])).toBeLessThanOrEqual(targets[length] * 0.1);
          expect(composePost(params)).toEqual(post);
        });
      }
    }
  }

  it('takes keywords literally, even ones that look like replacement patterns', () => {
    const keywords = ['$& dollars', "$' quote", '{k2} braces', '{a} audience'];
    for (const structure of ['How-to guide', 'Listicle', 'Q&A', 'Opinion piece']) {
      const post = composePost(
        blogParamsFor({ topicKeywords: keywords, contentStructure: option(structure) }),
      );
      for (const k of keywords) expect(post.content).toContain(escapeHtml(k));
      const rest = keywords.reduce((text, k) => text.replaceAll(escapeHtml(k), ''), post.content);
      expect(rest).not.toMatch(/\{(?:k2?|a|S|n)\}/);
      expect(post.title).toContain('$& Dollars');
    }
  });

  it('escapes HTML in the parameters', () => {
    const post = composePost(blogParamsFor({ topicKeywords: ['<script>alert(1)</script>'] }));
    expect(post.content).not.toContain('<script>');
    expect(post.content).toContain('&lt;script&gt;');
  });

  it('accepts the provider key but never echoes it', async () => {
    const secret = 'sk-provider-DO-NOT-ECHO-123456';
    const res = await sandbox.fetch('/api/v1/public/create-blog', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blogParams: blogParamsFor({ externalProviderApiKey: secret }) }),
    });
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(text).not.toContain(secret);
    expect(text).not.toContain('externalProviderApiKey');
    expect(JSON.stringify(await sandbox.api().listBlogs())).not.toContain(secret);
    expect(sandbox.logs.join('\n')).not.toContain(secret);
  });
});

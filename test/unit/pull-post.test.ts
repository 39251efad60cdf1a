// A post as a Markdown file (`wp pull`): block editor delimiters dropped, blocks that are a comment alone kept.
import { describe, expect, it } from 'vitest';
import { contentToMarkdown, fileNameFor, postToMarkdown } from '../../src/publishing/pull/pull-post.js';
import { parseMarkdownPost } from '../../src/publishing/sources/markdown.js';

describe('contentToMarkdown', () => {
  it('drops the comments around saved block HTML and keeps a block that is a comment alone', () => {
    const md = contentToMarkdown(
      '<!-- wp:paragraph -->\n<p>One <strong>two</strong></p>\n<!-- /wp:paragraph -->\n\n<!-- wp:heading {"level":3} -->\n<h3>Three</h3>\n<!-- /wp:heading -->\n\n<!-- wp:latest-posts {"postsToShow":2} /-->\n\n<!-- wp:paragraph -->\n<p>After</p>\n<!-- /wp:paragraph -->',
    );
    expect(md).toBe('One **two**\n\n### Three\n\n<!-- wp:latest-posts {"postsToShow":2} /-->\n\nAfter');
    // Read back, the dynamic block is in the HTML WordPress gets.
    expect(parseMarkdownPost(`---\ntitle: x\n---\n${md}\n`, { path: 'a.md' }).html).toContain(
      '<!-- wp:latest-posts {"postsToShow":2} /-->',
    );
  });

  it('keeps the read-more and page-break comments WordPress reads', () => {
    const md = contentToMarkdown(
      '<!-- wp:paragraph -->\n<p>Intro</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:more -->\n<!--more-->\n<!-- /wp:more -->\n\n<p>Rest</p><!--nextpage--><p>Page 2</p>',
    );
    expect(md).toBe('Intro\n\n<!--more-->\n\nRest\n\n<!--nextpage-->\n\nPage 2');
  });

  it('keeps what Markdown cannot say as HTML (tables, figures)', () => {
    const md = contentToMarkdown(
      '<figure class="wp-block-table"><table><tr><td>a</td></tr></table></figure>',
    );
    expect(md).toContain('<table>');
  });
});

describe('postToMarkdown', () => {
  it('writes the fields publish reads back, terms by name, the image as an id with its URL', () => {
    const text = postToMarkdown(
      {
        id: 7,
        status: 'draft',
        slug: '',
        date: '2026-01-02T03:04:05',
        date_gmt: null,
        title: { raw: 'A "quoted": title' },
        content: { raw: '<p>Hi</p>' },
        excerpt: { raw: '' },
        categories: [3],
        tags: [],
        featured_media: 9,
        format: 'standard',
        sticky: false,
        template: '',
        author: 2,
      },
      {
        categories: new Map([[3, 'News & Notes']]),
        tags: new Map(),
        image: { id: 9, url: 'http://x.test/a.png' },
        key: 'wp-7',
      },
    );
    expect(text).toBe(
      '---\ntitle: "A \\"quoted\\": title"\nstatus: "draft"\ncategories: ["News & Notes"]\nfeatured_media: 9 # http://x.test/a.png\nauthor: 2\nkey: "wp-7"\n---\n\nHi\n',
    );
    const back = parseMarkdownPost(text, { path: 'a.md' });
    expect(back.fields).toMatchObject({
      title: 'A "quoted": title',
      featured_media: 9,
      key: 'wp-7',
      categories: ['News & Notes'],
    });
    expect(back.fields.date).toBeUndefined();
  });

  it('writes a field the project defaults set even at WordPress’s default, so the default does not replace it', () => {
    const post = {
      id: 1,
      status: 'publish',
      slug: 'a',
      tags: [],
      sticky: false,
      format: 'standard',
      comment_status: 'open',
    };
    const ctx = { categories: new Map(), tags: new Map(), key: 'wp-1' };
    expect(postToMarkdown(post, ctx)).not.toMatch(/tags|sticky|format|comment_status/);
    const stated = postToMarkdown(post, {
      ...ctx,
      stated: new Set(['tags', 'sticky', 'format', 'comment_status']),
    });
    expect(stated).toContain('tags: []\n');
    expect(stated).toContain('sticky: false\n');
    expect(stated).toContain('format: "standard"\n');
    expect(stated).toContain('comment_status: "open"\n');
  });

  it('names files by slug, else by id', () => {
    expect(fileNameFor({ id: 3, slug: 'hello-world' })).toBe('hello-world.md');
    expect(fileNameFor({ id: 3, slug: '' })).toBe('post-3.md');
    expect(fileNameFor({ id: 3, slug: '%e2%9c%93-ok' })).toBe('ok.md');
  });
});

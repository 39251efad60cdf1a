// Local images found in a post's body (sources/inline-images.ts, html-images.ts): each `src` with its file
// line, the Markdown read through marked's tokens and raw HTML through htmlparser2's tokenizer, only the `src`
// value replaced; what is not a local path (URLs, data:, a path from the site's root) is left alone.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMarkdownPost } from '../../src/publishing/sources/markdown.js';
import { rewriteHtmlImages } from '../../src/publishing/sources/html-images.js';
import { SourceImages } from '../../src/publishing/sources/inline-images.js';
import { withImageUrls } from '../../src/publishing/sources/content-tokens.js';

/** The body with every src named `<src>@<line>`, and the srcs seen. */
function marked(text: string, editor?: 'blocks'): { html: string; seen: string[] } {
  const seen: string[] = [];
  const post = parseMarkdownPost(text, {
    path: 'posts/a.md',
    ...(editor && { editor }),
    images: (src, line) => {
      seen.push(`${src}@${line}`);
      return `X${seen.length}`;
    },
    rewriteHtml: rewriteHtmlImages,
  });
  return { html: post.html, seen };
}

describe('images in Markdown', () => {
  it('finds each image with its line: paragraphs, lists, quotes, reference images, raw HTML blocks and inline tags', () => {
    const text = [
      '---', // 1
      'title: T', // 2
      '---', // 3
      '', // 4
      'Intro ![a](one.png) and ![b](one.png).', // 5
      '', // 6
      '- item', // 7
      '- ![c](list.png)', // 8
      '', // 9
      '> quote', // 10
      '> ![d][ref]', // 11
      '', // 12
      '<div>', // 13
      '  <img alt="e" src="block.png">', // 14
      '</div>', // 15
      '', // 16
      'Inline <img src="tag.png" alt="f"> tag.', // 17
      '', // 18
      '[ref]: quoted.png', // 19
      '',
    ].join('\n');
    const { html, seen } = marked(text);
    expect(seen).toEqual([
      'one.png@5',
      'one.png@5',
      'list.png@8',
      'quoted.png@11',
      'block.png@14',
      'tag.png@17',
    ]);
    expect(html).toContain('<img src="X1" alt="a">');
    expect(html).toContain('<img src="X4" alt="d">');
    expect(html).toContain('<div>\n  <img alt="e" src="X5">\n</div>');
    expect(html).toContain('Inline <img src="X6" alt="f"> tag.');
  });

  it('blocks: the image block takes the new src, its alt kept', () => {
    const { html } = marked('![Alt text](pic.png)\n', 'blocks');
    expect(html).toContain('<figure class="wp-block-image"><img src="X1" alt="Alt text"/></figure>');
  });

  it('body: html is read as HTML, its lines counted from the body', () => {
    const { html, seen } = marked('---\nbody: html\n---\n\n<p>x</p>\n<img src="h.png" alt="h">\n');
    expect(seen).toEqual(['h.png@6']);
    expect(html).toBe('<p>x</p>\n<img src="X1" alt="h">');
  });
});

describe('raw HTML', () => {
  it('replaces the src value alone, whatever the quoting; entities in it are read as text', () => {
    const html = `<IMG class=a SRC=one.png><img src='two&amp;.png' alt="x"/><img alt=src src="">`;
    const seen: string[] = [];
    const out = rewriteHtmlImages(html, 1, (src) => (seen.push(src), 'N'));
    expect(seen).toEqual(['one.png', 'two&.png']);
    expect(out).toBe(`<IMG class=a SRC=N><img src='N' alt="x"/><img alt=src src="">`);
  });
});

describe('srcset', () => {
  it('rewrites each local candidate of <img srcset> and <source srcset>, descriptors and remote ones kept', () => {
    const html =
      '<picture><source srcset="a.webp 1x,b.webp 2x" type="image/webp">' +
      '<img src="a.png" srcset="a.png 480w, https://cdn.test/b,c.png 800w,data:image/png;base64,AA= 1x, c.png"></picture>';
    const seen: string[] = [];
    const out = rewriteHtmlImages(html, 1, (src) => {
      if (src.includes(':')) return undefined;
      seen.push(src);
      return `N${seen.length}`;
    });
    expect(seen).toEqual(['a.webp', 'b.webp', 'a.png', 'a.png', 'c.png']);
    expect(out).toBe(
      '<picture><source srcset="N1 1x,N2 2x" type="image/webp">' +
        '<img src="N3" srcset="N4 480w, https://cdn.test/b,c.png 800w,data:image/png;base64,AA= 1x, N5"></picture>',
    );
  });
});

describe('SourceImages', () => {
  const dir = mkdtempSync(join(tmpdir(), 'blogctl-inline-'));
  mkdirSync(join(dir, 'proj', 'posts', 'img'), { recursive: true });
  writeFileSync(join(dir, 'proj', 'posts', 'img', 'a b.png'), 'png bytes');
  writeFileSync(join(dir, 'outside.png'), 'png bytes');
  symlinkSync(join(dir, 'outside.png'), join(dir, 'proj', 'posts', 'img', 'link.png'));
  writeFileSync(join(dir, 'proj', 'posts', 'img', 'empty.png'), '');
  const images = (): SourceImages =>
    new SourceImages('posts/a.md', join(dir, 'proj', 'posts'), join(dir, 'proj'));

  it('leaves remote and site paths alone; reads a local one (percent-encoded names too) into a token by its hash', () => {
    const found = images();
    for (const src of [
      'https://x.test/a.png',
      '//cdn.test/a.png',
      'data:image/png;base64,AA',
      '/wp-content/a.png',
      '#top',
    ])
      expect(found.resolve(src, 1)).toBeUndefined();
    const token = found.resolve('img/a%20b.png', 3);
    expect(token).toMatch(/^blogctl-image:[0-9a-f]{64}$/);
    expect(found.resolve('./img/a b.png', 4)).toBe(token);
    expect(found.images).toHaveLength(1);
    expect(found.images[0]).toMatchObject({ ref: 'img/a%20b.png', at: 'posts/a.md:3' });
    expect(found.problems).toEqual([]);
    expect(withImageUrls(`<img src="${token!}">`, new Map([[found.images[0]!.sum, 'https://s/u.png']]))).toBe(
      '<img src="https://s/u.png">',
    );
  });

  it('refuses a missing, empty, non-image or escaping one (a link out of the project included), each at its line', () => {
    const found = images();
    found.resolve('img/none.png', 2);
    found.resolve('img/empty.png', 3);
    found.resolve('img/a.txt', 4);
    found.resolve('../../outside.png', 5);
    found.resolve('img/link.png', 6);
    expect(found.problems).toHaveLength(5);
    expect(found.problems[0]).toBe('posts/a.md:2: image img/none.png: no such file');
    expect(found.problems[1]).toBe('posts/a.md:3: image img/empty.png: the file is empty');
    expect(found.problems[2]).toMatch(/^posts\/a\.md:4: image img\/a\.txt: cannot tell the image type/);
    expect(found.problems[3]).toMatch(/^posts\/a\.md:5: image \.\.\/\.\.\/outside\.png: outside /);
    expect(found.problems[4]).toMatch(/^posts\/a\.md:6: image img\/link\.png: outside /);
    expect(found.images).toEqual([]);
  });
});

// Links between sources as a Markdown body is read: which hrefs name a source file, the line each is written
// on (inline, reference-style, in lists and quotes, several on a line), and the token the content carries
// until the run knows the target's permalink.
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMarkdownPost } from '../../src/publishing/sources/markdown.js';
import { SourceLinks } from '../../src/publishing/sources/source-links.js';
import { linksIn, withLinkTargets } from '../../src/publishing/sources/content-tokens.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'blogctl-source-links-')));
writeFileSync(join(dir, 'b.md'), '# B\n');

function read(body: string): { html: string; links: SourceLinks } {
  const links = new SourceLinks('posts/a.md', dir);
  const { html } = parseMarkdownPost(`---\ntitle: A\n---\n${body}`, {
    path: join(dir, 'a.md'),
    links: links.resolve,
  });
  return { html, links };
}

describe('links between sources, read', () => {
  it('only relative paths to Markdown and HTML files; each at its line; the fragment kept', () => {
    const { html, links } = read(
      [
        'Intro [b](b.md) and [b again](./b.md#part) on one line.', // line 4
        '',
        '- a list item with [c](sub/c.markdown)', // line 6
        '- [d](../d.HTML?x=1#top)', // line 7
        '',
        '> quoted [e](e.htm)', // line 9
        '',
        'A [reference][ref] and [%-encoded](my%20post.md).', // line 11
        '',
        '[Away](https://example.com/x.md) [mail](mailto:a@b.c) [root](/x.md) [frag](#x) [pdf](f.pdf)',
        '',
        '[ref]: b.md#defined',
        '',
      ].join('\n'),
    );
    expect(
      links.links.map((l) => [
        l.at,
        l.href,
        l.target.startsWith(dir) ? l.target.slice(dir.length) : l.target,
      ]),
    ).toEqual([
      ['posts/a.md:4', 'b.md', '/b.md'],
      ['posts/a.md:4', './b.md#part', '/b.md'],
      ['posts/a.md:6', 'sub/c.markdown', '/sub/c.markdown'],
      ['posts/a.md:7', '../d.HTML?x=1#top', join(dir, '..', 'd.HTML')],
      ['posts/a.md:9', 'e.htm', '/e.htm'],
      ['posts/a.md:11', 'b.md#defined', '/b.md'],
      ['posts/a.md:11', 'my%20post.md', '/my post.md'],
    ]);
    const b = links.links[0]!.id;
    expect(html).toContain(`<a href="blogctl-link:${b}">b</a>`);
    expect(html).toContain(`<a href="blogctl-link:${b}#part">b again</a>`);
    expect(html).toContain(`<a href="blogctl-link:${b}#defined">reference</a>`);
    expect(html).toContain('<a href="https://example.com/x.md">Away</a>');
    expect(html).toContain('<a href="/x.md">root</a>');
    expect(html).toContain('<a href="f.pdf">pdf</a>');
    // The permalink in, escaped for the attribute; a target without one keeps the href as written.
    const sent = withLinkTargets(html, links.links, (l) =>
      l.target.endsWith('b.md') ? 'https://blog.example/?p=1&x=2' : undefined,
    );
    expect(sent).toContain('<a href="https://blog.example/?p=1&amp;x=2#part">b again</a>');
    expect(sent).toContain('<a href="sub/c.markdown">c</a>');
    expect(sent).not.toContain('blogctl-link:');
  });

  it('raw HTML: each `<a href>` value, at its line, the rest of the HTML as written', () => {
    const { html, links } = read(
      [
        'Text with <a class="x" href="b.md#in">an inline tag</a>.', // line 4
        '',
        '<div class="box">', // line 6
        '  <a title="t>?" href=\'b.md\'>one</a> <abbr href="b.md">no</abbr>',
        '  <A',
        '    HREF=sub/c.md data-x="1">two</A>', // line 9
        '  <a href="https://example.com/b.md">away</a><a href>empty</a>',
        '</div>',
        '',
      ].join('\n'),
    );
    expect(links.links.map((l) => [l.at, l.href])).toEqual([
      ['posts/a.md:4', 'b.md#in'],
      ['posts/a.md:7', 'b.md'],
      ['posts/a.md:9', 'sub/c.md'],
    ]);
    const [b, , c] = links.links.map((l) => l.id);
    expect(html).toBe(
      [
        `<p>Text with <a class="x" href="blogctl-link:${b}#in">an inline tag</a>.</p>`,
        '<div class="box">',
        `  <a title="t>?" href='blogctl-link:${b}'>one</a> <abbr href="b.md">no</abbr>`,
        '  <A',
        `    HREF=blogctl-link:${c} data-x="1">two</A>`,
        '  <a href="https://example.com/b.md">away</a><a href>empty</a>',
        '</div>',
        '',
      ].join('\n'),
    );
  });

  it('a `body: html` body: its `<a href>` values, at their lines', () => {
    const links = new SourceLinks('posts/a.md', dir);
    const { html } = parseMarkdownPost(
      '---\ntitle: A\nbody: html\n---\n\n<p>One</p>\n<p><a href="b.md#x">b</a></p>\n',
      { path: join(dir, 'a.md'), links: links.resolve },
    );
    expect(links.links.map((l) => l.at)).toEqual(['posts/a.md:7']);
    expect(html).toBe(`<p>One</p>\n<p><a href="blogctl-link:${links.links[0]!.id}#x">b</a></p>`);
  });

  it('a content that no longer holds a link (flags replaced the body) has none', () => {
    const { links } = read('[b](b.md)\n');
    expect(linksIn('<p>Other</p>', links.links)).toEqual([]);
    expect(linksIn(`<a href="blogctl-link:${links.links[0]!.id}">`, links.links)).toHaveLength(1);
  });

  it('without the option, links are left as written', () => {
    const { html } = parseMarkdownPost('[b](b.md)\n', { path: join(dir, 'a.md') });
    expect(html).toBe('<p><a href="b.md">b</a></p>\n');
  });
});

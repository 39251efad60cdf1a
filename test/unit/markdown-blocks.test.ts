// `editor: blocks`: Markdown as serialized core blocks, each in the form its save function writes (the forms
// WordPress 6.1 saves; later block libraries open them as valid, migrating the older ones), read back here with
// WordPress's own block parser.
import { parse } from '@wordpress/block-serialization-default-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMarkdownPost } from '../../src/publishing/sources/markdown.js';
import { BlockWriter } from '../../src/publishing/markdown-blocks.js';
import { wordpressMarked } from '../../src/publishing/markdown-wp.js';

type ParsedBlock = ReturnType<typeof parse>[number];

const marked = wordpressMarked();
const blocks = (markdown: string): string => new BlockWriter(marked).blocks(marked.lexer(markdown));

/** The top-level blocks, failing on any text between them (the editor would show it as a classic block). */
function parsed(serialized: string): ParsedBlock[] {
  const all = parse(serialized);
  for (const b of all) if (b.blockName === null) expect(b.innerHTML.trim()).toBe('');
  return all.filter((b) => b.blockName !== null);
}

describe('each Markdown construct is the core block that saves it', () => {
  it('paragraph and headings (level 2 is the default, not written)', () => {
    expect(blocks('Some **bold** & <b>raw</b> &lt;i&gt;\n\n## Two\n\n### Three')).toBe(
      '<!-- wp:paragraph -->\n<p>Some <strong>bold</strong> &amp; <b>raw</b> &lt;i&gt;</p>\n<!-- /wp:paragraph -->\n\n' +
        '<!-- wp:heading -->\n<h2>Two</h2>\n<!-- /wp:heading -->\n\n' +
        '<!-- wp:heading {"level":3} -->\n<h3>Three</h3>\n<!-- /wp:heading -->',
    );
  });

  it('lists as list blocks of list-item blocks, nested lists inside their item, ordered with start', () => {
    expect(blocks('- a\n  - b\n- c')).toBe(
      '<!-- wp:list -->\n<ul><!-- wp:list-item -->\n<li>a<!-- wp:list -->\n<ul><!-- wp:list-item -->\n<li>b</li>\n<!-- /wp:list-item --></ul>\n<!-- /wp:list --></li>\n<!-- /wp:list-item --><!-- wp:list-item -->\n<li>c</li>\n<!-- /wp:list-item --></ul>\n<!-- /wp:list -->',
    );
    expect(blocks('3. x')).toBe(
      '<!-- wp:list {"ordered":true,"start":3} -->\n<ol start="3"><!-- wp:list-item -->\n<li>x</li>\n<!-- /wp:list-item --></ol>\n<!-- /wp:list -->',
    );
    const tree = parsed(blocks('- a\n  - b\n- c'));
    expect(tree.map((b) => b.blockName)).toEqual(['core/list']);
    expect(tree[0]!.innerBlocks.map((b) => b.blockName)).toEqual(['core/list-item', 'core/list-item']);
    expect(tree[0]!.innerBlocks[0]!.innerBlocks[0]!.blockName).toBe('core/list');
  });

  it('a quote holds its content as blocks', () => {
    expect(blocks('> One\n>\n> Two')).toBe(
      '<!-- wp:quote -->\n<blockquote class="wp-block-quote"><!-- wp:paragraph -->\n<p>One</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:paragraph -->\n<p>Two</p>\n<!-- /wp:paragraph --></blockquote>\n<!-- /wp:quote -->',
    );
  });

  it('code escapes what WordPress would run: tags, shortcodes, an embed URL', () => {
    expect(blocks('```js\nif (a < b && c) [gallery]\nhttps://youtu.be/x\n```')).toBe(
      '<!-- wp:code -->\n<pre class="wp-block-code"><code>if (a &lt; b &amp;&amp; c) &#91;gallery]\nhttps:&#47;&#47;youtu.be/x</code></pre>\n<!-- /wp:code -->',
    );
  });

  it('separator, image alone in its paragraph, table', () => {
    expect(blocks('---')).toBe(
      '<!-- wp:separator -->\n<hr class="wp-block-separator has-alpha-channel-opacity"/>\n<!-- /wp:separator -->',
    );
    expect(blocks('![A "cat"](https://x.org/c.png "Cat")')).toBe(
      '<!-- wp:image -->\n<figure class="wp-block-image"><img src="https://x.org/c.png" alt="A &quot;cat&quot;" title="Cat"/></figure>\n<!-- /wp:image -->',
    );
    expect(blocks('| a | b |\n|---|---|\n| 1 | *2* |')).toBe(
      '<!-- wp:table -->\n<figure class="wp-block-table"><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td><em>2</em></td></tr></tbody></table></figure>\n<!-- /wp:table -->',
    );
  });

  it('shortcodes, embeds and raw HTML: shortcode, embed and html blocks; block markup kept as written', () => {
    expect(blocks('[contact-form-7 id="1" title="C"]')).toBe(
      '<!-- wp:shortcode -->\n[contact-form-7 id="1" title="C"]\n<!-- /wp:shortcode -->',
    );
    expect(blocks('https://www.youtube.com/watch?v=a')).toBe(
      '<!-- wp:embed {"url":"https://www.youtube.com/watch?v=a"} -->\n<figure class="wp-block-embed"><div class="wp-block-embed__wrapper">\nhttps://www.youtube.com/watch?v=a\n</div></figure>\n<!-- /wp:embed -->',
    );
    expect(blocks('<div class="x">raw</div>\n\n<!-- wp:latest-posts {"postsToShow":2} /-->')).toBe(
      '<!-- wp:html -->\n<div class="x">raw</div>\n<!-- /wp:html -->\n\n<!-- wp:latest-posts {"postsToShow":2} /-->',
    );
    // Column alignment: kept exact as HTML.
    expect(parsed(blocks('| a |\n|:-:|\n| 1 |')).map((b) => b.blockName)).toEqual(['core/html']);
  });

  it('escapes block comment attributes as WordPress does', () => {
    expect(blocks('https://x.org/a?b=1&c=--x')).toContain(
      '<!-- wp:embed {"url":"https://x.org/a?b=1\\u0026c=\\u002d\\u002dx"} -->',
    );
  });
});

describe('front matter editor: blocks', () => {
  it('sends blocks; classic (the default) sends HTML; another value is an error at its line', () => {
    const post = parseMarkdownPost('---\ntitle: T\neditor: blocks\n---\nHello\n', { path: 'a.md' });
    expect(post.html).toBe('<!-- wp:paragraph -->\n<p>Hello</p>\n<!-- /wp:paragraph -->');
    expect(parseMarkdownPost('---\ntitle: T\n---\nHello\n', { path: 'a.md' }).html).toBe('<p>Hello</p>\n');
    expect(() => parseMarkdownPost('---\ntitle: T\neditor: gutenberg\n---\nx\n', { path: 'a.md' })).toThrow(
      /a\.md:3: editor: must be one of classic, blocks/,
    );
  });
});

// Any mix of the constructs: the parser finds only core blocks, nothing between them, and every paragraph,
// heading and list item in its saved form.
const word = fc.stringMatching(/^[A-Za-z0-9]{1,8}$/);
const inline = fc
  .array(
    fc.oneof(
      word,
      word.map((w) => `**${w}**`),
      word.map((w) => `\`${w}<\``),
      fc.constant('&lt;b&gt;'),
    ),
    {
      minLength: 1,
      maxLength: 5,
    },
  )
  .map((p) => p.join(' '));
const construct = fc.oneof(
  inline,
  inline.map((t) => `## ${t}`),
  fc.array(inline, { minLength: 1, maxLength: 3 }).map((items) => items.map((i) => `- ${i}`).join('\n')),
  inline.map((t) => `> ${t}`),
  word.map((w) => `\`\`\`\n${w} [x] <y>\n\`\`\``),
  fc.constant('---'),
  word.map((w) => `![${w}](https://x.org/${w}.png)`),
  word.map((w) => `[gallery ids="${w}"]`),
  word.map((w) => `<div>${w}</div>`),
);
const CORE = new Set(
  [
    'paragraph',
    'heading',
    'list',
    'list-item',
    'quote',
    'code',
    'separator',
    'image',
    'table',
    'shortcode',
    'html',
    'embed',
  ].map((n) => `core/${n}`),
);

describe('property: any mix parses as core blocks only', () => {
  it('has no text outside blocks and only core blocks', () => {
    fc.assert(
      fc.property(fc.array(construct, { minLength: 1, maxLength: 6 }), (parts) => {
        const walk = (list: ParsedBlock[]): void => {
          for (const b of list) {
            expect(CORE.has(b.blockName!)).toBe(true);
            if (b.blockName === 'core/paragraph') expect(b.innerHTML).toMatch(/^\n<p>[\s\S]*<\/p>\n$/);
            walk(b.innerBlocks.filter((i: ParsedBlock) => i.blockName !== null));
          }
        };
        walk(parsed(blocks(parts.join('\n\n'))));
      }),
      { numRuns: 200 },
    );
  });
});

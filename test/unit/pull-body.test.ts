// wp pull's body: Markdown only when it publishes back as the same HTML, else the site's HTML as it is
// (`body: html`). Whatever the post, pull then publish sends back what the site stores, and a one-word edit of
// the file changes that word only.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMarkdownPost } from '../../src/publishing/sources/markdown.js';
import { postToMarkdown } from '../../src/publishing/pull/pull-post.js';
import type { WpPostDetail } from '../../src/wordpress/posts.js';
import { publish, pull } from '../helpers/pull-file.js';

/** Real WordPress content of both editors (as WordPress 6.1 stores it). */
const CORPUS: Record<string, string> = {
  'classic wpautop paragraphs':
    'First paragraph,\nsame paragraph.\n\nSecond paragraph with <strong>bold</strong>.',
  'classic more and nextpage':
    'Teaser text.\n\n<!--more-->\n\nRest of page one.\n\n<!--nextpage-->\n\nPage two.',
  'classic caption':
    '[caption id="attachment_7" align="aligncenter" width="300"]<img class="size-medium wp-image-7" src="http://x.test/c.png" alt="c" width="300" height="200" /> A caption[/caption]\n\nAfter.',
  'classic gallery and embed':
    '[gallery ids="7,8" columns="2"]\n\nhttps://www.youtube.com/watch?v=abc\n\n[embed]https://vimeo.com/1[/embed]',
  'classic entities and code':
    'Write &lt;script&gt; as text &amp; keep <code>&lt;b&gt;</code>.\r\n\r\n<pre>if (a &lt; b) {}</pre>',
  'block group and columns':
    '<!-- wp:group {"layout":{"type":"constrained"}} -->\n<div class="wp-block-group"><!-- wp:columns -->\n<div class="wp-block-columns"><!-- wp:column -->\n<div class="wp-block-column"><!-- wp:paragraph -->\n<p>Left</p>\n<!-- /wp:paragraph --></div>\n<!-- /wp:column --></div>\n<!-- /wp:columns --></div>\n<!-- /wp:group -->',
  'block buttons, image, separator':
    '<!-- wp:buttons -->\n<div class="wp-block-buttons"><!-- wp:button -->\n<div class="wp-block-button"><a class="wp-block-button__link wp-element-button" href="https://x.test">Go</a></div>\n<!-- /wp:button --></div>\n<!-- /wp:buttons -->\n\n<!-- wp:image {"id":7,"sizeSlug":"large","linkDestination":"none","className":"is-style-rounded"} -->\n<figure class="wp-block-image size-large is-style-rounded"><img src="http://x.test/c.png" alt="" class="wp-image-7"/></figure>\n<!-- /wp:image -->\n\n<!-- wp:separator -->\n<hr class="wp-block-separator has-alpha-channel-opacity"/>\n<!-- /wp:separator -->',
  'block code, table, embed':
    '<!-- wp:code -->\n<pre class="wp-block-code"><code>a &lt; b</code></pre>\n<!-- /wp:code -->\n\n<!-- wp:table -->\n<figure class="wp-block-table"><table><tbody><tr><td>1</td></tr></tbody></table></figure>\n<!-- /wp:table -->\n\n<!-- wp:embed {"url":"https://youtu.be/x","type":"video","providerNameSlug":"youtube"} -->\n<figure class="wp-block-embed is-type-video is-provider-youtube wp-block-embed-youtube"><div class="wp-block-embed__wrapper">\nhttps://youtu.be/x\n</div></figure>\n<!-- /wp:embed -->',
  'reusable block': '<!-- wp:block {"ref":12} /-->',
};

describe('the corpus: pull then publish sends back what the site stores', () => {
  for (const [name, raw] of Object.entries(CORPUS)) {
    it(name, () => {
      const file = pull(raw);
      expect(publish(file)).toBe(raw);
      // A one-word edit: the HTML sent differs by that word only.
      const word = /\b(paragraph|text|caption|Left|Go|page|After)\b/.exec(
        file.split('---\n').slice(2).join(''),
      );
      if (word) {
        const edited = file.replace(
          /(---\n\n[\s\S]*?)\b(paragraph|text|caption|Left|Go|page|After)\b/,
          '$1EDITED',
        );
        expect(publish(edited)).toBe(raw.replace(new RegExp(`\\b${word[1]}\\b`), 'EDITED'));
      }
    });
  }

  it('keeps Markdown where it reads back the same: classic and blocks written by blogctl', () => {
    expect(pull('<p>One <strong>two</strong></p>\n<h2>Three</h2>')).toMatch(
      /---\n\nOne \*\*two\*\*\n\n## Three\n$/,
    );
    const blocks = publish('---\ntitle: T\neditor: blocks\n---\nHello *you*\n\n- a\n- b\n');
    const file = pull(blocks);
    expect(file).toContain('editor: "blocks"\n');
    expect(file).toMatch(/---\n\nHello \*you\*\n\n- +a\n- +b\n$/);
    expect(publish(file)).toBe(blocks);
  });

  it('keeps a block post as Markdown only when its blocks come back byte for byte', () => {
    // The block editor ends its content at the last block's closing comment, as the block writer does.
    const stored = '<!-- wp:paragraph -->\n<p>A block word.</p>\n<!-- /wp:paragraph -->';
    const file = pull(stored);
    expect(file).toContain('editor: "blocks"\n');
    expect(file).toMatch(/---\n\nA block word\.\n$/);
    expect(publish(file)).toBe(stored);
    // Written another way (through the REST API, an importer), the content may end with a line break, which
    // the page shows (block content is not run through wpautop) and Markdown cannot hold: kept as HTML.
    for (const ends of ['\n', '\n\n', '\r\n']) {
      const withBreak = pull(stored + ends);
      expect(withBreak).toContain('body: "html"\n');
      expect(publish(withBreak)).toBe(stored + ends);
    }
    expect(publish(pull(`\n${stored}`))).toBe(`\n${stored}`);
  });

  it('keeps a classic post as HTML when a Unicode space ends it (text on the page, not dropped by wpautop)', () => {
    for (const space of ['\u00a0', '\u3000', '\ufeff']) {
      for (const stored of [`<p>x</p>${space}`, `${space}<p>x</p>`]) {
        const file = pull(stored);
        expect(file).toContain('body: "html"\n');
        expect(publish(file)).toBe(stored);
      }
    }
    // ASCII whitespace at the ends is dropped by wpautop: still Markdown.
    expect(pull('<p>x</p> \t\r\n')).toMatch(/---\n\nx\n$/);
  });

  it('says editor: classic for a classic Markdown body when the project default is blocks', () => {
    const file = postToMarkdown(
      {
        id: 1,
        status: 'publish',
        slug: 's',
        title: { raw: 'T', rendered: 'T' },
        content: { raw: '<p>x</p>', rendered: '' },
      } as WpPostDetail,
      { categories: new Map(), tags: new Map(), key: 'k', stated: new Set(['editor']) },
    );
    expect(file).toContain('editor: "classic"\n');
    expect(parseMarkdownPost(file, { path: 'p.md', editor: 'blocks' }).html).toBe('<p>x</p>\n');
  });

  it('writes what Markdown would change as body: html', () => {
    expect(pull(CORPUS['classic wpautop paragraphs']!)).toContain('body: "html"\n');
    expect(pull(CORPUS['block group and columns']!)).toContain('body: "html"\n');
  });
});

describe('property: any stored HTML comes back as the site has it', () => {
  const piece = fc.oneof(
    fc.constantFrom(
      '<p>a</p>',
      '\n\n',
      '\n',
      '<!--more-->',
      '[gallery ids="1"]',
      '&lt;x&gt;',
      '&amp;',
      '<b>b</b>',
      '# h',
      '* x',
      '---',
      '<!-- wp:paragraph -->',
      '<!-- /wp:paragraph -->',
      'https://x.test/v',
      '\r\n',
      '\r',
      '`c`',
    ),
    fc.string({ maxLength: 8 }),
  );
  it('publish(pull(raw)) is raw, or raw up to blank lines at its ends when it is classic Markdown', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 10 }).map((p) => p.join('')),
        (raw) => {
          fc.pre(raw.trim() !== '');
          const file = pull(raw);
          const back = publish(file);
          if (file.includes('body: "html"') || file.includes('editor: "blocks"')) expect(back).toBe(raw);
          else expect(back.trim()).toBe(raw.trim());
        },
      ),
      { numRuns: 400 },
    );
  });
});

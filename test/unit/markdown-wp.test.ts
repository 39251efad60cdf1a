import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wordpressMarked } from '../../src/publishing/markdown-wp.js';

const marked = wordpressMarked();
const html = (markdown: string): string => marked.parse(markdown) as string;

describe('shortcodes pass through as written', () => {
  it('keeps attribute quotes and URLs inside a shortcode in a paragraph', () => {
    expect(html('Look: [gallery ids="1,2" columns="2"] and [audio src="https://x.org/a.mp3"] here')).toBe(
      '<p>Look: [gallery ids="1,2" columns="2"] and [audio src="https://x.org/a.mp3"] here</p>\n',
    );
  });

  it('writes a paragraph of shortcodes alone without <p>, as the classic editor stores it', () => {
    expect(html('[contact-form-7 id="12" title="Contact us"]\n')).toBe(
      '[contact-form-7 id="12" title="Contact us"]\n',
    );
    expect(html('[gallery ids=\'1,2\' link="file"]\n[playlist ids="3"]')).toBe(
      '[gallery ids=\'1,2\' link="file"]\n[playlist ids="3"]\n',
    );
  });

  it('keeps an enclosing shortcode, its Markdown content rendered and its image as written', () => {
    expect(
      html(
        '[caption id="attachment_5" align="alignnone" width="300"]<img src="a.png" alt="x" /> A *cat*[/caption]',
      ),
    ).toBe(
      '<p>[caption id="attachment_5" align="alignnone" width="300"]<img src="a.png" alt="x" /> A <em>cat</em>[/caption]</p>\n',
    );
  });

  it('copies the content of [embed] and of a shortcode holding one URL, never linking it', () => {
    expect(html('[embed width="500"]https://youtu.be/x_y?t=1&a=b[/embed]')).toBe(
      '[embed width="500"]https://youtu.be/x_y?t=1&a=b[/embed]\n',
    );
    expect(html('[my-player]https://x.org/a.mp4[/my-player]')).toBe(
      '[my-player]https://x.org/a.mp4[/my-player]\n',
    );
    expect(html('[code lang="js"]a && b < c[/code]')).toBe('[code lang="js"]a && b < c[/code]\n');
  });

  it('keeps the escaped form [[name]] and self-closing [name /]', () => {
    expect(html('Write [[gallery]] to show it, or [br /] here')).toBe(
      '<p>Write [[gallery]] to show it, or [br /] here</p>\n',
    );
  });

  it('leaves links, reference links, images, task lists and footnote marks to Markdown', () => {
    expect(html('[see this](https://a.b) and [ref] and ![alt](i.png)\n\n[ref]: https://ref.org')).toBe(
      '<p><a href="https://a.b">see this</a> and <a href="https://ref.org">ref</a> and <img src="i.png" alt="alt"></p>\n',
    );
    expect(html('- [ ] todo\n- [x] done')).toContain('<input disabled="" type="checkbox"> todo');
    expect(html('Text[^1] here')).toBe('<p>Text[^1] here</p>\n');
  });

  it('does not read a shortcode inside a code span or a code block', () => {
    expect(html('`[gallery ids="1"]`')).toBe('<p><code>[gallery ids=&quot;1&quot;]</code></p>\n');
    expect(html('```\n[gallery ids="1"]\n```')).toBe(
      '<pre><code>[gallery ids=&quot;1&quot;]\n</code></pre>\n',
    );
  });
});

describe('text stays text', () => {
  it('keeps entities as written and escapes only what would become markup', () => {
    expect(html('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &copy; &#60;b&#62; &#x3C;i&#x3E;')).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &copy; &#60;b&#62; &#x3C;i&#x3E;</p>\n',
    );
    expect(html('Fish & chips, 1 < 2 > 0, "quoted" and \'single\'')).toBe(
      '<p>Fish &amp; chips, 1 &lt; 2 &gt; 0, "quoted" and \'single\'</p>\n',
    );
    expect(html('\\<b> is not bold, \\& is an ampersand')).toBe(
      '<p>&lt;b&gt; is not bold, &amp; is an ampersand</p>\n',
    );
  });

  it('keeps code literal: an entity in code shows as written', () => {
    expect(html('`&lt;b&gt;` and `<b>`')).toBe(
      '<p><code>&amp;lt;b&amp;gt;</code> and <code>&lt;b&gt;</code></p>\n',
    );
  });
});

describe('embeds and raw HTML', () => {
  it('keeps a URL on a line of its own bare, so WordPress embeds it', () => {
    expect(html('Before\n\nhttps://www.youtube.com/watch?v=abc&t=1\n\nAfter')).toBe(
      '<p>Before</p>\nhttps://www.youtube.com/watch?v=abc&t=1\n<p>After</p>\n',
    );
    expect(html('> https://quoted.org/v')).toBe('<blockquote>\nhttps://quoted.org/v\n</blockquote>\n');
  });

  it('links a URL in a sentence or a list item as before', () => {
    expect(html('See https://a.org now')).toBe('<p>See <a href="https://a.org">https://a.org</a> now</p>\n');
    expect(html('- https://a.org')).toBe('<ul>\n<li><a href="https://a.org">https://a.org</a></li>\n</ul>\n');
  });

  it('copies a raw HTML block as written, on lines of its own', () => {
    expect(html('<div class="x">\n  <p>raw "q" &amp; [gallery]</p>\n</div>\n\n# Next')).toBe(
      '<div class="x">\n  <p>raw "q" &amp; [gallery]</p>\n</div>\n<h1>Next</h1>\n',
    );
    expect(html('<!--more-->\n\nText\n\n<!--nextpage-->')).toBe(
      '<!--more-->\n<p>Text</p>\n<!--nextpage-->\n',
    );
  });
});

// Random text made of shortcodes, entities, code spans and plain words: whatever the mix, every shortcode and
// every entity outside code reaches the HTML as written, and no tag appears that the writer did not write.
const word = fc.stringMatching(/^[A-Za-z0-9]{1,8}$/);
const attrValue = fc.stringMatching(/^[A-Za-z0-9 ,./:_&=?-]{0,20}$/);
const shortcodeText = fc
  .record({
    name: fc.constantFrom('gallery', 'caption', 'contact-form-7', 'audio', 'vc_row', 'my-box'),
    attrs: fc.array(fc.tuple(fc.stringMatching(/^[a-z][a-z_]{0,6}$/), attrValue, fc.constantFrom('"', "'")), {
      maxLength: 3,
    }),
  })
  .map(
    ({ name, attrs }) =>
      `[${name}${attrs.map(([k, v, q]) => ` ${k}=${q}${v.replaceAll(q, '')}${q}`).join('')}]`,
  );
const entity = fc.constantFrom(
  '&lt;',
  '&gt;',
  '&amp;',
  '&quot;',
  '&#60;',
  '&#x3C;',
  '&copy;',
  '&nbsp;',
  '&lt;script&gt;',
);
const codeSpan = fc.stringMatching(/^[A-Za-z0-9<>&;" ]{1,12}$/).map((c) => `\`${c.replaceAll('`', '')}\``);
const piece = fc.oneof(word, word, shortcodeText, entity, codeSpan, fc.constant('"'), fc.constant('&'));
const line = fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(' '));

describe('property: shortcodes and entities survive any mix', () => {
  it('copies every shortcode and entity outside code, and writes no tag but p and code', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 4 }), (lines) => {
        const markdown = lines.join('\n\n');
        const out = html(markdown);
        const outside = markdown.replace(/`[^`]*`/g, ' ');
        for (const sc of outside.match(/\[[a-z_-]+[^\]]*\]/g) ?? []) expect(out).toContain(sc);
        for (const ent of outside.match(/&(?:#x?[0-9A-Fa-f]+|[a-z]+);/g) ?? []) expect(out).toContain(ent);
        const tags = new Set([...out.matchAll(/<\/?([a-z0-9-]+)/gi)].map((m) => m[1]!.toLowerCase()));
        for (const tag of tags) expect(['p', 'code']).toContain(tag);
      }),
      { numRuns: 300 },
    );
  });
});

describe('Markdown posts use it', () => {
  it('parseMarkdownPost sends a shortcode and an entity as written', async () => {
    const { parseMarkdownPost } = await import('../../src/publishing/sources/markdown.js');
    const post = parseMarkdownPost('---\ntitle: T\n---\n[gallery ids="1,2"]\n\nA &lt;b&gt; tag\n', {
      path: 'a.md',
    });
    expect(post.html).toBe('[gallery ids="1,2"]\n<p>A &lt;b&gt; tag</p>\n');
  });
});

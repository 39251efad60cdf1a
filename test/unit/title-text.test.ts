// Titles are text: escaped when sent unless the file says `title_html: true`, and read back from the site as
// the same text (or as HTML with `title_html: true` when the text would not send the same HTML).
import { decodeHTML } from 'entities';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMarkdownPost } from '../../src/publishing/sources/markdown.js';
import { frontMatterLayer } from '../../src/publishing/sources/publish-draft.js';
import { postToMarkdown } from '../../src/publishing/pull/pull-post.js';
import { titleHtmlToText, titleTextToHtml } from '../../src/publishing/title-text.js';
import type { WpPostDetail } from '../../src/wordpress/posts.js';

const sentTitle = (markdown: string): unknown =>
  frontMatterLayer(parseMarkdownPost(markdown, { path: 'a.md' }), 'a.md').values['title'];

describe('a front matter title is text', () => {
  it('escapes markup so it shows, never runs', () => {
    expect(sentTitle('---\ntitle: "<script>alert(1)</script> & <b>co</b>"\n---\nBody\n')).toBe(
      '&lt;script&gt;alert(1)&lt;/script&gt; & &lt;b&gt;co&lt;/b&gt;',
    );
    // `&amp;` written in the title is those five characters.
    expect(sentTitle('---\ntitle: "Fish &amp; Chips, AT&T"\n---\nBody\n')).toBe(
      'Fish &amp;amp; Chips, AT&amp;T',
    );
    // Nothing to escape: sent exactly as written.
    expect(sentTitle('---\ntitle: "Fish & Chips: \'quoted\' \\"twice\\""\n---\nBody\n')).toBe(
      'Fish & Chips: \'quoted\' "twice"',
    );
  });

  it('sends an HTML title as written when title_html is true', () => {
    expect(sentTitle('---\ntitle: "My <em>great</em> post &amp; more"\ntitle_html: true\n---\nBody\n')).toBe(
      'My <em>great</em> post &amp; more',
    );
  });

  it('takes a # heading title as the text it shows, or its HTML with title_html', () => {
    expect(sentTitle('# Fish &amp; *Chips* `<b>` &lt;i&gt;\n\nBody\n')).toBe(
      'Fish & Chips &lt;b&gt; &lt;i&gt;',
    );
    expect(sentTitle('---\ntitle_html: true\n---\n# Fish &amp; *Chips*\n\nBody\n')).toBe(
      'Fish &amp; <em>Chips</em>',
    );
  });

  it('refuses a title_html that is not true or false, naming its line', () => {
    expect(() =>
      parseMarkdownPost('---\ntitle: x\ntitle_html: yes please\n---\nB\n', { path: 'a.md' }),
    ).toThrow(/a\.md:3: title_html: expected true or false/);
  });
});

describe('the title read back from the site', () => {
  const post = (raw: string): WpPostDetail =>
    ({
      id: 1,
      status: 'publish',
      slug: 's',
      title: { raw, rendered: raw },
      content: { raw: '<p>b</p>' },
    }) as WpPostDetail;
  const pulled = (raw: string): string =>
    postToMarkdown(post(raw), { categories: new Map(), tags: new Map(), key: 'k' });

  it('is written as text when it sends back the same HTML, else as HTML with title_html', () => {
    expect(pulled('Fish &amp;amp; Chips &lt;b&gt;')).toContain('title: "Fish &amp; Chips <b>"\n');
    expect(pulled('Fish & Chips')).toContain('title: "Fish & Chips"\n');
    expect(pulled('Fish & Chips')).not.toContain('title_html');
    expect(pulled('My <em>great</em> post')).toContain('title: "My <em>great</em> post"\ntitle_html: true\n');
    // An entity written another way than blogctl would write it stays as the site has it.
    expect(pulled('Caf&eacute; &#8220;x&#8221;')).toContain('title_html: true');
  });

  it('publishes back exactly what the site stores, whatever the title', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.stringMatching(/^[A-Za-z &;#<>/"'0-9x]{0,30}$/),
          fc.constantFrom('a &amp; b', '&lt;script&gt;', 'x &copy y', '<em>e</em>', '&#60;', 'AT&amp;T'),
        ),
        (raw) => {
          fc.pre(raw.trim() !== '' && !/[\r\n\u2028\u2029]/.test(raw));
          const file = pulled(raw);
          expect(sentTitle(file)).toBe(raw);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('titleTextToHtml', () => {
  it('is read back by a browser as the same text, and titleHtmlToText inverts it', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[&#;a-zA-Z0-9<> ]{0,20}$/)), (text) => {
        const html = titleTextToHtml(text);
        expect(decodeHTML(html)).toBe(text);
        expect(titleHtmlToText(html)).toBe(text);
      }),
      { numRuns: 500 },
    );
  });
});

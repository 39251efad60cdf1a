// What wp pull and blog show --markdown do not convert to Markdown, so that any post converts in bounded time
// (issue 32 item 4): content with more elements than MAX_ELEMENTS, or a longer stretch with nothing to see
// than MAX_BLANK_RUN (turndown's last trim is quadratic in it), is kept as its HTML (`body: html`), byte for
// byte; Markdown whose reading back through marked would take more than MAX_READ_BACK_WORK steps is not read
// back, and the post keeps its HTML too. Each limit is checked at its edge: one under converts as before.
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blogToMarkdown } from '../../src/blogs/markdown-export.js';
import { htmlShape, measureHtml } from '../../src/lib/html-depth.js';
import {
  CONVERT_LIMITS,
  htmlToMarkdown,
  MAX_BLANK_RUN,
  MAX_ELEMENTS,
} from '../../src/lib/html-to-markdown.js';
import { MAX_READ_BACK_WORK, pulledBody, readBackWork } from '../../src/publishing/pull/pull-body.js';
import { contentToMarkdown } from '../../src/publishing/pull/pull-post.js';
import type { Blog } from '../../src/schemas/blog.js';
import { publish, pull } from '../helpers/pull-file.js';

/** Pieces of HTML that write white space: random content is made of them. */
const BLANKS = [
  '<br>',
  '<br/>',
  '<p>',
  '</p>',
  '<ul><li>',
  '<ol start="123456789"><li>',
  '<li>',
  '</li>',
  '</ul>',
  '</ol>',
  '<pre>',
  '</pre>',
  '<div>',
  '</div>',
  '<table><tr><td>',
  '<b>',
  '</b>',
  '<blockquote>',
  '<h2>',
  '<hr>',
  '<img alt="  a   " src=x>',
  '<a href=x title="   ">',
  '</a>',
  ' ',
  '   ',
  '\n',
  '\t',
  '\u00a0',
  '&nbsp;',
  '&#32;',
  '&#10;',
  'x',
  '<span/>',
];

/** Pieces of tag soup that the parser nests, closes, moves or makes again. */
const SOUP = [
  '<b>',
  '</b>',
  '<b class=1>',
  '<b class=2>',
  '<i>',
  '</i>',
  '<a href=x>',
  '</a>',
  '<nobr>',
  '<div>',
  '</div>',
  '<p>',
  '</p>',
  '<span>',
  '</span>',
  '<span/>',
  '<li>',
  '<ul>',
  '</ul>',
  '<dd>',
  '<table>',
  '<tr>',
  '<td>',
  '</td>',
  '</table>',
  '<caption>',
  '<col>',
  '<h2>',
  '<h3>',
  '</h2>',
  '<svg>',
  '</svg>',
  '<math>',
  '<g/>',
  '<title>',
  '</title>',
  '<foreignObject>',
  '<font size=1>',
  '<object>',
  '</object>',
  '<select>',
  '<option>',
  '<button>',
  '<form>',
  '<br>',
  '</br>',
  '<img src=x>',
  '<!-->',
  '<!-- c -->',
  '--!>',
  '<!-- x',
  '<?x>',
  '</3>',
  '<a title=">">',
  '<a b"c>',
  '<script>',
  '</script>',
  '<textarea>',
  '<pre>',
  '<dl>',
  '<dt>',
  '<optgroup>',
  '</select>',
  '<template>',
  '</template>',
  '<marquee>',
  '<body>',
  '<xmp>',
  '<iframe>',
  '<noscript>',
  '<math><mi>',
  '<annotation-xml>',
  '</math>',
  '<tbody>',
  '</tr>',
  '<th>',
  '<colgroup>',
  '</caption>',
  '<input>',
  '<hr>',
  '<ruby><rt>',
  '</nobr>',
  '<em>',
  '<font color=red>',
  '</li>',
  '</form>',
  '</button>',
  '<sup>',
  '</sup>',
  '<video>',
  '<details>',
  '<figure>',
  '</figure>',
  '<embed>',
  'x',
  ' ',
];
const asHtml = (raw: string): string =>
  `---\ntitle: "T"\nslug: "s"\nstatus: "publish"\nbody: "html"\nkey: "k"\n---\n\n${raw}\n`;

describe('content with more elements than the converter takes', () => {
  // The paragraphs marked writes, so that the Markdown reads back as them.
  const paragraphs = (n: number): string => '<p>a</p>\n'.repeat(n);

  it(`converts at ${MAX_ELEMENTS.toLocaleString('en')} elements and keeps its HTML at one more`, () => {
    expect(pull(paragraphs(MAX_ELEMENTS))).toBe(
      `---\ntitle: "T"\nslug: "s"\nstatus: "publish"\nkey: "k"\n---\n\n${'a\n\n'.repeat(MAX_ELEMENTS - 1)}a\n`,
    );
    const over = paragraphs(MAX_ELEMENTS + 1);
    expect(contentToMarkdown(over)).toBeUndefined();
    expect(pull(over)).toBe(asHtml(over));
    // Published back, the site gets what it stores.
    expect(publish(pull(over))).toBe(over);
  });

  it('counts the elements the parser sees: void ones, not those in comments or raw text', () => {
    const limits = { ...CONVERT_LIMITS, elements: 3 };
    expect(measureHtml('<p>a<br><img src=x></p>', limits)).toBeUndefined();
    expect(measureHtml('<p>a<br><img src=x><hr></p>', limits)).toBe('many');
    expect(measureHtml('<p>a</p><!-- <b><b><b> --><script>"<i><i><i>"</script>', limits)).toBeUndefined();
    // The first limit passed is told, where it is passed.
    expect(measureHtml(`${'<div>'.repeat(41)}${'<br>'.repeat(10)}`, limits)).toBe('many');
    expect(measureHtml(`${'<div>'.repeat(41)}`, { ...limits, elements: 100 })).toBe('deep');
  });

  it('blog show --markdown writes such a blog as the service\u2019s HTML', () => {
    const content = '<p>x</p>'.repeat(MAX_ELEMENTS + 1);
    const file = blogToMarkdown({ _id: 'b1', title: 'Big', content } as Blog);
    expect(file).toBe(`---\ntitle: "Big"\nbody: "html"\nblog_id: "b1"\n---\n\n${content}\n`);
    expect(blogToMarkdown({ _id: 'b1', title: 'Big', content: '<p>x</p>'.repeat(3) } as Blog)).toBe(
      '---\ntitle: "Big"\nblog_id: "b1"\n---\n\nx\n\nx\n\nx\n',
    );
  });
});

describe('content with a long stretch showing nothing', () => {
  const nbsp = '\u00a0';
  it(`converts with ${MAX_BLANK_RUN} no-break spaces in a row and keeps its HTML with one more`, () => {
    const at = `<p>a${nbsp.repeat(MAX_BLANK_RUN)}b</p>\n`;
    expect(measureHtml(at, CONVERT_LIMITS)).toBeUndefined();
    expect(contentToMarkdown(at)).toBe(`a${nbsp.repeat(MAX_BLANK_RUN)}b`);
    const over = `<p>a${nbsp.repeat(MAX_BLANK_RUN + 1)}b</p>\n`;
    expect(measureHtml(over, CONVERT_LIMITS)).toBe('blank');
    expect(pull(over)).toBe(asHtml(over));
  });

  it('counts the white space turndown may write, until a character shows', () => {
    const limits = { ...CONVERT_LIMITS, blankRun: 12 };
    const measure = (html: string) => measureHtml(html, limits);
    // A <br> is two spaces and a line break: 4 of them are 12.
    expect(measure('a<br><br><br><br>b')).toBeUndefined();
    expect(measure('a<br><br><br><br> b')).toBe('blank');
    // White space in text collapses outside <pre>; inside it counts each character, and the block 2.
    expect(measure(`a${' \n\t'.repeat(100)}b`)).toBeUndefined();
    expect(measure(`<pre>x${' '.repeat(10)}</pre>`)).toBeUndefined();
    expect(measure(`<pre>x${' '.repeat(11)}</pre>`)).toBe('blank');
    // No-break spaces and character references do not collapse.
    expect(measure(`a&nbsp;&#160;&#xa0;${'\u00a0'.repeat(9)}b`)).toBeUndefined();
    expect(measure(`a&nbsp;&#160;&#xa0;${'\u00a0'.repeat(10)}b`)).toBe('blank');
    // A line break in a list item is indented by its marker: `-   ` is 4, a numbered one up to 26.
    expect(measure('<ul><li>a<br><br>b')).toBe('blank'); // 2 × (3 + 4)
    // Out of the list, line breaks are not indented (12); the list's start counts 2 + 2 × (1 + 4) + 3.
    expect(htmlShape('a<ul><li>b</li></ul>c<br><br><br><br>d').blankRun).toBe(15);
    expect(measure('<ol><li>a<br>b')).toBe('blank'); // 3 + 26
    // A tag's own white space is a run of its own: an attribute shown in a kept element's HTML.
    expect(measure(`a<i title="${' '.repeat(13)}">b`)).toBe('blank');
    expect(measure(`a<i title="${'x '.repeat(50)}">b`)).toBeUndefined();
    // Inline tags and comments write nothing; a stretch ends at any character that shows.
    expect(measure(`a${'<b><i></i></b>'.repeat(100)}<!-- ${' '.repeat(100)} -->b`)).toBeUndefined();
    expect(measure(`${'<br><br>x'.repeat(100)}`)).toBeUndefined();
  });

  it('counts from above: turndown never writes a longer run than measured (random content)', () => {
    const piece = fc.constantFrom(...BLANKS, ...SOUP);
    const longestRun = (text: string): number =>
      Math.max(0, ...[...text.matchAll(/\s+/g)].map((m) => m[0].length));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.integer({ min: 1, max: 40 }), (pieces, blankRun) => {
        const html = `x${pieces.join('')}x`;
        const verdict = measureHtml(html, { ...CONVERT_LIMITS, blankRun });
        if (verdict === undefined) expect(longestRun(htmlToMarkdown(html))).toBeLessThanOrEqual(blankRun);
      }),
      { numRuns: 3_000 },
    );
  });

  it('a gallery of 200 images, as the block editor saves it, still converts', () => {
    const image = (i: number) =>
      `<!-- wp:image {"id":${i}} -->\n<figure class="wp-block-image size-large"><img src="https://x.test/${i}.jpg" alt="" class="wp-image-${i}"/></figure>\n<!-- /wp:image -->\n\n`;
    const gallery = `<!-- wp:gallery {"linkTo":"none"} -->\n<figure class="wp-block-gallery has-nested-images columns-default is-cropped">${Array.from({ length: 200 }, (_, i) => image(i)).join('')}</figure>\n<!-- /wp:gallery -->`;
    expect(measureHtml(gallery, CONVERT_LIMITS)).toBeUndefined();
  });
});

/** The DOM turndown converts: its own parser (domino), its own wrapper element. */
interface DomNode {
  nodeType: number;
  childNodes: ArrayLike<DomNode>;
}
const require = createRequire(import.meta.url);
const domino = require('@mixmark-io/domino') as {
  createDocument(html: string): { getElementById(id: string): DomNode };
};
/** How deep the parser nests `html`'s elements, and how many it makes, as turndown sees them. */
function parsed(html: string): { depth: number; elements: number } {
  const root = domino
    .createDocument(`<x-turndown id="turndown-root">${html}</x-turndown>`)
    .getElementById('turndown-root');
  let depth = 0;
  let elements = 0;
  const stack: [DomNode, number][] = [[root, 0]];
  while (stack.length) {
    const [node, level] = stack.pop()!;
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType !== 1) continue;
      elements++;
      depth = Math.max(depth, level + 1);
      stack.push([child, level + 1]);
    }
  }
  return { depth, elements };
}

describe('content nested deeper than it looks', () => {
  it('counts from above what the parser builds (random tag soup, against turndown\u2019s own parser)', () => {
    const piece = fc.constantFrom(...SOUP);
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const html = pieces.join('');
        const shape = htmlShape(html);
        const dom = parsed(html);
        expect(shape.depth).toBeGreaterThanOrEqual(dom.depth);
        expect(shape.elements).toBeGreaterThanOrEqual(dom.elements);
      }),
      { numRuns: 5_000 },
    );
  });

  it('`/>` opens an HTML element (the parser ignores it) and closes one only in SVG and MathML', () => {
    // 5,000 `<span/>` nest 5,000 deep: converting them exhausted the stack.
    expect(contentToMarkdown(`${'<span/>'.repeat(5_000)}x`)).toBeUndefined();
    const svg = `<svg viewBox="0 0 9 9">${'<path d="M0 0"/>'.repeat(100)}</svg><math/><svg/>`;
    expect(measureHtml(`<p>${svg}</p>`, CONVERT_LIMITS)).toBeUndefined();
  });
});

describe('Markdown that would take marked too long to read back', () => {
  it('estimates the reference-link search: brackets times the length of their stretch', () => {
    expect(readBackWork('')).toBe(0);
    expect(readBackWork('plain words, no brackets')).toBe(0);
    expect(readBackWork('[a] [b]')).toBe(14); // 2 × 7
    expect(readBackWork('[a]\n\n[b]')).toBe(4 + 4); // each stretch alone (its line break counted)
    expect(readBackWork('-   [a]\n-   [b]')).toBe(8 + 7); // a bullet starts a stretch
    expect(readBackWork('[a]\n    - [b]')).toBe(2 * 13); // indented four: the same text
  });

  it('estimates the e-mail look-ahead: where text ends inside a run, times its length', () => {
    expect(readBackWork('**a**b')).toBe(4 * 6);
    expect(readBackWork('**a** b')).toBe(4 * 5);
    expect(readBackWork('see http://x.test and www.example.com')).toBe(1 * 4 + 1 * 15);
  });

  it('keeps the HTML of a paragraph of 20,000 links, and converts a list of 2,000', () => {
    const links = `<p>${'<a href="https://x.test/">a</a> '.repeat(4_000).trim()}</p>\n`;
    const markdown = contentToMarkdown(links)!;
    expect(readBackWork(markdown)).toBeGreaterThan(MAX_READ_BACK_WORK);
    expect(pulledBody(links, markdown)).toEqual({ field: { name: 'body', value: 'html' }, text: links });
    const list = `<ul>\n${'<li><a href="https://x.test/">a</a></li>\n'.repeat(2_000)}</ul>\n`;
    const listMarkdown = contentToMarkdown(list)!;
    expect(readBackWork(listMarkdown)).toBeLessThan(MAX_READ_BACK_WORK / 100);
  });
});

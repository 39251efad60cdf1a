// Site content is written by any Author: converting it and scanning it with regexes takes time linear in its
// length, whatever it holds. Each hostile shape is timed at n and 8n characters (three doublings); linear
// work grows about ×8, work quadratic in the length ×64. The bound (×20) only tells the two apart, on any
// machine, with room for a busy one's noise either way: no time is asserted. The block comment scanner and the marker's placement are also checked equal to the regexes
// they replace, on random content.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findComments, withoutRanges } from '../../src/publishing/block-comments.js';
import { withMarker } from '../../src/publishing/identity.js';
import { nestsDeeperThan } from '../../src/lib/html-depth.js';
import { withoutMarker } from '../../src/publishing/pull/files.js';
import { contentToMarkdown } from '../../src/publishing/pull/pull-post.js';
import { pulledBody } from '../../src/publishing/pull/pull-body.js';
import { wordpressMarked } from '../../src/publishing/markdown-wp.js';
import { blogToMarkdown } from '../../src/blogs/markdown-export.js';
import type { Blog } from '../../src/schemas/blog.js';
import { parseMarkdownPost } from '../../src/publishing/sources/markdown.js';

/** What wp pull makes of a post's content: its Markdown, checked to read back as the same HTML. */
const postBody = (html: string): unknown => pulledBody(html, contentToMarkdown(html));

/**
 * Milliseconds per call of `run(input)`: calls repeated for at least 40 ms, the best of five rounds (a busy
 * machine, the rest of the suite running beside it, slows a round now and then, never all five).
 */
function msPerCall<T>(run: (input: T) => unknown, input: T): number {
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    let calls = 0;
    const started = performance.now();
    let elapsed = 0;
    do {
      run(input);
      calls++;
      elapsed = performance.now() - started;
    } while (elapsed < 40);
    best = Math.min(best, elapsed / calls);
  }
  return best;
}

/**
 * How much longer `run` takes on `make(8 × size)` than on `make(size)` (linear: about 8; quadratic: about
 * 64). The inputs are made before the clock starts.
 */
function growthOver8x<T>(make: (size: number) => T, run: (input: T) => unknown, size: number): number {
  const small = make(size);
  const large = make(8 * size);
  run(small); // compiled and warm before it is timed
  return msPerCall(run, large) / msPerCall(run, small);
}

/** Below it, linear; quadratic work on three doublings is ×64. */
const LINEAR = 20;

// Flat strings (not ropes): what a response body is.
const repeated = (unit: string) => (size: number) =>
  Buffer.from(unit.repeat(Math.ceil(size / unit.length))).toString();

describe('wp pull converts hostile content in linear time', () => {
  for (const unit of [
    '<!-- wp:paragraph ',
    '<!-- wp:x {"a":1} ',
    '<!-- /wp:a ',
    '<!--more ',
    '<!-- wp:a <!-- /wp:b ',
    '<!-- blogctl:v1 ',
  ]) {
    it(`unclosed comments: ${JSON.stringify(unit)}`, () => {
      const make = repeated(unit);
      expect(growthOver8x(make, contentToMarkdown, 100_000)).toBeLessThan(LINEAR);
    });
  }

  // Shallow but large: elements nested up to the converter's limit (40), repeated; many unclosed tags;
  // long runs of `<`. The depth check, turndown and the round trip through marked (pull-body.ts) all run.
  const nested = (open: string, close: string, depth: number) =>
    repeated(`${open.repeat(depth)}x${close.repeat(depth)}`);
  for (const [name, make] of [
    ['divs nested 40 deep', nested('<div>', '</div>', 40)],
    ['lists nested 20 deep', nested('<ul><li>', '</li></ul>', 20)],
    ['blockquotes nested 40 deep', nested('<blockquote>', '</blockquote>', 40)],
    ['bold nested 40 deep', nested('<b>', '</b>', 40)],
    ['unclosed paragraphs', repeated('<p>')],
    ['unclosed list items', repeated('<li>a')],
    ['a run of <', repeated('<')],
    ['paragraphs', repeated('<p>word word</p>\n')],
    ['line breaks', repeated('a<br>')],
    ['brackets and emphasis', repeated('[a *b_ ')],
    // marked searches from each `[` for a reference link, and from each piece of a word for an `@`.
    ['links in one paragraph', repeated('<a href=x>aaaaaaaaaa</a>')],
    ['bold inside one long word', repeated('<b>a</b>b')],
  ] as const) {
    it(`shallow but large: ${name}`, () => {
      expect(growthOver8x(make, postBody, 12_500)).toBeLessThan(LINEAR);
    });
  }

  // turndown's last step, `/[\t\r\n\s]+$/`, is tried from each white space character of a run to its end.
  for (const [name, make] of [
    [
      'a <pre> of spaces before a word',
      (n: number) => Buffer.from(`<pre>${' '.repeat(n)}x</pre>`).toString(),
    ],
    ['no-break spaces before a word', (n: number) => Buffer.from(`<p>${'\u00a0'.repeat(n)}x</p>`).toString()],
    ['line breaks before a word', (n: number) => Buffer.from(`${'<br>'.repeat(n / 4)}x`).toString()],
  ] as const) {
    it(`a long blank run: ${name}`, () => {
      expect(growthOver8x(make, postBody, 5_000)).toBeLessThan(LINEAR);
    });
  }

  it('a 400 KB post of unclosed block comments converts to what it says', () => {
    const html = repeated('<!-- wp:paragraph ')(400_000);
    // Unclosed, the comment runs to the end: there is nothing to show.
    expect(contentToMarkdown(html)).toBe('');
  });
});

describe("the marker goes into a post's last element in linear time", () => {
  const marker = { ns: '0'.repeat(16), key: '1'.repeat(24), sums: { title: '2'.repeat(8) } };
  it('after a long run of spaces, and after many closing tags', () => {
    const spaces = (n: number): string => Buffer.from(`<p>a${' '.repeat(n)}b</p>`).toString();
    expect(growthOver8x(spaces, (html) => withMarker(html, marker), 100_000)).toBeLessThan(LINEAR);
    const closing = (n: number): string => Buffer.from(`${'</a>'.repeat(n / 4)}x`).toString();
    expect(growthOver8x(closing, (html) => withMarker(html, marker), 100_000)).toBeLessThan(LINEAR);
  });

  it('after many lone shortcodes and embed URLs, or block tags with none', () => {
    const lone = (n: number): string =>
      Buffer.from(`<p>a</p>${'[x]\n\nhttps://a.b/c\n<hr>[y]\n'.repeat(n / 24)}`).toString();
    expect(growthOver8x(lone, (html) => withMarker(html, marker), 100_000)).toBeLessThan(LINEAR);
    const tags = (n: number): string => Buffer.from(`${'<p [x]\n'.repeat(n / 8)}[x]`).toString();
    expect(growthOver8x(tags, (html) => withMarker(html, marker), 100_000)).toBeLessThan(LINEAR);
  });

  it('lands where the regexes put it, when the content ends with no lone shortcode or URL', () => {
    const before = (html: string): number => {
      const body = html.replace(/\s+$/, '');
      const closing = /(?:<\/[a-zA-Z][a-zA-Z0-9-]*>\s*)+$/.exec(body);
      return closing ? closing.index : body.length;
    };
    const piece = fc.constantFrom(
      '</p>',
      '</div>',
      '</h2>',
      '</9>',
      '</a-1>',
      '<p>',
      ' ',
      '\n',
      'x',
      '>',
      '/',
      '</',
      '<',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const html = pieces.join('');
        const at = before(html);
        expect(withMarker(html, marker)).toBe(
          `${html.slice(0, at)}<!-- blogctl:v1 ns=${marker.ns} key=${marker.key} sums=title.${marker.sums.title} -->${html.slice(at)}`,
        );
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the block comment scanner finds what the regexes found', () => {
  const SELF_CLOSING =
    /<!--\s+wp:[a-z][a-z0-9_-]*(?:\/[a-z][a-z0-9_-]*)?\s(?:(?:(?!-->)[\s\S])*?\s)?\/-->|<!--(?:more(?:[ \t][^\n>]*?)?|nextpage|noteaser)-->/g;
  const DELIMITER = /<!--\s+\/?wp:[a-z][a-z0-9_-]*(?:\/[a-z][a-z0-9_-]*)?\s(?:(?:(?!-->)[\s\S])*?\s)?-->/g;
  const ranges = (re: RegExp, text: string): [number, number][] =>
    [...text.matchAll(re)].map((m) => [m.index, m.index + m[0].length]);
  const piece = fc.constantFrom(
    '<!--',
    '-->',
    '<!-- ',
    ' ',
    '\t',
    '\n',
    '\u00a0',
    'wp:',
    '/wp:',
    'a',
    'core/',
    'x1_-',
    '/',
    '/-->',
    ' /-->',
    '{"a":"-->"}',
    'more',
    'nextpage',
    'noteaser',
    '>',
    '-',
    '<p>',
    '9',
    'A',
  );
  it('on random content', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const text = pieces.join('');
        expect(findComments(text, 'self-closing')).toEqual(ranges(SELF_CLOSING, text));
        expect(findComments(text, 'delimiter')).toEqual(ranges(DELIMITER, text));
        expect(withoutRanges(text, findComments(text, 'delimiter'))).toBe(text.replace(DELIMITER, ''));
      }),
      { numRuns: 20_000 },
    );
  });

  it('on the shapes WordPress saves', () => {
    const post =
      '<!-- wp:paragraph -->\n<p>a</p>\n<!-- /wp:paragraph -->\n<!-- wp:latest-posts {"postsToShow":3} /-->\n<!--more Read on-->\n<!-- wp:core/group {"a":{"b":1}} -->x<!-- /wp:core/group -->\n<!--nextpage-->';
    expect(findComments(post, 'self-closing')).toEqual(ranges(SELF_CLOSING, post));
    expect(findComments(post, 'self-closing')).toHaveLength(3);
    expect(findComments(post, 'delimiter')).toEqual(ranges(DELIMITER, post));
    expect(findComments(post, 'delimiter')).toHaveLength(4);
  });
});

describe('content nested too deep for the converter', () => {
  it('is told in one pass, wherever the depth is passed, and converts nothing', () => {
    // The limit passed at once, and only after a long flat stretch: both linear, and nothing converted.
    const deepAtOnce = (n: number): string => Buffer.from('<div>'.repeat(n / 5)).toString();
    const deepAtTheEnd = (n: number): string =>
      Buffer.from(`${'<p>flat</p>'.repeat(n / 11)}${'<div>'.repeat(41)}x`).toString();
    const refused = (html: string): void => {
      expect(contentToMarkdown(html)).toBeUndefined();
    };
    expect(growthOver8x(deepAtOnce, refused, 50_000)).toBeLessThan(LINEAR);
    expect(growthOver8x(deepAtTheEnd, refused, 50_000)).toBeLessThan(LINEAR);
  });

  it('blog show --markdown keeps it as the service\u2019s HTML (body: html), in linear time', () => {
    const deep = `${'<div>'.repeat(5_000)}x${'</div>'.repeat(5_000)}`;
    const file = blogToMarkdown({ _id: 'b1', title: 'Deep', content: deep } as Blog);
    expect(file).toBe(`---\ntitle: "Deep"\nbody: "html"\nblog_id: "b1"\n---\n\n${deep}\n`);
    // Read back (wp publish --from-blog, a saved file) as the same HTML.
    expect(parseMarkdownPost(file, { path: 'deep.md' }).html.trim()).toBe(deep);
    const nested = (n: number): Blog =>
      ({
        _id: 'b1',
        title: 't',
        content: repeated(`${'<div>'.repeat(40)}x${'</div>'.repeat(40)}`)(n),
      }) as Blog;
    expect(growthOver8x(nested, (blog) => blogToMarkdown(blog), 12_500)).toBeLessThan(LINEAR);
  });

  it('is refused by name, in time linear in its length, whatever nests', () => {
    for (const [open, close] of [
      ['<ul><li>', '</li></ul>'],
      ['<div>', '</div>'],
      ['<b><i>', '</i></b>'],
      ['<blockquote>', '</blockquote>'],
    ]) {
      const html = `${open!.repeat(5_000)}x${close!.repeat(5_000)}`;
      expect(contentToMarkdown(html)).toBeUndefined();
    }
  });

  it('counts as the parser nests: paragraphs and list items do not hold themselves, void elements nothing', () => {
    expect(nestsDeeperThan('<p>a<p>b<p>c<br><img src=x><hr>', 2)).toBe(false);
    expect(nestsDeeperThan('<ul><li>a<li>b<li>c</ul>', 2)).toBe(false);
    expect(nestsDeeperThan('<div><div><div>x</div></div></div>', 2)).toBe(true);
    expect(nestsDeeperThan('<div></div><div></div><div></div>', 1)).toBe(false);
    expect(nestsDeeperThan('<script>"<div><div><div>"</script>', 1)).toBe(false);
    expect(nestsDeeperThan('<!-- <div><div><div> -->', 1)).toBe(false);
    // A post as people write them converts as before.
    expect(contentToMarkdown('<ul><li>a<ul><li>b</li></ul></li></ul>')).toBe('-   a\n    -   b');
  });
});

describe('the Markdown reading ends paragraphs where it did before its searches were bounded', () => {
  // The reference: the same marked instance with the searches it had, over the whole rest of the content.
  const reference = wordpressMarked();
  const extensions = reference.defaults.extensions!;
  extensions.startBlock = [
    (src: string) => {
      const at = src.search(/(?:^|\n) {0,3}https?:\/\//);
      return at < 0 ? undefined : at;
    },
  ];
  extensions.startInline = [
    (src: string) => {
      const at = src.indexOf('[');
      return at < 0 ? undefined : at;
    },
  ];
  const marked = wordpressMarked();
  const piece = fc.constantFrom(
    '\n',
    '\n\n',
    '  \n',
    '\t\n',
    ' ',
    'a',
    'word',
    'http://example.com/x',
    'https://example.com/',
    '   https://a.test/',
    '    http://code.test/',
    '# ',
    '> ',
    '- ',
    '1. ',
    '    ',
    '[',
    ']',
    '[gallery ids="1"]',
    '[/caption]',
    '[embed]https://v.test/[/embed]',
    '[a]: https://ref.test/',
    '[a]',
    '(',
    ')',
    '*',
    '_',
    '`',
    '<div>',
    '</div>',
    '<b>',
    '\\',
    '~~',
    'www.example.com',
  );
  it('on random Markdown', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const md = pieces.join('');
        expect(marked.parser(marked.lexer(md))).toBe(reference.parser(reference.lexer(md)));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe("wp pull takes blogctl's markers out of a post in linear time", () => {
  it('many unclosed markers', () => {
    for (const unit of ['<!-- blogctl:v1 ', '\n<!-- blogctl:v1 ns=0123 ']) {
      expect(growthOver8x(repeated(unit), withoutMarker, 25_000)).toBeLessThan(LINEAR);
    }
  });

  it('removes what the regex removed', () => {
    const MARKER = /\n?<!-- blogctl:v1 [^>]*?-->/g;
    const piece = fc.constantFrom(
      '<!-- blogctl:v1 ',
      '<!-- blogctl:v1 ns=1 -->',
      '-->',
      '--',
      '-',
      '>',
      '\n',
      ' ',
      'x',
      '<!--',
      '<p>',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const text = pieces.join('');
        expect(withoutMarker(text)).toBe(text.replace(MARKER, ''));
      }),
      { numRuns: 20_000 },
    );
  });
});

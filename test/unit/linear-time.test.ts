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
import { ContentTooDeepError, contentToMarkdown } from '../../src/publishing/pull/pull-post.js';

/** Milliseconds per call of `run(input)`: calls repeated for at least 40 ms, the best of three rounds. */
function msPerCall<T>(run: (input: T) => unknown, input: T): number {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
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
  it('is refused by name, in time linear in its length, whatever nests', () => {
    for (const [open, close] of [
      ['<ul><li>', '</li></ul>'],
      ['<div>', '</div>'],
      ['<b><i>', '</i></b>'],
      ['<blockquote>', '</blockquote>'],
    ]) {
      const html = `${open!.repeat(5_000)}x${close!.repeat(5_000)}`;
      expect(() => contentToMarkdown(html)).toThrow(ContentTooDeepError);
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

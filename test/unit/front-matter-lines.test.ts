// Where each front matter field is written, from the YAML parser's positions, so that an error names
// `file:line`.
import { describe, expect, it } from 'vitest';
import { readFrontMatter } from '../../src/publishing/sources/front-matter.js';
import { fieldPlace, frontMatterName } from '../../src/publishing/sources/front-matter-lines.js';

/** The line of each top-level key, as parseMarkdownPost reads them. */
const linesOf = (text: string): Record<string, number> => readFrontMatter(text, 'a.md').lines;

describe('front matter lines', () => {
  it('places top-level YAML keys at their file line, the opening --- being line 1', () => {
    const text = [
      '---', // 1
      '# a comment: not a key', // 2
      'title: "Hello: world"', // 3
      'excerpt: |', // 4
      '  status: not a key (in a block scalar)', // 5
      '  more text', // 6
      '', // 7
      '"status": draft', // 8
      "'it''s': 1", // 9
      'categories:', // 10
      '  - News', // 11
      '  - slug: x', // 12
      'meta:', // 13
      '  date: nested, not a key', // 14
      'date: 2030-12-24 # a comment', // 15
      'http://x: a plain key with a colon', // 16
      '? |', // 17
      '  explicit', // 18
      ': a key YAML reads as "explicit\\n"', // 19
      '---',
      'body: not front matter',
    ].join('\n');
    expect(linesOf(text)).toEqual({
      title: 3,
      excerpt: 4,
      status: 8,
      "it's": 9,
      categories: 10,
      meta: 13,
      date: 15,
      'http://x': 16,
      'explicit\n': 17,
    });
  });

  it('places the keys of JSON front matter, not the nested ones', () => {
    const text =
      '---json\n{\n  "title": "A \\"quoted\\": b",\n  "meta": {"status": 1},\n\n  "status":\n "draft"\n}\n---\n';
    expect(linesOf(text)).toEqual({ title: 3, meta: 4, status: 6 });
  });

  it('a key written twice is an error at its second line', () => {
    expect(() => linesOf('---\na: 1\nb: 2\na: 3\n---\n')).toThrow(
      'a.md: front matter could not be read: a key written twice at line 4, column 1',
    );
  });
});

describe('frontMatterName and fieldPlace', () => {
  it('names a field by its line when known, and finds the place back', () => {
    expect(frontMatterName('posts/a.md', 'status', 3)).toBe('posts/a.md:3: status');
    expect(frontMatterName('posts/a.md', 'status', undefined)).toBe('posts/a.md: front matter "status"');
    expect(fieldPlace('posts/a.md:3: tags', 'tags')).toBe('posts/a.md:3');
    expect(fieldPlace('posts/a.md: front matter "tags"', 'tags')).toBeUndefined();
    expect(fieldPlace('--tag', 'tags')).toBeUndefined();
    expect(fieldPlace('blogctl.yml:4: defaults.tags', 'tags')).toBe('blogctl.yml:4');
    expect(fieldPlace(undefined, 'tags')).toBeUndefined();
  });
});

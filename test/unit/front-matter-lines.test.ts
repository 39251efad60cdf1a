// Where each front matter field is written: the scan of top-level keys that lets an error name `file:line`.
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import {
  fieldPlace,
  frontMatterLines,
  frontMatterName,
} from '../../src/publishing/sources/front-matter-lines.js';

/** The lines gray-matter's block gives, as parseMarkdownPost reads them. */
const linesOf = (text: string): Record<string, number> => {
  const file = matter(text, {}) as unknown as { matter: string; language: string };
  return Object.fromEntries(frontMatterLines(file.matter, file.language));
};

describe('frontMatterLines', () => {
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
    });
  });

  it('places the keys of JSON front matter, not the nested ones', () => {
    const text =
      '---json\n{\n  "title": "A \\"quoted\\": b",\n  "meta": {"status": 1},\n\n  "status":\n "draft"\n}\n---\n';
    expect(linesOf(text)).toEqual({ title: 3, meta: 4, status: 6 });
  });

  it('the first of a key written twice', () => {
    expect(frontMatterLines('\na: 1\nb: 2\na: 3', 'yaml').get('a')).toBe(2);
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

import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { parseMarkdownPost } from '../../src/publishing/sources/markdown.js';
import { isMarkdownPath } from '../../src/publishing/sources/markdown-path.js';

const parse = (text: string, path = '/posts/hello.md') => parseMarkdownPost(text, { path });

function usageMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error('expected a UsageError');
}

describe('parseMarkdownPost', () => {
  it('fills every front matter field and renders GitHub-flavoured Markdown', () => {
    const post = parse(`---
title: Hello & welcome
slug: hello-world
status: Future
date: 2026-12-01T09:30:00+02:00
excerpt: Short one
categories: [News, 7]
tags: espresso, home brewing, 12
featured_image: ../img/cover.png
format: aside
sticky: true
template: blank
meta:
  blogctl_source: hello.md
  count: 3
comment_status: closed
ping_status: open
author: "3"
layout: post
---
Some ~~old~~ **bold** text.

| a | b |
| - | - |
| 1 | 2 |

- [x] done
`);
    expect(post.fields).toEqual({
      title: 'Hello & welcome',
      slug: 'hello-world',
      status: 'future',
      date: '2026-12-01T09:30:00+02:00',
      excerpt: 'Short one',
      categories: ['News', 7],
      tags: ['espresso', 'home brewing', '12'],
      featured_image: resolve('/img/cover.png'),
      format: 'aside',
      sticky: true,
      template: 'blank',
      meta: { blogctl_source: 'hello.md', count: 3 },
      comment_status: 'closed',
      ping_status: 'open',
      author: 3,
    });
    expect(post.ignoredKeys).toEqual(['layout']);
    expect(post.html).toContain('<del>old</del>');
    expect(post.html).toContain('<strong>bold</strong>');
    expect(post.html).toContain('<table>');
    expect(post.html).toContain('type="checkbox"');
  });

  it('keeps dates as written: no time-zone shift from YAML timestamps', () => {
    for (const date of [
      '2026-12-01T09:30:00',
      '2026-12-01 09:30:00',
      '2026-12-01T09:30:00Z',
      '2026-12-01T09:30:00.5-05:00',
      '2026-12-01',
    ]) {
      expect(parse(`---\ndate: ${date}   # a comment\n---\nx`).fields.date).toBe(date);
      expect(parse(`---\ndate: "${date}"\n---\nx`).fields.date).toBe(date);
    }
  });

  it('reads YAML 1.2: no timestamps (a date in meta stays as written), no tags that make objects', () => {
    const post = parse('---\nmeta: {when: 2026-12-01, at: 2026-12-01T09:00:00+02:00}\n---\nx');
    expect(post.fields.meta).toEqual({ when: '2026-12-01', at: '2026-12-01T09:00:00+02:00' });
    expect(usageMessage(() => parse('---\nmeta: !!binary aGVsbG8=\n---\n'))).toBe(
      '/posts/hello.md: front matter could not be read: a tag blogctl does not read (only plain values are) at line 2, column 7',
    );
    // Merge keys are read; `yes` is text (YAML 1.1 read it as true).
    const merged = parse('---\nbase: &b {x: 1}\nmeta:\n  <<: *b\n  y: yes\n---\n');
    expect(merged.fields.meta).toEqual({ x: 1, y: 'yes' });
  });

  it('keeps text fields YAML would read as numbers or booleans', () => {
    const post = parse(`---\ntitle: 1984\nslug: 007\nexcerpt: true\n---\nx`);
    expect(post.fields).toMatchObject({ title: '1984', slug: '007', excerpt: 'true' });
  });

  it('takes the title from the first # heading and removes it from the body', () => {
    const post = parse(
      'Intro line.\n\n# Hello *world* & `co`\n\nBody [link][1].\n\n# Second\n\n[1]: https://example.com\n',
    );
    expect(post.fields.title).toBe('Hello world & co');
    expect(post.html).not.toContain('<h1>Hello');
    expect(post.html).toContain('<h1>Second</h1>');
    expect(post.html).toContain('<p>Intro line.</p>');
    expect(post.html).toContain('<a href="https://example.com">link</a>');
  });

  it('keeps the heading when front matter has a title', () => {
    const post = parse('---\ntitle: From YAML\n---\n# Heading\n\ntext');
    expect(post.fields.title).toBe('From YAML');
    expect(post.html).toContain('<h1>Heading</h1>');
  });

  it('works without front matter or heading', () => {
    const post = parse('just *text*');
    expect(post.fields).toEqual({});
    expect(post.html.trim()).toBe('<p>just <em>text</em></p>');
  });

  it('accepts CRLF line endings and a byte order mark', () => {
    const post = parse('\uFEFF---\r\ntitle: Windows\r\ntags: a,b\r\n---\r\nbody\r\n');
    expect(post.fields).toEqual({ title: 'Windows', tags: ['a', 'b'] });
    expect(post.html.trim()).toBe('<p>body</p>');
  });

  it('resolves featured_image against the file, or the working directory for stdin', () => {
    expect(parse('---\nfeatured_image: cover.png\n---\n', 'posts/a.md').fields.featured_image).toBe(
      resolve('posts/cover.png'),
    );
    expect(
      parseMarkdownPost('---\nfeatured_image: c.png\n---\n', { path: '-', cwd: '/tmp/x' }).fields
        .featured_image,
    ).toBe(resolve('/tmp/x/c.png'));
    expect(parse('---\nfeatured_image: /abs/c.png\n---\n').fields.featured_image).toBe('/abs/c.png');
  });

  it('names the file and the key of a bad value', () => {
    expect(usageMessage(() => parse('---\nstatus: published\n---\n'))).toBe(
      '/posts/hello.md:2: status: must be one of publish, draft, pending, private, future (got "published")',
    );
    expect(usageMessage(() => parse('---\nsticky: yes please\n---\n'))).toMatch(
      /hello\.md:2: sticky: expected true or false/,
    );
    expect(usageMessage(() => parse('---\nauthor: admin\n---\n'))).toMatch(
      /hello\.md:2: author: expected a user id/,
    );
    expect(usageMessage(() => parse('---\nmeta: [1]\n---\n'))).toMatch(
      /hello\.md:2: meta: expected a mapping/,
    );
    expect(usageMessage(() => parse('---\ntags: {a: 1}\n---\n'))).toMatch(
      /hello\.md:2: tags: expected a list/,
    );
    expect(usageMessage(() => parse('---\ncategories: [[1]]\n---\n'))).toMatch(
      /hello\.md:2: categories: each item/,
    );
    expect(usageMessage(() => parse('---\ntitle: [a]\n---\n'))).toMatch(
      /hello\.md:2: title: expected text, got a list/,
    );
    expect(usageMessage(() => parse('---\nformat: weird\n---\n'))).toMatch(
      /hello\.md:2: format: must be one of standard, aside/,
    );
    expect(usageMessage(() => parse('---\nfeatured_image: https://x/y.png\n---\n'))).toMatch(
      /URLs are not downloaded/,
    );
    expect(usageMessage(() => parse('---\ndate: ""\n---\n'))).toMatch(/hello\.md:2: date: must not be empty/);
    // Every bad field of the file, each at its line (the opening `---` is line 1).
    expect(() => parse('---\ntitle: T\nstatus: nope\n# note\nsticky: 1\n---\n')).toThrow(
      expect.objectContaining({
        context: {
          inputs: [
            expect.stringMatching(/^\/posts\/hello\.md:3: status: /),
            expect.stringMatching(/^\/posts\/hello\.md:5: sticky: /),
          ],
        },
      }),
    );
  });

  it('reports broken YAML as a usage error naming the file', () => {
    expect(usageMessage(() => parse('---\ntitle: [a\n---\nx'))).toMatch(
      /^\/posts\/hello\.md: front matter could not be read: /,
    );
    expect(usageMessage(() => parseMarkdownPost('---\n- a\n---\n', { path: '-' }))).toBe(
      '<stdin>: front matter must be a mapping of keys to values',
    );
  });

  it('says where front matter breaks without quoting it (it may hold a secret)', () => {
    expect(usageMessage(() => parse('---\ntitle: x\n  bad: indent\n---\n'))).toBe(
      '/posts/hello.md: front matter could not be read: Nested mappings are not allowed in compact mappings at line 2, column 8',
    );
    // The YAML library quotes the tag or alias in its reason: a reason of blogctl's own, and the position.
    for (const text of ['---\nmeta: !<tag:hunter2> x\n---\n', '---\nmeta: *hunter2\n---\n']) {
      const message = usageMessage(() => parse(text));
      expect(message).toMatch(
        /^\/posts\/hello\.md: front matter could not be read: an? [a-z ()]+ at line 2, column 7$/,
      );
      expect(message).not.toContain('hunter');
    }
    expect(usageMessage(() => parse('---json\n{"title": "x",\n "password": hunter2}\n---\n'))).toBe(
      '/posts/hello.md: the JSON front matter is not valid JSON (an unexpected character at line 3, column 14)',
    );
  });

  it('never evaluates JavaScript front matter', () => {
    const marker = '__blogctl_front_matter_ran';
    expect(usageMessage(() => parse(`---js\n{ title: (globalThis.${marker} = 'ran') }\n---\nbody`))).toMatch(
      /JavaScript front matter is not supported/,
    );
    expect((globalThis as Record<string, unknown>)[marker]).toBeUndefined();
  });

  it('ignores null values', () => {
    expect(parse('---\ntitle:\nslug: ~\n---\n# T\n').fields).toEqual({ title: 'T' });
  });
});

describe('isMarkdownPath', () => {
  it('recognises .md and .markdown in any case', () => {
    expect(isMarkdownPath('a.md')).toBe(true);
    expect(isMarkdownPath('dir/A.MARKDOWN')).toBe(true);
    expect(isMarkdownPath('a.html')).toBe(false);
    expect(isMarkdownPath('md')).toBe(false);
  });
});

// The Markdown plan: any action as a group, extra row fields shown, long plans folded and kept under
// GitHub's comment size; workflow-command escaping.
import { describe, expect, it } from 'vitest';
import {
  COMMENT_LIMIT,
  renderMarkdown,
  type ReportRow,
} from '../../src/commands/wp/publish/markdown-report.js';
import { escapeData, escapeProperty, formatAnnotation } from '../../src/output/annotations.js';

const row = (
  source: string,
  action: string,
  extra: Partial<ReportRow> & Record<string, unknown> = {},
): ReportRow => ({ source, action, id: null, link: null, status: null, ...extra }) as ReportRow;

describe('renderMarkdown', () => {
  it('renders an action it does not know like any other, with the row’s other fields', () => {
    const md = renderMarkdown(
      [
        row('posts/new.md', 'move', { id: '7', link: 'https://x.test/a/', from: 'posts/old.md' }),
        row('posts/gone.md', 'orphaned', { id: '9', edited: ['title', 'content'] }),
        row('posts/a.md', 'unchanged', { id: '1' }),
        row('posts/b.md', 'conflict', { id: '2', error: 'slug "x" | held' }),
      ],
      { dryRun: true },
    );
    const order = [
      '#### conflict (1)',
      '#### move (1)',
      '#### orphaned (1)',
      '<details><summary>unchanged (1)',
    ];
    expect(order.map((h) => md.indexOf(h))).toEqual(
      [...order.map((h) => md.indexOf(h))].sort((a, b) => a - b),
    );
    expect(md).toContain('| posts/new.md | [7](https://x.test/a/) |  | moved from: posts/old.md |');
    expect(md).toContain('| posts/gone.md | 9 |  | edited on site: title, content |');
    expect(md).toContain('**error:** slug "x" \\| held');
  });

  it('folds a long group and stays under the comment limit, saying how many rows are left out', () => {
    const rows = Array.from({ length: 3000 }, (_, i) =>
      row(`posts/${'long-name-'.repeat(3)}${i}.md`, i % 2 ? 'update' : 'unchanged', {
        id: String(i),
        link: `https://blog.example.com/${'slug-'.repeat(4)}${i}/`,
        fields: ['title', 'content'],
      }),
    );
    const md = renderMarkdown(rows, { dryRun: true });
    expect(md.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(md).toContain('<details><summary>update (1500)</summary>');
    expect(md).toMatch(/…and \d+ more not shown/);
    const short = renderMarkdown(rows.slice(0, 4), { dryRun: true });
    expect(short).not.toMatch(/more not shown/);
  });

  it('never makes a link of a URL that is not http(s)', () => {
    const md = renderMarkdown([row('a.md', 'create', { id: '1', link: 'javascript:alert(1)' })], {
      dryRun: true,
    });
    expect(md).not.toContain('javascript:alert(1)](');
  });
});

describe('workflow commands', () => {
  it('escapes data and properties as the runner decodes them', () => {
    expect(escapeData('50%\r\nx: a,b')).toBe('50%25%0D%0Ax: a,b');
    expect(escapeProperty('a,b:c%\n')).toBe('a%2Cb%3Ac%25%0A');
    expect(formatAnnotation({ file: 'p/a,b.md', line: 3, message: 'x: 1%' })).toBe(
      '::error file=p/a%2Cb.md,line=3,title=blogctl::x: 1%25',
    );
    expect(formatAnnotation({ message: 'no file' })).toBe('::error title=blogctl::no file');
  });
});

// A post laid out for reading on a terminal (blog show): wrapped, headings marked, links shown; and whatever
// width the terminal reports, it ends.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_READ_WIDTH, readWidth, renderPost } from '../../src/blogs/render.js';
import { cellWidth } from '../../src/output/table.js';

const POST =
  '<h1>Home espresso</h1><p>Pulling a good shot at home takes <strong>practice</strong>, a ' +
  '<a href="https://example.com/grinder">decent grinder</a> and patience &amp; time, more than most ' +
  'guides admit when they first tell you about it.</p><h2>What you need</h2><ul><li>A machine</li>' +
  '<li>A grinder that is good, and a description long enough that it has to wrap</li></ul>' +
  '<blockquote><p>Quoted words of wisdom from a barista who knows the trade.</p></blockquote>' +
  '<ol><li>Grind</li><li>Tamp</li></ol><p>End.</p>';

describe('renderPost', () => {
  it('marks headings, shows links, wraps paragraphs and list items under themselves', () => {
    const text = renderPost(POST, 40);
    expect(text).toMatch(/^# Home espresso\n\n/);
    expect(text).toContain('\n## What you need\n\n');
    expect(text.replace(/\s+/g, ' ')).toContain('decent grinder (https://example.com/grinder)');
    expect(text).toContain('patience & time');
    expect(text).toMatch(/\n• A machine\n• A grinder that is good, and a\n {2}description/);
    expect(text).toMatch(/\n│ Quoted words of wisdom from a barista\n│ /);
    expect(text).toMatch(/\n1\. Grind\n2\. Tamp\n\nEnd\.\n$/);
    for (const line of text.split('\n')) expect(cellWidth(line)).toBeLessThanOrEqual(40);
  });

  // Why this renderer is kept over html-to-text (CONTRIBUTING.md, dependencies): what a reader gets from it.
  it('keeps heading levels and case, names a link once when its text is its address, indents code', () => {
    const text = renderPost(
      '<h3>Grind Size</h3><p>See <a href="https://x.test/a">https://x.test/a</a>.</p><pre><code>a = 1\n  b()</code></pre>',
      80,
    );
    expect(text).toBe('### Grind Size\n\nSee https://x.test/a.\n\n    a = 1\n      b()\n');
  });

  it('a post of lists nested thousands deep (anyone who may post can write one) renders without recursion', () => {
    const depth = 5_000;
    const text = renderPost(`${'<ul><li>a'.repeat(depth)}${'</li></ul>'.repeat(depth)}<p>End.</p>`, 0);
    expect(text.split('\n').filter((l) => l.trim() === '• a')).toHaveLength(depth);
    expect(text).toMatch(/\nEnd\.\n$/);
    // Indented up to a quarter of the width: every line fits, and the text grows with the post, not its square.
    for (const line of text.split('\n')) expect(cellWidth(line)).toBeLessThanOrEqual(readWidth(0));
    expect(text.length).toBeLessThan(depth * 30);
  });

  it('paints headings with the style it is given (bold on a colour terminal)', () => {
    const text = renderPost('<h2>Title</h2><p>x</p>', 80, (style, t) => `<${style}>${t}</${style}>`);
    expect(text).toContain('<bold>## Title</bold>');
  });

  it('a width of 0, none, or nonsense reads as 80 columns; wide terminals wrap at most at 100', () => {
    for (const columns of [0, undefined, null, Number.NaN, -5, '80'])
      expect(readWidth(columns), String(columns)).toBe(80);
    expect(readWidth(Infinity)).toBe(80);
    expect(readWidth(1e12)).toBe(MAX_READ_WIDTH);
    expect(readWidth(3)).toBe(20);
    for (const columns of [0, undefined, Number.NaN, -1, 1e12, 3]) {
      const text = renderPost(POST, columns);
      for (const line of text.split('\n')) expect(cellWidth(line)).toBeLessThanOrEqual(readWidth(columns));
    }
  });

  it('any text, any width: it ends, and every line of prose fits', () => {
    const word = fc.stringMatching(/^[a-z&;#0-9]{1,30}$/);
    const tag = fc.constantFrom(
      '<p>',
      '</p>',
      '<h2>',
      '</h2>',
      '<li>',
      '<ul>',
      '</ul>',
      '<br>',
      '<blockquote>',
      '</blockquote>',
      '<a href="https://x.example/">',
      '</a>',
      '<b>',
      '</b>',
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(word, tag, fc.constant(' '))),
        fc.oneof(fc.integer(), fc.double()),
        (parts, columns) => {
          const text = renderPost(parts.join(' '), columns);
          expect(text.endsWith('\n')).toBe(true);
          for (const line of text.split('\n'))
            expect(cellWidth(line)).toBeLessThanOrEqual(readWidth(columns));
        },
      ),
      { numRuns: 500 },
    );
  });
});

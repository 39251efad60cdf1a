// A generated blog's HTML as a person reads it on a terminal: paragraphs wrapped to the width between
// words, headings marked (`#`, `##`, … in bold), list items with their bullet or number and a hanging indent,
// quotes behind a bar, links shown as `text (url)`. Not a sanitiser: the output is only ever printed.
import { fillWords } from '../output/wrap.js';

/** The widest a post is wrapped to (longer lines are hard to read), and the narrowest. */
export const MAX_READ_WIDTH = 100;
const MIN_READ_WIDTH = 20;

/**
 * The width to wrap a post to on a terminal `columns` wide. A terminal may report 0, nothing, or nonsense
 * (inside `script`, some CI pseudo-terminals): anything not a positive number reads as 80 columns, and the
 * result is kept between 20 and MAX_READ_WIDTH, so wrapping always ends.
 */
export function readWidth(columns: unknown): number {
  const n = typeof columns === 'number' && Number.isFinite(columns) && columns > 0 ? Math.floor(columns) : 80;
  return Math.min(MAX_READ_WIDTH, Math.max(MIN_READ_WIDTH, n));
}

type Paint = (style: 'bold' | 'dim', text: string) => string;

interface Block {
  kind: 'p' | 'h' | 'li' | 'pre';
  text: string;
  level: number;
  /** For list items: the bullet or number, and how deep the list is. */
  marker?: string;
  depth: number;
  quote: number;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'table',
  'tr',
  'figure',
  'figcaption',
  'hr',
]);

/** The post's HTML laid out at `columns` (see readWidth), ending with a newline. */
export function renderPost(html: string, columns: unknown, paint: Paint = (_s, t) => t): string {
  const width = readWidth(columns);
  const blocks = parse(html);
  const out: string[] = [];
  blocks.forEach((block, k) => {
    const bar = '│ '.repeat(block.quote);
    if (block.kind === 'pre') {
      out.push(
        ...block.text
          .replace(/^\n+|\n+$/g, '')
          .split('\n')
          .map((l) => `${bar}    ${l}`),
        '',
      );
      return;
    }
    const text = block.text.replace(/\s+/g, ' ').trim();
    if (!text) return;
    if (block.kind === 'h') {
      const mark = `${'#'.repeat(block.level)} `;
      const lines = fillWords(text, Math.max(1, width - mark.length - bar.length));
      out.push(...lines.map((l, i) => bar + paint('bold', (i ? ' '.repeat(mark.length) : mark) + l)), '');
      return;
    }
    // A nested list indents two columns a level, up to a quarter of the width: a list nested thousands deep
    // (anyone who may post can write one) stays readable, and its text as long as its words.
    const indent = block.kind === 'li' ? '  '.repeat(Math.min(Math.max(0, block.depth - 1), width >> 3)) : '';
    const first = block.kind === 'li' ? `${indent}${block.marker} ` : '';
    const hang = ' '.repeat(first.length);
    const lines = fillWords(text, Math.max(1, width - first.length - bar.length));
    out.push(...lines.map((l, i) => bar + (i ? hang : first) + l));
    // Items of a list follow each other; a paragraph, and a list, end with a blank line.
    if (block.kind !== 'li' || blocks[k + 1]?.kind !== 'li') out.push('');
  });
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}

/** The blocks of `html`, in order. */
function parse(html: string): Block[] {
  const blocks: Block[] = [];
  const lists: { ordered: boolean; n: number }[] = [];
  let quote = 0;
  let current: Block | undefined;
  let href: string | undefined;
  let linkText = '';
  let inPre = 0;
  const flush = (): void => {
    if (current?.text.trim()) blocks.push(current);
    current = undefined;
  };
  const open = (kind: Block['kind'], level = 0, marker?: string): void => {
    flush();
    current = { kind, text: '', level, depth: lists.length, quote, ...(marker && { marker }) };
  };
  const add = (text: string): void => {
    if (href !== undefined) {
      linkText += text;
      return;
    }
    if (!current) current = { kind: 'p', text: '', level: 0, depth: 0, quote };
    current.text += text;
  };
  const source = html.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '').replace(/<!--[\s\S]*?-->/g, '');
  for (const m of source.matchAll(/<(\/?)([a-z][a-z0-9]*)\b((?:[^>"']|"[^"]*"|'[^']*')*)>|([^<]+|<)/gi)) {
    const [, closing, rawName, attrs, text] = m;
    if (text !== undefined) {
      const decoded = decode(text);
      add(inPre ? decoded : decoded.replace(/\s+/g, ' '));
      continue;
    }
    const name = rawName!.toLowerCase();
    if (name === 'a') {
      if (!closing) {
        href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i
          .exec(attrs ?? '')
          ?.slice(1)
          .find(Boolean);
        href = href === undefined ? undefined : decode(href);
        linkText = '';
      } else if (href !== undefined) {
        const label = linkText.replace(/\s+/g, ' ').trim();
        const url = href;
        href = undefined;
        add(!label || label === url || /^(#|javascript:)/i.test(url) ? label || url : `${label} (${url})`);
      }
      continue;
    }
    if (name === 'br') {
      add(inPre ? '\n' : ' ');
      continue;
    }
    if (/^h[1-6]$/.test(name)) {
      if (closing) flush();
      else open('h', Number(name[1]));
      continue;
    }
    if (name === 'ul' || name === 'ol') {
      flush();
      if (closing) lists.pop();
      else lists.push({ ordered: name === 'ol', n: 0 });
      continue;
    }
    if (name === 'li') {
      if (closing) flush();
      else {
        const list = lists[lists.length - 1];
        const marker = list?.ordered ? `${++list.n}.` : '•';
        open('li', 0, marker);
      }
      continue;
    }
    if (name === 'blockquote') {
      flush();
      quote = Math.max(0, quote + (closing ? -1 : 1));
      continue;
    }
    if (name === 'pre') {
      if (closing) {
        inPre = Math.max(0, inPre - 1);
        flush();
      } else {
        inPre++;
        open('pre');
      }
      continue;
    }
    if (BLOCKS.has(name)) flush();
  }
  flush();
  return blocks;
}

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

// Plain text from a generated blog's HTML, for the summaries people read on a terminal. Not a sanitiser:
// the output is only ever printed, never rendered.
import type { Blog } from '../schemas/blog.js';

/** The fields a blog's text may live in; the sandbox uses `content`, the specification names none. */
const TEXT_FIELDS = ['content', 'text', 'body', 'html', 'markdown'] as const;

export function blogText(blog: Blog): string | undefined {
  for (const field of TEXT_FIELDS) {
    const value = blog[field];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return undefined;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Block elements become line breaks, every other tag goes, entities are decoded, blank runs collapse. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(
      /<\/?(p|div|h[1-6]|li|ul|ol|blockquote|pre|section|article|header|footer|table|tr)\b[^>]*>/gi,
      '\n',
    )
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => decodeEntity(name) ?? whole)
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\r\u00a0]+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

function decodeEntity(name: string): string | undefined {
  if (name[0] === '#') {
    const code =
      name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
  }
  return ENTITIES[name.toLowerCase()];
}

/** The first `count` lines of a blog's text, HTML stripped; empty when the blog carries no text. */
export function firstLines(blog: Blog, count: number): string[] {
  const text = blogText(blog);
  return text === undefined ? [] : htmlToText(text).split('\n').slice(0, count);
}

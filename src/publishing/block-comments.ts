// The comments of block editor content, found in time linear in the content's length whatever it holds: a
// post is written by any Author, and a regex that looks for a comment's end from every `<!--` takes time
// quadratic in a post of unclosed comments (400 KB stalled `wp pull` for a minute).
//
// What is found is what these patterns find, scanning left to right (the first match at the leftmost start,
// then on after it), as JavaScript's regexes did here:
//
//   self-closing block: <!--\s+wp:NAME(/NAME)?\s(?:…\s)?/-->   (WordPress renders it from the comment)
//   classic markers:    <!--more-->, <!--more text-->, <!--nextpage-->, <!--noteaser-->
//   block delimiter:    <!--\s+/?wp:NAME(/NAME)?\s(?:…\s)?-->  (the comments around a block's saved HTML)
//
// with NAME = [a-z][a-z0-9_-]*. None of them can hold `-->`, so a match at a `<!--` ends at the first `-->`
// after it: one pointer to the next `-->` (and one to the next `>` and line break), each only moving
// forward, answers every start, and each start is then checked in time bounded by its own name.

export type CommentKind = 'self-closing' | 'delimiter';

/** [start, end) of each comment of `kind` in `text`, in order, not overlapping. */
export function findComments(text: string, kind: CommentKind): [number, number][] {
  const found: [number, number][] = [];
  const next = forward(text);
  let from = 0;
  for (;;) {
    const start = text.indexOf('<!--', from);
    if (start < 0) break;
    const body = start + 4;
    const close = next('-->', body);
    // No `-->` after this one: none after any later `<!--` either.
    if (close < 0) break;
    const matched =
      kind === 'self-closing'
        ? blockAt(text, body, close, false) === 'self-closing' || classicAt(text, body, close, next)
        : blockAt(text, body, close, true) === 'delimiter';
    if (matched) {
      found.push([start, close + 3]);
      from = close + 3;
    } else from = start + 1;
  }
  return found;
}

/** `text` without the ranges given (in order, not overlapping). */
export function withoutRanges(text: string, ranges: [number, number][]): string {
  if (!ranges.length) return text;
  const parts: string[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    parts.push(text.slice(at, start));
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/**
 * A finder of the next occurrence of a few strings at or after a position that only grows: each search
 * starts where the last one for the same string ended, so all of them together read the text once.
 */
function forward(text: string): (needle: string, from: number) => number {
  const last = new Map<string, number>();
  return (needle, from) => {
    const known = last.get(needle);
    if (known !== undefined && (known < 0 || known >= from)) return known;
    const at = text.indexOf(needle, from);
    last.set(needle, at);
    return at;
  };
}

const isSpace = (c: number): boolean =>
  c === 0x20 ||
  c === 0x09 ||
  c === 0x0a ||
  c === 0x0d ||
  c === 0x0c ||
  c === 0x0b ||
  c === 0xa0 ||
  isUnicodeSpace(c);
const isUnicodeSpace = (c: number): boolean =>
  c === 0xfeff ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000;
const isLower = (c: number): boolean => c >= 0x61 && c <= 0x7a;
const isNameChar = (c: number): boolean => isLower(c) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d;

/**
 * The body from `body` to `close` (the first `-->`) as a block comment: `\s+` `/`? `wp:` NAME (`/` NAME)?
 * `\s`, then anything; self-closing when it then ends in `/` right after the name's space or after a space,
 * a delimiter when it ends in a space or right after the name's space. `closer`: a `/` may precede `wp:`.
 */
function blockAt(text: string, body: number, close: number, closer: boolean): CommentKind | undefined {
  let i = body;
  if (i >= close || !isSpace(text.charCodeAt(i))) return undefined;
  while (i < close && isSpace(text.charCodeAt(i))) i++;
  if (closer && text.charCodeAt(i) === 0x2f) i++;
  if (!text.startsWith('wp:', i)) return undefined;
  i += 3;
  const name = (): boolean => {
    if (!isLower(text.charCodeAt(i))) return false;
    i++;
    while (i < close && isNameChar(text.charCodeAt(i))) i++;
    return true;
  };
  if (!name()) return undefined;
  // `(/NAME)?` then `\s`: the regex may also take the first name's end as the whole name when a `/NAME`
  // does not follow with a space; either way a space must follow what was taken.
  const afterFirst = i;
  if (text.charCodeAt(i) === 0x2f) {
    i++;
    if (!name() || i >= close || !isSpace(text.charCodeAt(i))) i = afterFirst;
  }
  if (i >= close || !isSpace(text.charCodeAt(i))) return undefined;
  const prefixEnd = i + 1;
  const last = text.charCodeAt(close - 1);
  if (closer) {
    // Ends at the name's space, or in a space after it.
    if (prefixEnd === close || (close - 1 >= prefixEnd && isSpace(last))) return 'delimiter';
    return undefined;
  }
  if (last !== 0x2f) return undefined;
  // `/` right after the name's space, or after a space of its own.
  if (close - 1 === prefixEnd || (close - 2 >= prefixEnd && isSpace(text.charCodeAt(close - 2))))
    return 'self-closing';
  return undefined;
}

/** `more`, `more` [ \t] (no `>` or line break), `nextpage` or `noteaser`, exactly. */
function classicAt(
  text: string,
  body: number,
  close: number,
  next: (needle: string, from: number) => number,
): boolean {
  const length = close - body;
  if (length === 8 && (text.startsWith('nextpage', body) || text.startsWith('noteaser', body))) return true;
  if (!text.startsWith('more', body)) return false;
  if (length === 4) return true;
  const c = text.charCodeAt(body + 4);
  if (c !== 0x20 && c !== 0x09) return false;
  // Neither a `>` nor a line break before the `-->` (whose own `>` is at close + 2).
  const gt = next('>', body);
  const lf = next('\n', body);
  return gt === close + 2 && (lf < 0 || lf > close);
}

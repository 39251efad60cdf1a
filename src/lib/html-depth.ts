// How deeply HTML from elsewhere (a site's post) nests its elements, found in one pass: converting it to
// Markdown (turndown) works once per level on everything inside, so its time grows with depth × size, and
// a few thousand levels exhaust the stack. A leaf module.
//
// The count follows the HTML parser where it matters for depth: void elements (br, img, …) and `/>` open
// nothing, an element that cannot hold itself (p, li, dt, dd, tr, td, th, option) closes the one of its name
// on top before it opens, a closing tag closes up to the element it names (ignored when none is open),
// comments and the text of script, style, textarea and title are skipped. Every search moves forward only.

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
const NOT_IN_ITSELF = new Set(['p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'option']);
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title']);

const SLASH = 0x2f;

/** A-Z, a-z. */
const isLetter = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
/** What a tag name holds after its first letter: letters, digits, `-`. */
const isNameChar = (c: number): boolean => isLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d;

/**
 * Whether `html` nests elements more than `limit` deep. One forward pass over character codes: each
 * character is looked at a bounded number of times (a tag name once more, lower-cased; a closing tag's
 * search of the open elements is at most `limit` long), so the time is linear in the length whatever the
 * content, and a post nested past the limit is told at the first element past it.
 */
export function nestsDeeperThan(html: string, limit: number): boolean {
  const open: string[] = [];
  const length = html.length;
  let at = 0;
  for (;;) {
    const lt = html.indexOf('<', at);
    if (lt < 0) return false;
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      if (end < 0) return false;
      at = end + 3;
      continue;
    }
    const closing = html.charCodeAt(lt + 1) === SLASH;
    const nameStart = lt + (closing ? 2 : 1);
    if (nameStart >= length || !isLetter(html.charCodeAt(nameStart))) {
      at = lt + 1;
      continue;
    }
    let i = nameStart + 1;
    while (i < length && isNameChar(html.charCodeAt(i))) i++;
    const gt = html.indexOf('>', i);
    if (gt < 0) return false;
    const name = html.slice(nameStart, i).toLowerCase();
    at = gt + 1;
    if (closing) {
      const index = open.lastIndexOf(name);
      if (index >= 0) open.length = index;
      continue;
    }
    if (VOID.has(name) || html.charCodeAt(gt - 1) === SLASH) continue;
    if (RAW_TEXT.has(name)) {
      const end = indexOfClosing(html, name, at);
      if (end < 0) return false;
      at = end;
      continue;
    }
    if (NOT_IN_ITSELF.has(name) && open[open.length - 1] === name) open.pop();
    open.push(name);
    if (open.length > limit) return true;
  }
}

/** Where `</name` (any case) next starts at or after `from`, else -1. */
function indexOfClosing(html: string, name: string, from: number): number {
  for (let at = html.indexOf('</', from); at >= 0; at = html.indexOf('</', at + 2)) {
    if (html.slice(at + 2, at + 2 + name.length).toLowerCase() === name) return at;
  }
  return -1;
}

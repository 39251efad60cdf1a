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

/** Whether `html` nests elements more than `limit` deep. */
export function nestsDeeperThan(html: string, limit: number): boolean {
  const open: string[] = [];
  const lower = html.toLowerCase();
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
    const closing = html[lt + 1] === '/';
    let i = lt + (closing ? 2 : 1);
    const nameStart = i;
    while (i < html.length && /[a-zA-Z0-9-]/.test(html[i]!)) i++;
    if (i === nameStart || !/[a-zA-Z]/.test(html[nameStart]!)) {
      at = lt + 1;
      continue;
    }
    const name = lower.slice(nameStart, i);
    const gt = html.indexOf('>', i);
    if (gt < 0) return false;
    at = gt + 1;
    if (closing) {
      const index = open.lastIndexOf(name);
      if (index >= 0) open.length = index;
      continue;
    }
    if (VOID.has(name) || html[gt - 1] === '/') continue;
    if (RAW_TEXT.has(name)) {
      const end = lower.indexOf(`</${name}`, at);
      if (end < 0) return false;
      at = end;
      continue;
    }
    if (NOT_IN_ITSELF.has(name) && open.at(-1) === name) open.pop();
    open.push(name);
    if (open.length > limit) return true;
  }
}

// What converting HTML from elsewhere (a site's post, a provider's answer) to Markdown would cost, told in one
// pass before it is converted: how deeply the parser will nest its elements (turndown works once per level on
// everything inside, and a few thousand levels exhaust the stack), how many elements the parser will make
// (turndown's DOM takes some 10–20 µs per element whatever it is), and how long a run of white space the
// Markdown may hold (turndown's last trim is quadratic in it). A leaf module.
//
// Each is counted from above, never below: the pass follows the HTML parser's tree construction
// (https://html.spec.whatwg.org/#tree-construction) where it can make a tree deeper or larger than its tags
// say, and keeps an element open wherever it is unsure. Tags are read as the tokenizer reads them (quoted
// attribute values may hold `>`; a name runs to white space, `/` or `>`), and so are comments (`<!-->` is one,
// `--!>` ends one) and bogus comments (`<!x …>`, `<?…>`, `</3…>`). What makes a tree deeper than its tags:
// - `/>` closes an element only in SVG and MathML: HTML ignores it, so `<span/>` × 5,000 nest 5,000 deep.
// - A formatting element (`<b>`, `<a>`, `<i>`, …) closed by a block's end stays on the parser's list of
//   active formatting elements, and is made again (a copy, one level deeper) before the next text or inline
//   element: `<p><b class=1>…<b class=39></p>` then `<p>x` makes 39 more, for each paragraph (9 KB of it
//   made 100,000 elements). The parser keeps three alike at most (the "Noah's Ark" clause) and clears the
//   list back to a cell's marker when the cell closes; here every entry is kept and only the marker goes,
//   so more may be made again here than there, never fewer.
// - An end tag of a formatting element with a block inside (`<b><div></b>`) keeps the block open and makes a
//   copy inside it (the adoption agency), so the tree nests one level deeper each time: it is counted as
//   making up to 32 elements and closing none.
// - An end tag that would cross a block (`<span><div></span>`) or a table cell is ignored.
// - Tables add the `<tbody>` and `<tr>` they imply.
// And what closes elements, followed so that valid HTML with omitted end tags (`<li>a<li>b`, `<td>a<td>b`,
// `<p>a<div>`) is not counted deeper than it is: `<li>`, `<dd>`, `<dt>` close the open one as the parser does;
// a block start closes an open `<p>`; a cell, row or section start closes the open cell, row or section;
// a heading closes a heading just opened. The text of script, style, textarea, title, xmp, iframe, noembed and
// noframes is text; in SVG and MathML it is markup, as it is to the parser. In a `<select>` only options
// count; a form in a form is ignored. Checked against turndown's own parser (domino) on random tag soup in
// test/unit/convert-limits.test.ts: never below it.

/** Elements with no content: their start tag is the element. */
const VOID = new Set(
  'area base basefont bgsound br col embed frame hr img image input keygen link meta param source track wbr'.split(
    ' ',
  ),
);
/** Elements whose text is text to the parser (in HTML, not in SVG or MathML). */
const RAW_TEXT = new Set('script style textarea title xmp iframe noembed noframes'.split(' '));
/** The parser's formatting elements: closed by their own end tag only, made again when closed otherwise. */
const FORMATTING = new Set('a b big code em font i nobr s small strike strong tt u'.split(' '));
/** The parser's special elements: an end tag of another element never crosses them. */
const SPECIAL = new Set(
  'address applet area article aside base basefont bgsound blockquote body br button caption center col colgroup dd details dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input keygen li link listing main marquee menu meta nav noembed noframes noscript object ol p param plaintext pre script search section select source style summary table tbody td template textarea tfoot th thead title tr track ul wbr xmp'.split(
    ' ',
  ),
);
/** What bounds "in scope" (and clears the list of formatting elements back to its marker when it closes). */
const SCOPE = new Set('applet caption html table td th marquee object template'.split(' '));
const MARKERS = new Set('applet marquee object td th caption template'.split(' '));
/** Start tags that close an open `<p>` (in button scope) before they open. */
const CLOSES_P = new Set(
  'address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer header hgroup main menu nav ol p search section summary ul h1 h2 h3 h4 h5 h6 pre listing li dd dt hr xmp plaintext'.split(
    ' ',
  ),
);
const HEADINGS = new Set('h1 h2 h3 h4 h5 h6'.split(' '));
/** Start tags before which the parser does not make closed formatting elements again (all others do). */
const NO_RECONSTRUCT = new Set([
  ...[...CLOSES_P].filter((name) => name !== 'xmp'),
  ...'form table caption colgroup col tbody thead tfoot tr td th hr textarea iframe noembed noframes param source track rb rtc rp rt frame frameset head body html template script style title base basefont bgsound link meta'.split(
    ' ',
  ),
]);
/** Start tags that leave SVG or MathML for HTML. */
const BREAKOUT = new Set(
  'b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var'.split(
    ' ',
  ),
);
/** Where SVG and MathML hold HTML again: special elements, and bounds of "in scope", in their namespace. */
const FOREIGN_SPECIAL = {
  svg: new Set(['foreignobject', 'desc', 'title']),
  math: new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml']),
};
/** The elements turndown writes as blocks (its `blockElements`): each starts and ends with line breaks. */
const BLOCK = new Set(
  'address article aside audio blockquote body canvas center dd dir div dl dt fieldset figcaption figure footer form frameset h1 h2 h3 h4 h5 h6 header hgroup hr html isindex li main menu nav noframes noscript ol output p pre section table tbody td tfoot th thead tr ul'.split(
    ' ',
  ),
);

/** What measureHtml looks for: nesting, elements, and the longest run of white space the Markdown may hold. */
export interface HtmlLimits {
  depth: number;
  elements: number;
  blankRun: number;
  /** Elements the converter keeps as HTML (with all inside them): their tags show. */
  kept?: ReadonlySet<string>;
}

/** What htmlShape counts: the parser's deepest nesting and its elements, from above; the longest blank run. */
export interface HtmlShape {
  depth: number;
  elements: number;
  blankRun: number;
}

/** Whether `html` nests elements more than `limit` deep, as the HTML parser builds it (counted from above). */
export function nestsDeeperThan(html: string, limit: number): boolean {
  return measureHtml(html, { depth: limit, elements: Infinity, blankRun: Infinity }) === 'deep';
}

/**
 * Which of `limits` `html` passes first, told where it is passed: `deep` when the parser may nest it more than
 * `depth` deep, `many` when it may make more than `elements` elements, `blank` when the
 * Markdown turndown writes of it may hold a run of white space longer than `blankRun`; else undefined.
 */
export function measureHtml(html: string, limits: HtmlLimits): 'deep' | 'many' | 'blank' | undefined {
  const shape = scan(html, limits); // stops at the first limit passed
  if (shape.depth > limits.depth) return 'deep';
  if (shape.elements > limits.elements) return 'many';
  return shape.blankRun > limits.blankRun ? 'blank' : undefined;
}

/** The whole count, with no limit (for tests and measurements). */
export function htmlShape(html: string, kept?: ReadonlySet<string>): HtmlShape {
  return scan(html, { depth: Infinity, elements: Infinity, blankRun: Infinity, ...(kept && { kept }) });
}

type Namespace = 'html' | 'svg' | 'math';
/** The parser's special category, in the element's namespace. */
const isSpecial = (e: Open): boolean => (e.ns === 'html' ? SPECIAL : FOREIGN_SPECIAL[e.ns]).has(e.name);
/** What bounds "in scope", in the element's namespace. */
const isScope = (e: Open): boolean => (e.ns === 'html' ? SCOPE : FOREIGN_SPECIAL[e.ns]).has(e.name);
interface Open {
  name: string;
  ns: Namespace;
  /** Put before a table by the parser (foster parenting), out of it. */
  fostered?: boolean;
  /** An SVG or MathML element whose content is HTML again (foreignObject, desc, title; mi, mo, mn, ms, mtext; annotation-xml of HTML). */
  integration?: boolean;
  /** Its entry in the list of active formatting elements, while it is there. */
  active?: Active;
}
interface Active {
  name: string;
  attributes: string;
  /** The open element that stands for it, when there is one (else it is made again before the next text). */
  open?: Open;
}
const MARKER = 'marker';

/**
 * The blank run, counted from above as turndown writes (lib/html-to-markdown.ts): a character that shows ends
 * it. White space in text counts 1 for each run of ASCII white space (turndown collapses it) and 1 for each
 * other `\s` (a no-break space), each character in a `<pre>`; a character reference 1. A `<br>` is written as
 * two spaces and a line break (3), a block element's start and its end (by its end tag, another's or the end
 * of the text) as up to two line breaks each (2); every line break
 * inside a list item is indented by its marker's width (`-   `: 4; `10.  `: up to 26 with a `start`), for each
 * list item it is in, and a list item's marker ends in up to 3 spaces. Other tags write no white space of
 * their own. The tags of an element kept as HTML (`limits.kept`), and of all inside it, show, with up to two
 * line breaks either side, except what the parser puts before a table (foster parenting). A tag's own white
 * space (an attribute's value, shown in a kept element's HTML or an image's alt text) is a run of its own. What
 * a template holds is not written (but for a kept element's HTML, where it is written as it is).
 */
function scan(html: string, limits: HtmlLimits): HtmlShape {
  const keeps = limits.kept ?? new Set<string>();
  const length = html.length;
  const open: Open[] = [];
  const active: (Active | typeof MARKER)[] = [];
  let form: Open | undefined;
  let depth = 0;
  let elements = 0;
  let run = 0;
  let longest = 0;
  // Where the open elements put text: in a <pre> (kept as written), in a kept element, indented how far.
  let inPre = false;
  let kept = false;
  // In a template outside any kept element: its content is in a fragment turndown does not write at all.
  let hidden = false;
  let indent = 0;
  const placed = (): void => {
    inPre = false;
    kept = false;
    hidden = false;
    indent = 0;
    let list = '';
    let outermost = '';
    for (const { name, fostered } of open) {
      // What the parser moved out of a table (foster parenting) is outside the kept table, not in it.
      if (fostered) outermost = '';
      if (keeps.has(name) && !outermost) outermost = name;
      kept = showsInside(outermost);
      // A template's content is in a fragment of its own: turndown neither collapses its white space nor
      // writes it, except in a kept element's HTML.
      if (name === 'template' && !outermost) hidden = true;
      if (name === 'pre' || name === 'template') inPre = true;
      else if (name === 'ul' || name === 'ol' || name === 'menu' || name === 'dir') list = name;
      else if (name === 'li') indent += list === 'ol' ? 26 : 4;
    }
  };
  /**
   * Whether tags show inside a kept element whose outermost kept ancestor is `outermost`: in a block, turndown
   * writes its HTML as it is; an inline one (object, iframe, sup, …) has the white space at either end of its
   * text moved out before and after it, from however deep inside, so no tag in it ends a run.
   */
  const showsInside = (outermost: string): boolean => outermost !== '' && BLOCK.has(outermost);
  const shape = (): HtmlShape => ({ depth, elements, blankRun: Math.max(run, longest) });
  // Past any limit the answer is known: the pass stops there (each limit bounds its own time, too).
  const past = (): boolean =>
    depth > limits.depth || elements > limits.elements || Math.max(run, longest) > limits.blankRun;

  /** Whether the parser puts what comes now before the table instead of in it (foster parenting). */
  const fostering = (): boolean => {
    const top = open[open.length - 1];
    return (
      top !== undefined && top.ns === 'html' && (TABLE_STRUCTURE.has(top.name) || top.name === 'colgroup')
    );
  };
  const push = (name: string, ns: Namespace): Open => {
    const element: Open = { name, ns };
    if (fostering() && !TABLE_PARTS.has(name) && !NOT_FOSTERED.has(name)) element.fostered = true;
    open.push(element);
    elements++;
    if (open.length > depth) depth = open.length;
    placed();
    return element;
  };
  /** An element with nothing inside (void, or `/>` in SVG and MathML): one level below the open ones. */
  const leaf = (): void => {
    elements++;
    if (open.length + 1 > depth) depth = open.length + 1;
  };
  /** Pops the open elements from the top down to `index`, as the parser does. */
  const popTo = (index: number): void => {
    // Which elements are in a kept element (their end tags show, in its HTML), and which start one.
    const inKept: boolean[] = [];
    const inAnyKept: boolean[] = [];
    const startsKept: boolean[] = [];
    let outermost = '';
    for (const e of open) {
      if (e.fostered) outermost = '';
      const starts = keeps.has(e.name) && !outermost;
      if (starts) outermost = e.name;
      startsKept.push(starts && showsInside(outermost));
      inKept.push(showsInside(outermost));
      inAnyKept.push(outermost !== '');
    }
    // Which are in a template outside kept elements: nothing of them is written.
    const templateAt = open.findIndex((e) => e.name === 'template');
    const hiddenAt = (i: number): boolean => templateAt >= 0 && templateAt < i && !inAnyKept[templateAt];
    for (let i = open.length - 1; i >= index; i--) {
      const element = open[i]!;
      // Its end, closed by its own end tag or by another's, or at the end of the text: a block is written with
      // up to two line breaks after it, nested blocks ending together each their own.
      if (hiddenAt(i)) {
        // nothing written
      } else if (inKept[i]) {
        shows();
        if (startsKept[i]) run = 2 * (1 + indent);
      } else if (element.ns === 'html' && BLOCK.has(element.name)) run += 2 * (1 + indent);
      if (element.active) element.active.open = undefined;
      // The parser clears the list back to the cell's (object's, …) marker when it closes one; an element
      // closed otherwise leaves its marker. Here the marker alone goes, whichever: the entries after it stay
      // and may be made again where the parser would not (counted from above, never below).
      if (element.ns === 'html' && MARKERS.has(element.name)) {
        const marker = active.lastIndexOf(MARKER);
        if (marker >= 0) active.splice(marker, 1);
      }
    }
    open.length = index;
    placed();
  };
  /** Where the topmost open `name` is, if no element of `bounds` (or of SCOPE) is above it; else -1. */
  const inScope = (names: ReadonlySet<string> | string, bounds?: ReadonlySet<string>): number => {
    for (let i = open.length - 1; i >= 0; i--) {
      const e = open[i]!;
      if (e.ns === 'html' && (typeof names === 'string' ? e.name === names : names.has(e.name))) return i;
      // Table scope is bounded by html, table and template alone; the others by the default scope and more.
      if (
        bounds === TABLE_SCOPE
          ? e.ns === 'html' && TABLE_SCOPE.has(e.name)
          : isScope(e) || (e.ns === 'html' && bounds?.has(e.name))
      )
        return -1;
    }
    return -1;
  };
  /** The entries of the list of active formatting elements after its last marker. */
  const afterMarker = (): number => {
    let i = active.length;
    while (i > 0 && active[i - 1] !== MARKER) i--;
    return i;
  };
  /** Makes again the active formatting elements that are not open (before text and inline elements). */
  const reconstruct = (): void => {
    const from = afterMarker();
    let first = active.length;
    while (first > from && !(active[first - 1] as Active).open) first--;
    for (let i = first; i < active.length; i++) {
      const entry = active[i] as Active;
      entry.open = push(entry.name, 'html');
      entry.open.active = entry;
    }
  };
  /** The end tag of a formatting element (the adoption agency), counted from above. */
  const endFormatting = (name: string): boolean => {
    const from = afterMarker();
    let at = active.length - 1;
    while (at >= from && (active[at] as Active).name !== name) at--;
    if (at < from) return false;
    const entry = active[at] as Active;
    if (!entry.open) {
      active.splice(at, 1);
      return true;
    }
    const index = open.indexOf(entry.open);
    if (inScope(name) !== index) return true; // not in scope: ignored
    const blockAbove = open.slice(index + 1).some(isSpecial);
    active.splice(at, 1);
    entry.open.active = undefined;
    if (!blockAbove) popTo(index);
    else elements += 32; // copies made inside the block; nothing closes
    return true;
  };
  /** Whether a table is open below `index` (a select in a table is closed by the table's parts). */
  const inTable = (index: number): boolean =>
    open.slice(0, index).some((e) => e.ns === 'html' && e.name === 'table');
  /** Where the open `<select>` is (its options only, until it closes), else -1. */
  const select = (): number => open.findIndex((e) => e.ns === 'html' && e.name === 'select');
  const endTag = (name: string): void => {
    // With an SVG or MathML element on top, the topmost foreign element of its name first (down to the first
    // HTML element); then as in HTML.
    if (name !== 'br' && name !== 'p')
      for (let i = open.length - 1; i >= 0 && open[i]!.ns !== 'html'; i--) {
        if (open[i]!.name === name) {
          popTo(i);
          return;
        }
      }
    if (select() >= 0 && open[open.length - 1]!.ns === 'html') {
      if (name === 'select') popTo(select());
      else if (name === 'option' || name === 'optgroup') {
        const top = open.length - 1;
        if (name === 'optgroup' && open[top]!.name === 'option' && open[top - 1]?.name === 'optgroup')
          popTo(top - 1);
        else if (open[top]!.name === name) popTo(top);
      } else if (
        (TABLE_PARTS.has(name) || name === 'table') &&
        inTable(select()) &&
        inScope(name, TABLE_SCOPE) >= 0
      ) {
        popTo(select());
        endTag(name);
      }
      if (name !== 'template') return; // in a select, every other end tag is ignored
    }
    if (name === 'form') {
      // Ends the form the pointer names: the parser takes it off its stack, but what was opened in it stays
      // inside it in the tree, so it stays here too, and what comes next is counted as deep as it is.
      if (form && open.includes(form)) run += 2 * (1 + indent); // its end: a block's line breaks
      form = undefined;
      return;
    }
    if (name === 'template') {
      // Closes the topmost template, whatever is open in it (no scope).
      let at = open.length - 1;
      while (at >= 0 && !(open[at]!.ns === 'html' && open[at]!.name === 'template')) at--;
      if (at >= 0) popTo(at);
      return;
    }
    if (name === 'br') {
      // `</br>` is a `<br>` (in SVG and MathML too, where turndown's parser keeps it).
      if (open[open.length - 1]?.ns === 'html' || !open.length) startTag('br', '', [], false);
      else leaf();
      return;
    }
    if (FORMATTING.has(name) && endFormatting(name)) return;
    if (name === 'p') {
      const at = inScope('p', BUTTON_SCOPE);
      if (at >= 0) popTo(at);
      else {
        leaf(); // `</p>` alone makes an empty paragraph, and its line breaks
        run += 4 * (1 + indent);
      }
      return;
    }
    if (HEADINGS.has(name)) {
      const at = inScope(HEADINGS);
      if (at >= 0) popTo(at);
      return;
    }
    if (name === 'li' || name === 'dd' || name === 'dt' || (SPECIAL.has(name) && !VOID.has(name))) {
      const at = inScope(
        name,
        name === 'li' ? LIST_SCOPE : TABLE_PARTS.has(name) || name === 'table' ? TABLE_SCOPE : undefined,
      );
      if (at >= 0) popTo(at);
      return;
    }
    // Any other end tag: the topmost HTML element of its name, unless a special element (of any namespace)
    // is above it.
    for (let i = open.length - 1; i >= 0; i--) {
      const element = open[i]!;
      if (element.ns === 'html' && element.name === name) {
        popTo(i);
        return;
      }
      if (isSpecial(element)) return;
    }
  };
  /** A start tag: what the parser closes first, what it makes again, then the element. */
  const startTag = (
    name: string,
    attributes: string,
    names: readonly string[],
    selfClosing: boolean,
  ): 'made' | 'raw' | 'ignored' => {
    const top = open[open.length - 1];
    let ns: Namespace = 'html';
    if (top && top.ns !== 'html' && !top.integration) {
      if (
        BREAKOUT.has(name) ||
        (name === 'font' && names.some((n) => n === 'color' || n === 'face' || n === 'size'))
      ) {
        let i = open.length - 1;
        while (i >= 0 && open[i]!.ns !== 'html' && !open[i]!.integration) i--;
        popTo(i + 1);
      } else ns = top.ns;
    }
    if (ns === 'html' && select() >= 0) {
      // In a select: options, option groups and rules; a select, input, textarea or table part closes it.
      const current = open[open.length - 1]!;
      if (name === 'hr') {
        leaf(); // turndown's parser ignores it; the standard closes an option first: counted, nothing closed
        return 'made';
      }
      if (name === 'option' || name === 'optgroup') {
        if (current.name === 'option') popTo(open.length - 1);
        if (name === 'optgroup' && open[open.length - 1]!.name === 'optgroup') popTo(open.length - 1);
        push(name, 'html');
        return 'made';
      }
      if (name === 'select') {
        popTo(select());
        return 'ignored';
      }
      if (['input', 'keygen', 'textarea'].includes(name)) popTo(select());
      else if ((name === 'table' || TABLE_PARTS.has(name)) && inTable(select())) popTo(select());
      else if (!['script', 'template', 'style'].includes(name)) return 'ignored';
    }
    if (ns === 'html' && (name === 'svg' || name === 'math')) ns = name;
    if (ns !== 'html') {
      reconstruct();
      if (selfClosing) leaf();
      else
        push(name, ns).integration =
          ns === 'svg'
            ? ['foreignobject', 'desc', 'title'].includes(name)
            : ['mi', 'mo', 'mn', 'ms', 'mtext'].includes(name) ||
              (name === 'annotation-xml' &&
                /(?:^|[\s/])encoding\s*=\s*(["']?)(?:text\/html|application\/xhtml\+xml)\1(?=[\s/>]|$)/i.test(
                  attributes,
                ));
      return 'made';
    }
    if (name === 'html' || name === 'head' || name === 'body') return 'ignored'; // merged, not made
    if (name === 'form') {
      // One form at a time: a form inside a form is ignored (the parser's form element pointer).
      if (form) return 'ignored';
      const at = inScope('p', BUTTON_SCOPE);
      if (at >= 0) popTo(at);
      form = push('form', 'html');
      return 'made';
    }
    if (name === 'button') {
      const at = inScope('button');
      if (at >= 0) popTo(at);
    }
    if (name === 'table') {
      // A table in a table closes the first (and what is open in it) before it opens.
      // (In a cell or caption, it is a table of its own, inside.)
      let context = open.length - 1;
      while (context >= 0 && !(open[context]!.ns === 'html' && TABLE_CONTEXT.has(open[context]!.name)))
        context--;
      const inCell = context >= 0 && ['td', 'th', 'caption'].includes(open[context]!.name);
      const at = inScope('table', TABLE_SCOPE);
      if (at >= 0 && !inCell) popTo(at);
    }
    if ((name === 'option' || name === 'optgroup') && open[open.length - 1]?.name === 'option')
      popTo(open.length - 1);
    if (name === 'li' || name === 'dd' || name === 'dt') {
      const same = name === 'li' ? ['li'] : ['dd', 'dt'];
      for (let i = open.length - 1; i >= 0; i--) {
        const element = open[i]!;
        if (same.includes(element.name)) {
          popTo(i);
          break;
        }
        if (isSpecial(element) && !['address', 'div', 'p'].includes(element.name)) break;
      }
    }
    if (CLOSES_P.has(name)) {
      const at = inScope('p', BUTTON_SCOPE);
      if (at >= 0) popTo(at);
    }
    if (HEADINGS.has(name) && HEADINGS.has(open[open.length - 1]?.name ?? '')) popTo(open.length - 1);
    if (TABLE_PARTS.has(name)) {
      // Outside a table the parser ignores them. In one, it closes the open cell (or caption), then what was
      // put above the table's rows (foster-parented), then makes the row and section they need.
      if (!open.some((e) => e.ns === 'html' && e.name === 'table')) return 'ignored';
      const cell = inScope(CELLS, TABLE_SCOPE);
      if (cell >= 0) popTo(cell);
      const caption = inScope('caption', TABLE_SCOPE);
      if (caption >= 0 && name !== 'caption') popTo(caption);
      let structure = open.length - 1;
      while (
        structure >= 0 &&
        !(open[structure]!.ns === 'html' && TABLE_STRUCTURE.has(open[structure]!.name))
      )
        structure--;
      popTo(structure + 1);
      const topName = (): string | undefined => open[open.length - 1]?.name;
      if (name === 'tr' && topName() === 'tr') popTo(open.length - 1);
      if (TABLE_SECTIONS.has(name) || name === 'caption' || name === 'colgroup' || name === 'col') {
        if (topName() === 'tr') popTo(open.length - 1);
        if (TABLE_SECTIONS.has(topName() ?? '')) popTo(open.length - 1);
      }
      if ((name === 'td' || name === 'th' || name === 'tr') && topName() === 'table') push('tbody', 'html');
      if ((name === 'td' || name === 'th') && topName() !== 'tr') push('tr', 'html');
      if (name === 'col' && topName() === 'table') push('colgroup', 'html');
    }
    if (name === 'a' && active.slice(afterMarker()).some((e) => (e as Active).name === 'a'))
      endFormatting('a');
    if (name === 'nobr') {
      reconstruct();
      if (inScope('nobr') >= 0) endFormatting('nobr');
    }
    if (!NO_RECONSTRUCT.has(name)) reconstruct();
    if (VOID.has(name)) {
      leaf();
      return 'made';
    }
    const element = push(name, 'html');
    if (FORMATTING.has(name)) {
      // The parser keeps three alike at most (the Noah's Ark clause); all are kept here (from above).
      element.active = { name, attributes, open: element };
      active.push(element.active);
    } else if (MARKERS.has(name)) active.push(MARKER);
    return RAW_TEXT.has(name) ? 'raw' : 'made';
  };

  const shows = (): void => {
    if (run > longest) longest = run;
    run = 0;
  };
  /** Text from `from` to `to`: the blank run, and the formatting elements the parser makes again before it. */
  const text = (from: number, to: number, raw = false): void => {
    if (from >= to) return;
    if (!raw) reconstruct();
    if (hidden) return;
    let collapsing = false;
    for (let i = from; i < to; i++) {
      const c = html.charCodeAt(i);
      if (isAsciiSpace(c) && !inPre) {
        if (!collapsing) run++;
        collapsing = true;
        continue;
      }
      collapsing = false;
      if (isSpace(c)) run += c === 0x0a ? 1 + indent : 1;
      else if (c === AMP && referenceEnd(html, i + 1, to) > 0) {
        run += 1 + (inPre ? indent : 0);
        i = referenceEnd(html, i + 1, to);
      } else shows();
    }
  };
  /**
   * A tag's blank run: the tag's own white space is a run of its own. A start tag the parser made of a kept
   * element, or inside one, shows (after up to two line breaks); others add their line breaks to the run.
   */
  const tagRun = (name: string, closing: boolean, own: number, made: boolean): void => {
    if (hidden && name !== 'template') return;
    if (own > longest) longest = own;
    // (A table's start tag does not end the run: what the parser puts before the table joins it.)
    if (made && kept && name !== 'table') {
      run += 2 * (1 + indent);
      shows();
    } else if (name === 'br') run += 3 + indent;
    else if (BLOCK.has(name) && !closing) run += 2 * (1 + indent) + (name === 'li' ? 3 : 0);
  };

  let at = 0;
  while (at < length && !past()) {
    const lt = html.indexOf('<', at);
    if (lt < 0) {
      text(at, length);
      break;
    }
    text(at, lt);
    const next = html.charCodeAt(lt + 1);
    if (next === BANG || next === QUESTION || (next === SLASH && !isLetter(html.charCodeAt(lt + 2)))) {
      // A comment, a doctype or a bogus comment: it ends at `>` (a comment at `-->` or `--!>`); `</>` is nothing.
      at = markupEnd(html, lt);
      continue;
    }
    const closing = next === SLASH;
    const nameStart = lt + (closing ? 2 : 1);
    if (!isLetter(html.charCodeAt(nameStart))) {
      text(lt, lt + 1);
      at = lt + 1;
      continue;
    }
    const tag = readTag(html, nameStart);
    if (!tag) break; // the file ends inside the tag: the parser drops it
    at = tag.end;
    if (closing) {
      tagRun(tag.name, true, tag.blank, false);
      endTag(tag.name);
      continue;
    }
    // A void element put before a table is out of it (a kept one shows all the same).
    const fosteredVoid = VOID.has(tag.name) && fostering() && !keeps.has(tag.name);
    const made = startTag(tag.name, tag.attributes, tag.names, tag.selfClosing);
    tagRun(tag.name, false, tag.blank, made !== 'ignored' && !fosteredVoid);
    if (made === 'raw') {
      const end = indexOfClosing(html, tag.name, at);
      text(at, end < 0 ? length : end, true);
      at = end < 0 ? length : end;
    }
  }
  if (!past()) popTo(0); // what is still open ends with the text
  return shape();
}

const BUTTON_SCOPE = new Set(['button']);
const LIST_SCOPE = new Set(['ol', 'ul']);
const TABLE_SCOPE = new Set(['html', 'table', 'template']);
const TABLE_SECTIONS = new Set(['tbody', 'thead', 'tfoot']);
const TABLE_STRUCTURE = new Set(['table', 'tbody', 'thead', 'tfoot', 'tr']);
/** What the parser keeps in a table where other content is put before it. */
const NOT_FOSTERED = new Set(['table', 'script', 'style', 'template', 'form', 'input']);
const TABLE_CONTEXT = new Set([...TABLE_STRUCTURE, 'td', 'th', 'caption']);
const TABLE_PARTS = new Set(['tr', 'td', 'th', 'tbody', 'thead', 'tfoot', 'caption', 'col', 'colgroup']);
const CELLS = new Set(['td', 'th']);

const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const AMP = 0x26;
const GT = 0x3e;

/** A-Z, a-z. */
const isLetter = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/** The white space turndown collapses outside `<pre>`: space, tab, line feed, return. */
const isAsciiSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
/** The white space that ends a tag name or an attribute: tab, line feed, form feed, return, space. */
const isTagSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;

/** JavaScript's `\s`: what turndown's last trim (`/[\t\r\n\s]+$/`) takes as white space. */
function isSpace(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x20 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * A tag as the tokenizer reads it, from its name's first letter: its name (lower-cased), its attributes as
 * written and their names, whether it ends in `/>` (outside a value), where it ends, and its longest run of
 * white space. Quotes delimit a value only after `=`. Undefined when the text ends inside it.
 */
function readTag(
  html: string,
  from: number,
):
  | { name: string; attributes: string; names: string[]; selfClosing: boolean; end: number; blank: number }
  | undefined {
  const length = html.length;
  let i = from;
  while (i < length) {
    const c = html.charCodeAt(i);
    if (isTagSpace(c) || c === SLASH || c === GT) break;
    i++;
  }
  const name = html.slice(from, i).toLowerCase();
  const attributesStart = i;
  const names: string[] = [];
  let blank = 0;
  let spaces = 0;
  let nameStart = -1;
  let state: 'before' | 'name' | 'after' | 'value' | 'quoted' | 'unquoted' | 'self' = 'before';
  let quote = 0;
  const endName = (at: number): void => {
    names.push(html.slice(nameStart, at).toLowerCase());
    nameStart = -1;
  };
  for (; i < length; i++) {
    const c = html.charCodeAt(i);
    if (isSpace(c)) {
      if (++spaces > blank) blank = spaces;
    } else spaces = 0;
    switch (state) {
      case 'quoted':
        if (c === quote) state = 'before';
        continue;
      case 'unquoted':
        if (c === GT) return done(i, false);
        if (isTagSpace(c)) state = 'before';
        continue;
      case 'value':
        if (isTagSpace(c)) continue;
        if (c === GT) return done(i, false);
        if (c === 0x22 || c === 0x27) {
          quote = c;
          state = 'quoted';
        } else state = 'unquoted';
        continue;
      case 'name':
        if (isTagSpace(c) || c === SLASH || c === GT || c === 0x3d) {
          endName(i);
          if (c === 0x3d) state = 'value';
          else if (c === GT) return done(i, false);
          else state = c === SLASH ? 'self' : 'after';
        }
        continue;
      case 'after':
        if (isTagSpace(c)) continue;
        if (c === 0x3d) state = 'value';
        else if (c === GT) return done(i, false);
        else if (c === SLASH) state = 'self';
        else {
          nameStart = i;
          state = 'name';
        }
        continue;
      case 'self':
        if (c === GT) return done(i, true);
      // falls through: a `/` not before `>` is nothing
      case 'before':
        if (isTagSpace(c)) state = 'before';
        else if (c === GT) return done(i, false);
        else if (c === SLASH) state = 'self';
        else {
          nameStart = i;
          state = 'name';
        }
        continue;
    }
  }
  return undefined;

  function done(gt: number, selfClosing: boolean) {
    return { name, attributes: html.slice(attributesStart, gt), names, selfClosing, end: gt + 1, blank };
  }
}

/** Where a comment, doctype or bogus comment starting at `lt` ends (past its `>`), or the end of the text. */
function markupEnd(html: string, lt: number): number {
  if (html.startsWith('<!--', lt)) {
    if (html.startsWith('>', lt + 4)) return lt + 5;
    if (html.startsWith('->', lt + 4)) return lt + 6;
    const a = html.indexOf('-->', lt + 4);
    const b = html.indexOf('--!>', lt + 4);
    if (a < 0 && b < 0) return html.length;
    return a >= 0 && (b < 0 || a < b) ? a + 3 : b + 4;
  }
  if (html.startsWith('</>', lt)) return lt + 3;
  const gt = html.indexOf('>', lt + 1);
  return gt < 0 ? html.length : gt + 1;
}

/** Where the character reference whose name starts at `from` ends (its `;`), else -1: 32 characters at most. */
function referenceEnd(html: string, from: number, to: number): number {
  const last = Math.min(to, from + 33);
  for (let i = from; i < last; i++) {
    const c = html.charCodeAt(i);
    if (c === 0x3b) return i > from ? i : -1;
    if (!(isLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x23)) return -1;
  }
  return -1;
}

/** Where `</name` (any case) next starts at or after `from`, else -1. */
function indexOfClosing(html: string, name: string, from: number): number {
  for (let at = html.indexOf('</', from); at >= 0; at = html.indexOf('</', at + 2)) {
    if (html.slice(at + 2, at + 2 + name.length).toLowerCase() === name) return at;
  }
  return -1;
}

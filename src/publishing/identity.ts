// A post's identity lives on the WordPress site, not on this machine. Every post blogctl sends carries, at
// the end of its content, an HTML comment naming its namespace (the project it belongs to), its source within
// it, and a short hash of each field (of the source, and `wp_…` of the value as WordPress stored it):
//
//   <!-- blogctl:v1 ns=9c1d…(16 hex) key=3f2a…(24 hex) sums=title.1a2b3c4d,content.5e6f7a8b,status.… -->
//
// A post's identity is its namespace and key together: another project publishing a source of the same name
// to the same site has another namespace, so neither ever finds, updates or reports the other's posts.
//
// Why a comment in the content: WordPress's REST API drops post meta that no plugin registered, and the other
// fields are the post's own (a slug may be changed by WordPress or taken by an editor's post). The comment is
// kept in `content.raw` for every status (drafts, scheduled, private, pending, trashed), by kses for authors
// without unfiltered_html, and through edits in WordPress's editor as long as the comment is left in place;
// it never shows to readers, nor adds an empty paragraph (see withMarker). WordPress's search finds it, so one
// paginated request (searching for `ns=<16 hex>`) lists every post of one namespace and nothing else.
//
// The key is a hash of the source key, so the page source does not reveal file paths; the namespace is a hash
// too, of fixed length, so a search for one never matches another that starts the same; the sums are per field,
// so a plan can name exactly what changed without being fooled by what WordPress does to stored text.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../lib/canonical-json.js';
import type { SourceKey } from './source-key.js';

/** What WordPress's search is asked for: every marker starts with it. */
export const MARKER_SEARCH = 'blogctl:v1';

export interface Marker {
  /** 16 hex digits of the namespace's hash (nsHash). */
  ns: string;
  /** 24 hex digits of sha256(source key). */
  key: string;
  /** Field name → 8 hex digits of the field's hash: the source's, and (`wp_…`) WordPress's stored value. */
  sums: Record<string, string>;
}

const sha256hex = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

export const keyHash = (key: SourceKey): string => sha256hex(key).slice(0, 24);

/** A namespace's hash as the marker carries it. */
export const nsHash = (namespace: string): string => sha256hex(`namespace:${namespace}`).slice(0, 16);

/** The one search term that finds every post of a namespace (by its hash), in title, excerpt or content. */
export const markerSearch = (ns: string): string => `ns=${ns}`;

/** A field's short hash: the canonical JSON of its value, so `[1,2]` and key order never differ by spelling. */
export const fieldSum = (value: unknown): string =>
  sha256hex(typeof value === 'string' ? value : canonicalJson(value)).slice(0, 8);

export const bytesSum = (bytes: Buffer): string => sha256hex(bytes).slice(0, 8);

// The marker ending the content, with the line breaks that put it on a paragraph of its own.
const MARKER_RE =
  /\n{0,2}<!-- blogctl:v1 ns=[0-9a-f]{16} key=[0-9a-f]{24} sums=[a-z_]+\.[0-9a-f]{1,40}(?:,[a-z_]+\.[0-9a-f]{1,40})* -->\s*$/;
const ANY_MARKER_RE = /<!-- blogctl:v1 ns=([0-9a-f]{16}) key=([0-9a-f]{24}) sums=([a-z_.,0-9a-f]*) -->/g;

export function formatMarker(marker: Marker): string {
  const sums = Object.keys(marker.sums)
    .sort()
    .map((field) => `${field}.${marker.sums[field]!}`)
    .join(',');
  return `<!-- ${MARKER_SEARCH} ns=${marker.ns} key=${marker.key} sums=${sums} -->`;
}

/**
 * The content as sent: the post's HTML with the marker inside its last element (before the closing tags that
 * end it), never on a line of its own, where WordPress's automatic paragraphs would wrap it in an empty `<p>`
 * that readers see as a gap. The content's trailing line breaks stay after it (a block post's page ends with
 * them). Classic content that ends with a paragraph WordPress must see alone — a lone shortcode, which
 * `shortcode_unautop` unwraps from its `<p>` only when nothing else is in it, or an embed URL, which embeds only
 * alone on its line — gets the marker in the element before those paragraphs; with nothing before them, in a
 * paragraph of its own after them (the one case that adds an empty `<p>`).
 */
export function withMarker(html: string, marker: Marker): string {
  const body = html.trimEnd();
  const tail = html.slice(body.length);
  const comment = formatMarker(marker);
  const end = beforeLoneParagraphs(body);
  if (end === 0 && body.length) return `${body}\n\n${comment}${tail}`;
  const at = closingTagsAtEnd(end === body.length ? body : body.slice(0, end));
  return body.slice(0, at) + comment + body.slice(at) + tail;
}

/** WordPress's block-level elements (wpautop's list): a paragraph never spans their tags. */
const BLOCK_TAG =
  /<\/?(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area|blockquote|address|math|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|footer|nav|figure|figcaption|details|menu|summary)[\s/>]/iy;
const LONE_SHORTCODE = /^\[[A-Za-z_][^]*\]$/;
const EMBED_URL = /^https?:\/\/[^\s<>"]+$/;

/**
 * Where the trailing paragraphs that must stay alone (lone shortcodes, embed URLs: a URL alone on the last
 * line) start, the whitespace before them left out; `body.length` when it ends with none, 0 when they are all
 * there is. Paragraphs as wpautop splits them: at a blank line or at a block-level tag. Read backwards, each
 * character a bounded number of times.
 */
function beforeLoneParagraphs(body: string): number {
  let end = body.length;
  while (end > 0) {
    const start = paragraphStart(body, end);
    let from = -1;
    if (LONE_SHORTCODE.test(body.slice(start, end).trim())) from = start;
    else {
      let line = end;
      while (line > start && body[line - 1] !== '\n') line--;
      if (EMBED_URL.test(body.slice(line, end).trim())) from = line;
    }
    if (from < 0) return end;
    end = from;
    while (end > 0 && /\s/.test(body[end - 1]!)) end--;
  }
  return end;
}

/** The start of the paragraph that ends at `end`: after the last blank line or block-level tag before it. */
function paragraphStart(body: string, end: number): number {
  for (let i = end - 1; i >= 0; i--) {
    const c = body[i];
    if (c === '<') {
      BLOCK_TAG.lastIndex = i;
      if (BLOCK_TAG.test(body)) {
        let close = i;
        while (close < end && body[close] !== '>') close++;
        return close < end ? close + 1 : i;
      }
    } else if (c === '\n') {
      let j = i - 1;
      while (j >= 0 && (body[j] === ' ' || body[j] === '\t' || body[j] === '\r')) j--;
      if (j >= 0 && body[j] === '\n') return i + 1;
    }
  }
  return 0;
}

/**
 * Where the closing tags that end `body` start (`</p></div>`, spaces between them allowed), else its
 * length. Read backwards from the end, each character once: the content is the site's, and a regex
 * anchored at the end (`(?:</x>\s*)+$`) is tried from every position, in time quadratic in a long run.
 */
function closingTagsAtEnd(body: string): number {
  const isNameChar = (c: string): boolean => /[a-zA-Z0-9-]/.test(c);
  let at = body.length;
  let end = body.length;
  for (;;) {
    if (body[end - 1] !== '>') return at;
    let i = end - 1;
    while (i > 0 && isNameChar(body[i - 1]!)) i--;
    if (i === end - 1 || !/[a-zA-Z]/.test(body[i]!) || body[i - 1] !== '/' || body[i - 2] !== '<') return at;
    at = i - 2;
    end = at;
    while (end > 0 && /\s/.test(body[end - 1]!)) end--;
  }
}

/**
 * The marker of a post's raw content, wherever an editor's changes left it (the last one wins: the block
 * editor may wrap it in an HTML block), or undefined for a post blogctl did not make.
 */
export function readMarker(raw: string): Marker | undefined {
  let last: RegExpExecArray | undefined;
  for (const m of raw.matchAll(ANY_MARKER_RE)) last = m;
  if (!last) return undefined;
  const sums: Record<string, string> = {};
  for (const part of last[3]!.split(',')) {
    const dot = part.indexOf('.');
    if (dot > 0) sums[part.slice(0, dot)] = part.slice(dot + 1);
  }
  return { ns: last[1]!, key: last[2]!, sums };
}

/**
 * A post's stored content with its marker replaced (wherever an editor's changes left it: inside a block,
 * say), else with the marker added: an update that does not change the body keeps the site's own.
 */
export function replaceMarker(raw: string, marker: Marker): string {
  let last: RegExpExecArray | undefined;
  for (const m of raw.matchAll(ANY_MARKER_RE)) last = m;
  if (!last) return withMarker(raw, marker);
  return raw.slice(0, last.index) + formatMarker(marker) + raw.slice(last.index + last[0].length);
}

/**
 * Raw content without its marker, on a line of its own or inside the last element, and without the
 * whitespace that ends it (for showing it, and comparing what was sent with what was stored).
 */
export function stripMarker(raw: string): string {
  const trailing = raw.replace(MARKER_RE, '');
  if (trailing !== raw) return trailing.trimEnd();
  let last: RegExpExecArray | undefined;
  for (const m of raw.matchAll(ANY_MARKER_RE)) last = m;
  return (last ? raw.slice(0, last.index) + raw.slice(last.index + last[0].length) : raw).trimEnd();
}

/**
 * The Idempotency-Key of a create: the same site, source and fields give the same key on any machine, so a
 * post sent again after a lost answer (in a later run, from another CI runner) carries the first attempt's
 * key, and a service that honours keys answers with the first outcome instead of making a second post.
 * Shaped as a UUID (version 8: custom), which any key format a service may check accepts.
 */
export function idempotencyKey(siteUrl: string, marker: Marker): string {
  const hex = sha256hex(`${siteUrl.replace(/\/+$/, '')}\n${formatMarker(marker)}`)
    .slice(0, 32)
    .split('');
  hex[12] = '8';
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

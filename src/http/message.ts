// Extracts a short, human message from an error body: JSON `message`/`error`/`errors` (service style),
// WordPress `{code, message}`, or a cleaned snippet of anything else. An HTML page never reaches the user as HTML,
// and nothing a peer sends reaches the terminal raw: WordPress puts tags in its JSON messages ("<strong>Error:</strong>
// …"), and any server could send escape sequences that repaint or retitle a terminal.
import { decodeEntities } from '../lib/html-entities.js';
import { redact } from '../output/redact.js';

const MAX = 300;
const MAX_CODE = 100;
const MAX_PARTS = 20;
const MAX_DEPTH = 4;
/** C0 and C1 controls (ESC starts terminal sequences), bidi overrides, and lone surrogates. */
/* eslint-disable no-control-regex */
const UNPRINTABLE =
  /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/* eslint-enable no-control-regex */
/** Only the start of a long body is searched for a message: the regexes stay linear and cheap. */
const SCAN = 64 * 1024;

export interface PeerMessage {
  message?: string;
  code?: string;
}

export function extractPeerMessage(text: string, contentType: string | undefined): PeerMessage {
  const trimmed = text.trim();
  if (!trimmed) return {};
  const looksJson = /json/i.test(contentType ?? '') || trimmed.startsWith('{') || trimmed.startsWith('[');
  if (looksJson) {
    try {
      return fromJson(JSON.parse(trimmed));
    } catch {
      // Not JSON after all: fall through to the text cleaner.
    }
  }
  return orNothing(cleanSnippet(trimmed));
}

function orNothing(message: string): PeerMessage {
  return message ? { message } : {};
}

function fromJson(body: unknown): PeerMessage {
  if (typeof body === 'string') return orNothing(clean(body));
  if (!body || typeof body !== 'object') return {};
  const b = body as Record<string, unknown>;
  const code = typeof b['code'] === 'string' ? clean(b['code'], MAX_CODE) || undefined : undefined;
  const parts: string[] = [];
  // Bounded: a hostile body can nest arrays thousands deep or list a million errors.
  const push = (v: unknown, depth = 0): void => {
    if (parts.length >= MAX_PARTS || depth > MAX_DEPTH) return;
    if (typeof v === 'string' && v.trim()) parts.push(v.trim());
    else if (Array.isArray(v)) for (const item of v.slice(0, MAX_PARTS)) push(item, depth + 1);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const inner = o['message'] ?? o['msg'] ?? o['error'];
      const field = [o['field'], o['path'], o['param']].find(
        (f) => typeof f === 'string' || typeof f === 'number',
      );
      if (typeof inner === 'string')
        parts.push(field !== undefined && field !== '' ? `${String(field)}: ${inner}` : inner);
    }
  };
  push(b['message']);
  if (!parts.length) push(b['error']);
  push(b['errors']);
  const unique = [...new Set(parts)];
  const message = clean(unique.join('; '));
  return { ...(message && { message }), ...(code && { code }) };
}

export function cleanSnippet(full: string): string {
  const text = scanned(full);
  const lower = text.toLowerCase();
  const title = element(text, lower, 'title');
  const h1 = element(text, lower, 'h1');
  return clean(title?.trim() ? title : h1?.trim() ? h1 : text);
}

/** The inner text of the first <name …>…</name>, found with indexOf: a regex here is quadratic on a hostile page. */
function element(text: string, lower: string, name: string): string | undefined {
  const open = lower.search(new RegExp(`<${name}[\\s>]`));
  if (open < 0) return undefined;
  const start = lower.indexOf('>', open);
  const end = start < 0 ? -1 : lower.indexOf(`</${name}`, start);
  return end < 0 ? undefined : text.slice(start + 1, end);
}

/**
 * The start of `full` that is searched: a cut is marked with "…", so that a secret cut there is still
 * recognised as one (redact() hides a secret's start before "…").
 */
function scanned(full: string): string {
  return full.length > SCAN ? `${full.slice(0, SCAN)}…` : full;
}

/**
 * Plain, one-line, printable text of at most `max` characters. Secrets are hidden before the text is cut:
 * cut first, a secret echoed by the peer near the cut would be printed in part, too short to be recognised.
 */
function clean(full: string, max = MAX): string {
  const text = scanned(full);
  const plain = stripTags(
    decodeEntities(stripTags(text.replace(/<(script|style)\b[\s\S]*?(<\/\1\s*>|$)/gi, ' '))),
  )
    .replace(UNPRINTABLE, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clip(redact(plain), max);
}

/** Removes tags, and a `<` that opens a tag never closed (a cut-off page). */
function stripTags(text: string): string {
  return text.replace(/<!--[\s\S]*?(-->|$)/g, ' ').replace(/<\/?[A-Za-z!?][^>]*(>|$)/g, ' ');
}

/**
 * Cuts at a code point boundary, so an emoji is never split into a lone surrogate, and never inside the
 * "***" that stands for a secret; what is left is redacted again, so a cut never leaves a secret's start.
 */
function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  let cut = max - 1;
  if (/[\ud800-\udbff]/.test(s[cut - 1] ?? '')) cut -= 1;
  while (cut > 0 && s[cut - 1] === '*' && s[cut] === '*') cut -= 1;
  return redact(`${s.slice(0, cut).trimEnd()}…`);
}

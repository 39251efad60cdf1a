// The list of secret values of a run. Everything the CLI writes to stdout, stderr or the debug log passes
// through redact(), so a secret that reached a message by any path is still never printed.
import { currentSecrets as registry } from './secret-scope.js';

/** Registers a secret (API key, Application Password, provider key). Very short values are ignored. */
export function registerSecret(value: string | undefined | null): void {
  if (!value) return;
  const v = value.trim();
  if (v.length < 4) return;
  const r = registry();
  r.secrets.add(v);
  // WordPress accepts Application Passwords with or without their spaces: hide both spellings.
  const compact = v.replace(/\s+/g, '');
  if (compact !== v && compact.length >= 4) r.secrets.add(compact);
  // Basic auth carries it base64-encoded; a trace could only show it that way.
  r.secrets.add(Buffer.from(v).toString('base64'));
  r.longestFirst = [...r.secrets].sort((a, b) => b.length - a.length);
}

/**
 * Registers the value of an `Authorization: Basic` header for `username` and `password`, and returns it.
 * base64 of "user:password" contains base64 of the password only when the username's length + 1 is a
 * multiple of 3, so the whole value (and its base64 part) is what a peer echoing the header would show.
 */
export function basicAuthorization(username: string, password: string): string {
  registerSecret(password);
  const encoded = Buffer.from(`${username}:${password}`).toString('base64');
  registerSecret(`Basic ${encoded}`);
  registerSecret(encoded);
  return `Basic ${encoded}`;
}

/**
 * The shortest start of a secret hidden before a cut (as short as a secret registerSecret keeps): at most 3
 * characters of a secret's start ever show.
 */
const MIN_PREFIX = 4;
/** The shortest end of a secret hidden after a cut: at most 4 characters show, as maskSecret shows itself. */
const MIN_SUFFIX = 5;
/**
 * Where text was cut short: blogctl's own "…" (fit() in tables, clip() in peer messages) and whatever a peer
 * cuts with, "..." or "…", with a space or a bracket beside it (`sk_live_ab...`, `...9f3c`, `sk_l…9f3c`,
 * `sk_live [...]`).
 */
const CUT_RE = /[ \t]?[[(]?(?:…|\.{3,})[\])]?[ \t]?/g;

export function redact(text: string): string {
  const { secrets, longestFirst } = registry();
  if (!secrets.size) return text;
  let out = text;
  for (const s of longestFirst) if (out.includes(s)) out = out.split(s).join('***');
  return out.includes('…') || out.includes('...') ? redactCuts(out, longestFirst) : out;
}

/**
 * A secret cut short keeps its start before a cut, its end after one, or both around one (its middle
 * elided): the longest start of any secret just before each cut, and the longest end just after it, are
 * hidden. Each cut looks only as far as the longest secret reaches, so the work is linear in the text.
 */
function redactCuts(text: string, longestFirst: string[]): string {
  const longest = longestFirst[0]!.length;
  const hidden: [number, number][] = [];
  for (const cut of text.matchAll(CUT_RE)) {
    const from = cut.index;
    const to = from + cut[0].length;
    const before = text.slice(Math.max(0, from - longest), from);
    const start = longestStart(before, longestFirst);
    if (start) hidden.push([from - start, from]);
    const after = text.slice(to, to + longest);
    const end = longestEnd(after, longestFirst);
    if (end) hidden.push([to, to + end]);
  }
  if (!hidden.length) return text;
  hidden.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let at = 0;
  for (const [from, to] of hidden) {
    if (to <= at) continue;
    parts.push(text.slice(at, Math.max(at, from)));
    if (from >= at) parts.push('***');
    at = to;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/** The length of the longest start of a secret (MIN_PREFIX or more) that `text` ends with, else 0. */
function longestStart(text: string, longestFirst: string[]): number {
  let longest = 0;
  for (const s of longestFirst) {
    const head = s.slice(0, MIN_PREFIX);
    // The leftmost place where the secret's first characters start gives the longest start.
    for (let i = text.indexOf(head); i >= 0 && i <= text.length - MIN_PREFIX; i = text.indexOf(head, i + 1)) {
      const length = text.length - i;
      if (length < s.length && length > longest && s.startsWith(text.slice(i))) {
        longest = length;
        break;
      }
    }
  }
  return longest;
}

/** The length of the longest end of a secret (MIN_SUFFIX or more) that `text` starts with, else 0. */
function longestEnd(text: string, longestFirst: string[]): number {
  let longest = 0;
  for (const s of longestFirst) {
    const tail = s.slice(-MIN_SUFFIX);
    // The rightmost place where the secret's last characters end gives the longest end.
    for (let i = text.lastIndexOf(tail); i >= 0; i = i > 0 ? text.lastIndexOf(tail, i - 1) : -1) {
      const length = i + MIN_SUFFIX;
      if (length < s.length && length > longest && s.endsWith(text.slice(0, length))) {
        longest = length;
        break;
      }
    }
  }
  return longest;
}

/**
 * `sk_live_abcd…wxyz` → `…wxyz`: at most 4 characters of a key ever show (enough to tell two keys apart, too
 * few to narrow a guess), and none of a short one.
 */
export function maskSecret(value: string | undefined): string {
  if (!value) return '(none)';
  if (value.length < 16) return '****';
  return `…${value.slice(-4)}`;
}

// A process-wide list of secret values. Everything the CLI writes to stdout, stderr or the debug log
// passes through redact(), so a secret that reached a message by any path is still never printed.

const secrets = new Set<string>();
/** The secrets, longest first: a secret that contains another (a Basic header, its password) is hidden whole. */
let longestFirst: string[] = [];

/** Registers a secret (API key, Application Password, provider key). Very short values are ignored. */
export function registerSecret(value: string | undefined | null): void {
  if (!value) return;
  const v = value.trim();
  if (v.length < 4) return;
  secrets.add(v);
  // WordPress accepts Application Passwords with or without their spaces: hide both spellings.
  const compact = v.replace(/\s+/g, '');
  if (compact !== v && compact.length >= 4) secrets.add(compact);
  // Basic auth carries it base64-encoded; a trace could only show it that way.
  secrets.add(Buffer.from(v).toString('base64'));
  longestFirst = [...secrets].sort((a, b) => b.length - a.length);
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

/** The shortest start of a secret hidden before a cut's "…" (as short as a secret registerSecret keeps). */
const MIN_PREFIX = 4;
/** What a cut adds where it cut: fit() in tables, clip() in peer messages. */
const CUT = '…';

export function redact(text: string): string {
  if (!secrets.size) return text;
  let out = text;
  for (const s of longestFirst) if (out.includes(s)) out = out.split(s).join('***');
  return out.includes(CUT) ? redactCutStarts(out) : out;
}

/** A secret cut short keeps its start: before each "…", the longest start of any secret is hidden. */
function redactCutStarts(text: string): string {
  let out = text;
  for (let at = out.indexOf(CUT); at >= 0; at = out.indexOf(CUT, at + 1)) {
    let longest = 0;
    for (const s of longestFirst) {
      // The leftmost place within reach where the secret's first characters start gives the longest start.
      const head = s.slice(0, MIN_PREFIX);
      for (let i = out.indexOf(head, Math.max(0, at - s.length + 1)); i >= 0 && i <= at - MIN_PREFIX;) {
        if (at - i > longest && out.startsWith(s.slice(0, at - i), i)) {
          longest = at - i;
          break;
        }
        i = out.indexOf(head, i + 1);
      }
    }
    if (longest) {
      out = `${out.slice(0, at - longest)}***${out.slice(at)}`;
      at += 3 - longest;
    }
  }
  return out;
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

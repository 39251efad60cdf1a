// A process-wide list of secret values. Everything the CLI writes to stdout, stderr or the debug log
// passes through redact(), so a secret that reached a message by any path is still never printed.

const secrets = new Set<string>();

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
}

export function redact(text: string): string {
  if (!secrets.size) return text;
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join('***');
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

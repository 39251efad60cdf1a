// One reading of `--meta key=value` for the whole CLI: `blog create --meta` (the blog's metaData) and
// `wp publish --meta` (the post's meta) must mean the same thing for the same text.

/**
 * `5` → 5, `true` → true, `{"a":1}` → object, `"02134"` → the string 02134 (quote to force a string);
 * anything else stays the text as typed. Numbers that JSON would change (`1e400` → Infinity, integers
 * beyond 2^53, `1.0` → 1, `007`) stay text: a meta value must not be silently altered, and a person who
 * wants a number types it plainly. Text with leading or trailing blanks is kept as typed.
 */
export function parseMetaValue(text: string): unknown {
  if (text !== text.trim() || text === '') return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof parsed === 'number' && (!Number.isFinite(parsed) || String(parsed) !== text)) return text;
  return parsed;
}

/** `key=value` → [key, parseMetaValue(value)]; the error names the flag and shows the form expected. */
export function parseMetaPair(
  pair: string,
  flag: string,
  Failure: new (message: string) => Error,
): [string, unknown] {
  const eq = pair.indexOf('=');
  const key = eq < 0 ? '' : pair.slice(0, eq).trim();
  if (!key) throw new Failure(`${flag}: expected key=value (e.g. ${flag} source=cli), got "${pair}"`);
  return [key, parseMetaValue(pair.slice(eq + 1))];
}

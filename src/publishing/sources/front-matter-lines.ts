// Where each top-level front matter field is written: its line in the file (the opening `---` is line 1), so
// that an error about a field names `posts/a.md:3`. The YAML parser front matter is read with gives values
// without positions, so the keys are found in the front matter text itself: YAML's top-level keys are the
// lines that start in the first column (a block scalar's or a nested mapping's lines are indented), and JSON's
// are the strings followed by `:` one brace deep.

/**
 * The 1-based line of each top-level key of a front matter block, as gray-matter hands it over: the text
 * after the opening `---` (the rest of that line first), so its line N is the file's line N. A key written
 * twice keeps its first line; a key that cannot be placed (one brought in by a YAML merge key) is absent.
 */
export function frontMatterLines(block: string, language: string): Map<string, number> {
  return language === 'json' ? jsonKeyLines(block) : yamlKeyLines(block);
}

// A top-level key: double-quoted, single-quoted, or plain (up to the `:` that is followed by a space or the
// end of the line). A plain key cannot start with an indicator (`-` or `?` with a space, `#`, `[`, `{`, …).
const YAML_KEY =
  /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|((?![-?:][\s]|[#[\]{},&*!|>%@`'"\s])[^\n]*?))[ \t]*:(?:[ \t]|$)/;

function yamlKeyLines(block: string): Map<string, number> {
  const lines = new Map<string, number>();
  block.split('\n').forEach((line, i) => {
    if (i === 0 || /^(?:---|\.\.\.)(?:\s|$)/.test(line)) return;
    const m = YAML_KEY.exec(line);
    if (!m) return;
    let key: string;
    if (m[1] !== undefined) {
      try {
        key = JSON.parse(`"${m[1]}"`) as string;
      } catch {
        return;
      }
    } else if (m[2] !== undefined) key = m[2].replace(/''/g, "'");
    else key = m[3]!.trimEnd();
    if (!lines.has(key)) lines.set(key, i + 1);
  });
  return lines;
}

const COLON = /\s*:/y;

function jsonKeyLines(block: string): Map<string, number> {
  const lines = new Map<string, number>();
  let depth = 0;
  let line = 1;
  for (let i = 0; i < block.length; i++) {
    const c = block[i]!;
    if (c === '\n') line++;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === '"') {
      const start = i;
      const startLine = line;
      for (i++; i < block.length && block[i] !== '"'; i++) {
        if (block[i] === '\\') i++;
        else if (block[i] === '\n') line++;
      }
      if (depth !== 1) continue;
      COLON.lastIndex = i + 1;
      if (!COLON.test(block)) continue;
      try {
        const key = JSON.parse(block.slice(start, i + 1)) as string;
        if (!lines.has(key)) lines.set(key, startLine);
      } catch {
        // Not a valid string: the JSON parser has refused the block already.
      }
    }
  }
  return lines;
}

/**
 * How messages name a front matter field: `posts/a.md:3: status` (the file and the field's line, as
 * compilers name a place), or `posts/a.md: front matter "status"` when its line is not known.
 */
export function frontMatterName(label: string, field: string, line: number | undefined): string {
  return line === undefined ? `${label}: front matter "${field}"` : `${label}:${line}: ${field}`;
}

/**
 * The place a field's name points at (`posts/a.md:3` of `posts/a.md:3: slug`, `blogctl.yml:4` of a project
 * default's `blogctl.yml:4: defaults.slug`), when it names a line.
 */
export function fieldPlace(name: string | undefined, field: string): string | undefined {
  const suffix = [`: ${field}`, `: defaults.${field}`].find((s) => name?.endsWith(s));
  if (name === undefined || suffix === undefined) return undefined;
  const place = name.slice(0, -suffix.length);
  return /:\d+$/.test(place) ? place : undefined;
}

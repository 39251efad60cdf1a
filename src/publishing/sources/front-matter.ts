// A Markdown file's front matter: the block between a first line `---` (or `---json`) and the next line
// starting with `---`, read as YAML (or JSON) within the bounds of lib/yaml-text.ts, with the line of each
// top-level key taken from the parser's own positions. Lines are the file's: the opening `---` is line 1.
// Only YAML and JSON are read: a `---js` block is refused, never evaluated.
import { UsageError } from '../../errors.js';
import { parseJsonText } from '../../lib/json-text.js';
import { readYaml, YAML_LIMITS, YamlTextError, type YamlText } from '../../lib/yaml-text.js';

export interface FrontMatter {
  /** The top-level keys and their values ({} without front matter). */
  data: Record<string, unknown>;
  /** The text after the front matter (the whole text without one). */
  content: string;
  /** The file line of each top-level key (the opening `---` is line 1). */
  lines: Record<string, number>;
  /** The source text of a top-level key's plain scalar (`007` of `slug: 007`), for text fields. */
  plainScalar(key: string): string | undefined;
}

/**
 * Splits and reads the front matter of `source` (line endings already `\n`, no byte order mark). A problem
 * is a UsageError naming `label`: `<label>: front matter could not be read: <reason> at line L, column C`.
 */
export function readFrontMatter(source: string, label: string): FrontMatter {
  const none: FrontMatter = { data: {}, content: source, lines: {}, plainScalar: () => undefined };
  // `----` (a Markdown rule or a table) is not an opening line.
  if (!source.startsWith('---') || source[3] === '-') return none;
  const lineEnd = source.indexOf('\n');
  const language = (lineEnd < 0 ? source.slice(3) : source.slice(3, lineEnd)).trim().toLowerCase();
  const rest = lineEnd < 0 ? '' : source.slice(lineEnd);
  // The block keeps the newline that ends the opening line, so its line N is the file's line N.
  const close = rest.indexOf('\n---');
  const block = close < 0 ? rest : rest.slice(0, close);
  // Without a closing line, all of it is front matter; after one, the body starts on the next line.
  const content = close < 0 ? '' : rest.slice(close + 4).replace(/^\n/, '');
  const fail = (reason: string): never => {
    throw new UsageError(`${label}: front matter could not be read: ${reason}`);
  };
  if (language === 'js' || language === 'javascript')
    fail('JavaScript front matter is not supported (use YAML)');
  if (language !== '' && language !== 'yaml' && language !== 'yml' && language !== 'json')
    fail('only YAML (---) and JSON (---json) front matter are read');

  let data: unknown;
  let yaml: YamlText | undefined;
  if (language === 'json') {
    if (block.length > YAML_LIMITS.maxChars) fail(`longer than ${YAML_LIMITS.maxChars} characters`);
    data = parseJsonText(block, `${label}: the JSON front matter`);
    // JSON is YAML: the YAML reader gives the keys' lines (and nothing else, should it read it otherwise).
    try {
      yaml = readYaml(block);
    } catch {
      yaml = undefined;
    }
  } else {
    try {
      yaml = readYaml(block);
    } catch (error) {
      if (error instanceof YamlTextError) fail(error.message);
      throw error;
    }
    data = yaml.data ?? {};
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new UsageError(`${label}: front matter must be a mapping of keys to values`);
  // No prototype: a key named `__proto__` or `constructor` is a key like any other, never Object's.
  const lines = Object.create(null) as Record<string, number>;
  for (const key of Object.keys(data)) {
    const line = yaml?.lineOf([key]);
    if (line !== undefined) lines[key] = line;
  }
  // `seo:` is a mapping whose fields are checked one by one: each is named at its own line (`seo.title`).
  const seo = (data as Record<string, unknown>)['seo'];
  if (seo && typeof seo === 'object' && !Array.isArray(seo))
    for (const key of Object.keys(seo)) {
      const line = yaml?.lineOf(['seo', key]);
      if (line !== undefined) lines[`seo.${key}`] = line;
    }
  return {
    data: data as Record<string, unknown>,
    content,
    lines,
    plainScalar: (key) => yaml?.plainScalarOf(key),
  };
}

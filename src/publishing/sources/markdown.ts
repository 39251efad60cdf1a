// Markdown posts: YAML front matter (gray-matter) fills post fields, the body becomes HTML (marked, GitHub
// flavour). Pure: no IO — the caller reads the file and uploads `featured_image`. Each field's value is
// checked in front-matter-fields.ts.
import { dirname, resolve } from 'node:path';
import matter from 'gray-matter';
import { Marked, type Token, type Tokens } from 'marked';
import { UsageError } from '../../errors.js';
import { parseJsonText } from '../../lib/json-text.js';
import { FIELD_NAMES, FieldReader, type FrontMatterFields } from './front-matter-fields.js';
import { frontMatterLines } from './front-matter-lines.js';

export interface MarkdownPost {
  fields: Partial<FrontMatterFields>;
  /** The body as HTML (without the `# heading` taken as the title). */
  html: string;
  /** Front matter keys blogctl does not use (Jekyll's `layout`, Hugo's `draft`, …): the caller may warn. */
  ignoredKeys: string[];
  /** The line in the file of each front matter key that could be placed (the opening `---` is line 1). */
  lines: Record<string, number>;
}

export interface ParseMarkdownOptions {
  /** The file's path, for messages and for `featured_image`; `-` means stdin. */
  path: string;
  /** Where a relative `featured_image` of stdin is taken from; default process.cwd(). */
  cwd?: string;
}

/**
 * Parses a Markdown post. Front matter values are checked for type: every bad field is reported, each naming
 * the file and the field's line (`posts/a.md:3: status: …`), in one UsageError whose `inputs` lists them;
 * a missing `title` is taken from the first top-level `# heading`, which is then removed from the body.
 *
 * Dates: gray-matter's YAML parser turns an unquoted `2026-12-01T09:00:00+02:00` into a JavaScript Date,
 * losing the offset, and treats one without an offset as UTC — both would shift the time. So for `date` (and
 * any text field YAML read as a number, boolean or date, like `title: 1984` or `slug: 007`) the scalar is
 * taken as written from the front matter text; only if that fails is a Date turned back into an ISO string
 * with `Z` (the instant YAML parsed).
 *
 * Only YAML (`---`) and JSON (`---json`) front matter are read: gray-matter would `eval` a `---js` block.
 */
export function parseMarkdownPost(text: string, options: ParseMarkdownOptions): MarkdownPost {
  const label = options.path === '-' ? '<stdin>' : options.path;
  const baseDir =
    options.path === '-' ? (options.cwd ?? process.cwd()) : dirname(resolve(options.cwd ?? '', options.path));
  const source = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');

  let parsed: { data: Record<string, unknown>; content: string; matter: string; language: string };
  try {
    // Passing options also keeps gray-matter from caching every document in a module-level map. The block
    // gray-matter hands the JSON engine starts with the rest of the `---json` line, so its lines are the file's.
    const file = matter(source, {
      engines: {
        js: refuseScript,
        javascript: refuseScript,
        json: (block: string) => parseJsonText(block, `${label}: the JSON front matter`) as object,
      },
    });
    parsed = {
      data: file.data,
      content: file.content,
      matter: file.matter ?? '',
      language: (file as { language?: string }).language ?? 'yaml',
    };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${label}: front matter could not be read: ${frontMatterProblem(error)}`);
  }
  if (typeof parsed.data !== 'object' || parsed.data === null || Array.isArray(parsed.data)) {
    throw new UsageError(`${label}: front matter must be a mapping of keys to values`);
  }

  const placed = frontMatterLines(parsed.matter, parsed.language);
  const lines: Record<string, number> = {};
  for (const key of Object.keys(parsed.data)) {
    const line = placed.get(key);
    if (line !== undefined) lines[key] = line;
  }
  const reader = new FieldReader(label, parsed.data, parsed.matter, baseDir, lines);
  const fields: Partial<FrontMatterFields> = {};
  const problems: string[] = [];
  for (const name of FIELD_NAMES) {
    if (parsed.data[name] === undefined || parsed.data[name] === null) continue;
    try {
      (fields as Record<string, unknown>)[name] = reader.read(name);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      problems.push(error.message);
    }
  }
  if (problems.length)
    throw new UsageError(problems.length === 1 ? problems[0]! : problems.join('; '), { inputs: problems });
  const ignoredKeys = Object.keys(parsed.data).filter((k) => !(FIELD_NAMES as readonly string[]).includes(k));

  const tokens = marked.lexer(parsed.content);
  if (fields.title === undefined) {
    const at = tokens.findIndex((t) => t.type === 'heading' && (t as Tokens.Heading).depth === 1);
    if (at >= 0) {
      const title = plainText((tokens[at] as Tokens.Heading).tokens)
        .replace(/\s+/g, ' ')
        .trim();
      if (title) {
        fields.title = title;
        tokens.splice(at, 1);
      }
    }
  }
  // `links` carries reference-style link definitions; splice keeps the array (and it) intact.
  const html = marked.parser(tokens);
  return { fields, html, ignoredKeys, lines };
}

// One instance for every post of a batch: each lexer() and parser() call starts from fresh state.
const marked = new Marked({ gfm: true });

/**
 * js-yaml's message ends with a snippet of the text, and some of its reasons quote it (`unknown tag !<…>`,
 * `unidentified alias "…"`): front matter may hold a secret, so only a reason that quotes nothing is kept.
 */
function frontMatterProblem(error: unknown): string {
  const yaml = error as { name?: unknown; reason?: unknown; mark?: { line?: unknown; column?: unknown } };
  if (yaml?.name === 'YAMLException' && typeof yaml.mark?.line === 'number') {
    const reason =
      typeof yaml.reason === 'string' && /^[a-z][a-z ,()-]*$/i.test(yaml.reason)
        ? yaml.reason
        : 'a YAML syntax error';
    return `${reason} at line ${yaml.mark.line + 1}, column ${Number(yaml.mark.column) + 1}`;
  }
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : 'unreadable';
}

function refuseScript(): never {
  throw new Error('JavaScript front matter is not supported (use YAML)');
}

/** The text of inline tokens, without markup: `Hello *world*` → `Hello world`. */
function plainText(tokens: Token[] | undefined): string {
  let out = '';
  for (const token of tokens ?? []) {
    if (token.type === 'html') continue;
    if (token.type === 'br') out += ' ';
    else if ('tokens' in token && Array.isArray(token.tokens) && token.tokens.length)
      out += plainText(token.tokens);
    else if ('text' in token && typeof token.text === 'string') out += token.text;
  }
  return out;
}

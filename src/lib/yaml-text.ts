// Reading YAML a person or a repository gave us (Markdown front matter, blogctl.yml) with the `yaml` library,
// which keeps every node's position, so a message can name the line of a key or value. The text is
// untrusted (a post anyone may send in a pull request), so reading it is bounded: its size, how deep it
// nests, and how much its aliases expand (an "alias bomb" of a few lines would otherwise expand to billions
// of values). The YAML 1.2 core schema: no timestamps (a `date:` stays the text written), no `!!binary` or
// other tags that make objects, no custom tags; merge keys (`<<: *base`) are read, within the same bounds.
// A problem's reason never quotes the text (it may hold a password); it names only the line and column.
import {
  Composer,
  isAlias,
  isCollection,
  isMap,
  isPair,
  isScalar,
  isSeq,
  Lexer,
  LineCounter,
  Parser,
  type Document,
  type Node,
  type ParsedNode,
} from 'yaml';

type Token = ReturnType<Parser['next']> extends Generator<infer T> ? T : never;

/** The bounds on one YAML text (front matter or blogctl.yml); docs/limits-and-security.md lists them. */
export const YAML_LIMITS = {
  /** Characters of the text. */
  maxChars: 64 * 1024,
  /** Collections inside collections. */
  maxDepth: 64,
  /**
   * Values after every alias is expanded (an alias counts the values it stands for). A text within maxChars
   * holds fewer without aliases, so only aliases can pass it.
   */
  maxValues: 100_000,
  /** The `yaml` library's own guard on aliases to collections holding aliases (checked as values are made). */
  maxAliasCount: 100,
} as const;

/** What is wrong with a YAML text, quoting nothing from it; line and column are 1-based. */
export class YamlTextError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} at line ${line}, column ${column}`);
    this.name = 'YamlTextError';
  }
}

export interface YamlText {
  /** The document as JavaScript values (null for an empty document). */
  data: unknown;
  /**
   * The 1-based line of a key path (`['defaults', 'status']`, `['sources', 1]`): of the deepest key or item
   * of the path that is written in the text.
   */
  lineOf(path: readonly (string | number)[]): number | undefined;
  /** The source text of a top-level key's plain scalar value (`1984` of `title: 1984`), when it is one. */
  plainScalarOf(key: string): string | undefined;
}

const COLLECTION_TOKENS = new Set(['block-map', 'block-seq', 'flow-collection']);

/** Reads one YAML document, within YAML_LIMITS; a YamlTextError says what is wrong and where. */
export function readYaml(text: string): YamlText {
  const lineCounter = new LineCounter();
  lineCounter.addNewLine(0);
  const at = (offset: number, reason: string): YamlTextError => {
    const { line, col } = lineCounter.linePos(Math.max(0, Math.min(offset, text.length)));
    return new YamlTextError(reason, line, col);
  };
  if (text.length > YAML_LIMITS.maxChars) {
    // Count lines only up to the limit: the place where the text passes it.
    for (let i = text.indexOf('\n'); i !== -1 && i < YAML_LIMITS.maxChars; i = text.indexOf('\n', i + 1))
      lineCounter.addNewLine(i + 1);
    throw at(YAML_LIMITS.maxChars, `longer than ${YAML_LIMITS.maxChars} characters`);
  }
  // The lexer and the parser are iterative; the composer and the conversion to values recurse, so depth is
  // checked before either runs: brackets as the lexer meets them (a deep flow collection stops there, before
  // the parser spends time on it), then every collection on the parser's tokens.
  const parser = new Parser(lineCounter.addNewLine);
  const tokens: Token[] = [];
  let flow = 0;
  for (const lexeme of new Lexer().lex(text)) {
    if (lexeme === '[' || lexeme === '{') {
      if (++flow > YAML_LIMITS.maxDepth)
        throw at(parser.offset, `nested more than ${YAML_LIMITS.maxDepth} levels deep`);
    } else if (lexeme === ']' || lexeme === '}') flow--;
    for (const token of parser.next(lexeme)) tokens.push(token);
  }
  for (const token of parser.end()) tokens.push(token);
  const deep = tooDeep(tokens);
  if (deep !== undefined) throw at(deep, `nested more than ${YAML_LIMITS.maxDepth} levels deep`);

  const options = {
    lineCounter,
    prettyErrors: false,
    merge: true,
    resolveKnownTags: false,
    // Checked below in linear time (the library compares every pair of keys of a mapping).
    uniqueKeys: false,
    strict: true,
    // Nothing reaches process warnings: every problem is an error here.
    logLevel: 'silent',
  } as const;
  const docs = [...new Composer(options).compose(tokens, true, text.length)] as Document.Parsed[];
  if (docs.length > 1) throw at(docs[1]!.range[0], 'more than one YAML document');
  const doc = docs[0]!;
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) throw at(problem.pos[0], yamlReason(problem.code, problem.message));

  const badKey = badMappingKey(doc.contents);
  if (badKey) throw at(badKey.offset, badKey.reason);
  const expanded = expandsTooFar(doc.contents);
  if (expanded !== undefined)
    throw at(expanded, `aliases expand to more than ${YAML_LIMITS.maxValues} values`);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: YAML_LIMITS.maxAliasCount });
  } catch (error) {
    const alias = firstAlias(doc.contents);
    const reason = /alias count/i.test((error as Error).message)
      ? `aliases expand to more than ${YAML_LIMITS.maxAliasCount} collections`
      : 'an alias that cannot be resolved';
    throw at(alias ?? 0, reason);
  }
  const lineOfNode = (node: { range?: unknown } | null | undefined): number | undefined => {
    const range = node?.range;
    return Array.isArray(range) && typeof range[0] === 'number'
      ? lineCounter.linePos(range[0] as number).line
      : undefined;
  };
  return {
    data,
    lineOf(path) {
      let node: unknown = doc.contents;
      let line: number | undefined;
      for (const step of path) {
        if (isMap(node)) {
          const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(step));
          if (!pair) break;
          line = lineOfNode(pair.key as Node) ?? line;
          node = pair.value;
        } else if (isSeq(node) && typeof step === 'number') {
          const item = node.items[step] as Node | undefined;
          if (!item) break;
          line = lineOfNode(item) ?? line;
          node = item;
        } else break;
      }
      return line;
    },
    plainScalarOf(key) {
      const contents = doc.contents;
      if (!isMap(contents)) return undefined;
      const pair = contents.items.find((p) => isScalar(p.key) && p.key.value === key);
      const value = pair?.value;
      return isScalar(value) && value.type === 'PLAIN' && typeof value.source === 'string'
        ? value.source
        : undefined;
    },
  };
}

/** The `yaml` library's messages that quote nothing are kept; the rest get a reason of their own. */
function yamlReason(code: string, message: string): string {
  if (code === 'TAG_RESOLVE_FAILED') return 'a tag blogctl does not read (only plain values are)';
  if (code === 'DUPLICATE_KEY') return 'a key written twice';
  if (code === 'BAD_ALIAS' || code === 'ALIAS_PROPS') return 'an alias that cannot be resolved';
  return /^[a-z][a-z ,()-]*$/i.test(message) ? message : 'a YAML syntax error';
}

/** The offset of the first collection token nested deeper than the limit, walking without recursion. */
function tooDeep(tokens: readonly object[]): number | undefined {
  const stack: { value: unknown; depth: number }[] = tokens.map((value) => ({ value, depth: 0 }));
  while (stack.length) {
    const { value, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    const type = (value as { type?: unknown }).type;
    const next = typeof type === 'string' && COLLECTION_TOKENS.has(type) ? depth + 1 : depth;
    if (next > YAML_LIMITS.maxDepth) return (value as { offset?: number }).offset ?? 0;
    for (const child of Array.isArray(value) ? value : Object.values(value))
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: next });
  }
  return undefined;
}

/**
 * Counts the values of the document as they would be after every alias is expanded (each collection's size
 * computed once), and gives the offset of the alias or value at which the count passes the limit.
 */
function expandsTooFar(root: ParsedNode | null): number | undefined {
  const sizes = new Map<unknown, number>();
  let total = 0;
  let over: number | undefined;
  // Depth is bounded by tooDeep, and an alias only refers to an anchor before it (never to a collection
  // still being read), so this recursion ends and stays shallow.
  const size = (node: unknown): number => {
    if (over !== undefined) return 0;
    if (isAlias(node)) {
      const target = sizes.get(node.source);
      const n = target ?? 1;
      total += n;
      if (total > YAML_LIMITS.maxValues) over = node.range?.[0] ?? 0;
      return n;
    }
    let n = 1;
    total += 1;
    if (isCollection(node))
      for (const item of node.items) {
        if (isPair(item)) n += size(item.key) + size(item.value);
        else n += size(item);
      }
    if (total > YAML_LIMITS.maxValues && over === undefined)
      over = (node as { range?: number[] }).range?.[0] ?? 0;
    const anchor = (node as { anchor?: string } | null)?.anchor;
    if (anchor) sizes.set(anchor, n);
    return n;
  };
  size(root);
  return over;
}

/**
 * The first key written twice in one mapping (compared as YAML reads them), or that is not a plain value (a
 * list or mapping as a key, which JavaScript objects cannot hold).
 */
function badMappingKey(root: ParsedNode | null): { offset: number; reason: string } | undefined {
  const stack: unknown[] = [root];
  while (stack.length) {
    const node = stack.pop();
    if (isPair(node)) stack.push(node.key, node.value);
    else if (isCollection(node)) {
      const seen = new Set<string>();
      for (const item of node.items) {
        stack.push(item);
        if (!isMap(node) || !isPair(item)) continue;
        if (!isScalar(item.key))
          return {
            offset: (item.key as { range?: number[] } | null)?.range?.[0] ?? 0,
            reason: 'a key that is a list or a mapping',
          };
        const key = `${typeof item.key.value}:${String(item.key.value)}`;
        if (seen.has(key)) return { offset: item.key.range?.[0] ?? 0, reason: 'a key written twice' };
        seen.add(key);
      }
    }
  }
  return undefined;
}

/** The offset of the first alias in the document. */
function firstAlias(root: ParsedNode | null): number | undefined {
  const stack: unknown[] = [root];
  let first: number | undefined;
  while (stack.length) {
    const node = stack.pop();
    if (isAlias(node)) first = Math.min(first ?? Infinity, node.range?.[0] ?? 0);
    else if (isPair(node)) stack.push(node.key, node.value);
    else if (isCollection(node)) stack.push(...node.items);
  }
  return first;
}

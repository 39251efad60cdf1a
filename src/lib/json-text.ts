// Parsing JSON that a person gave us (-f files, config.json, credentials.json, JSON front matter). V8's
// JSON.parse message quotes the text around the error (`..."password": Qz9XSeCrEt"...`), and these files hold
// passwords and API keys, so its message is never shown: a small scanner finds where the text stops being
// JSON and the error names only the file and that line and column.
import { UsageError } from '../errors.js';
import { describeJsonDepthProblem, findJsonDepthProblem } from './json-depth.js';

export interface JsonSyntaxProblem {
  /** What is wrong, in words that quote nothing from the text. */
  reason: string;
  /** 1-based line and column (in characters) of the problem. */
  line: number;
  column: number;
}

export interface ParseJsonOptions {
  /** The error to throw (default UsageError, exit 2). */
  error?: (message: string) => Error;
}

/**
 * JSON.parse, failing with `<label> is not valid JSON (<reason> at line L, column C)`, or with `<label> nests
 * objects and arrays deeper than 256 levels …` (see lib/json-depth.ts). A leading byte order mark is ignored
 * (editors on Windows write one; JSON.parse would refuse it).
 */
export function parseJsonText(text: string, label: string, options: ParseJsonOptions = {}): unknown {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const make = options.error ?? ((message: string) => new UsageError(message));
  const tooDeep = findJsonDepthProblem(source);
  if (tooDeep) throw make(`${label} ${describeJsonDepthProblem(tooDeep)}`);
  try {
    return JSON.parse(source) as unknown;
  } catch {
    throw make(`${label} is not valid JSON (${describeJsonSyntaxProblem(source)})`);
  }
}

/** `unexpected character at line 3, column 12`, or a plain phrase if the scanner finds nothing wrong. */
export function describeJsonSyntaxProblem(text: string): string {
  const problem = findJsonSyntaxProblem(text);
  if (!problem) return 'a syntax error';
  return `${problem.reason} at line ${problem.line}, column ${problem.column}`;
}

const OBJECT = 0;
const ARRAY = 1;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX4 = /[0-9a-fA-F]{4}/y;

/**
 * Where the text first stops being JSON (RFC 8259, as JSON.parse reads it), or undefined if it is valid.
 * Iterative, so deep nesting cannot overflow the stack.
 */
export function findJsonSyntaxProblem(text: string): JsonSyntaxProblem | undefined {
  const n = text.length;
  let i = 0;
  const at = (offset: number, reason: string): JsonSyntaxProblem => ({
    reason: offset >= n ? 'unexpected end of input' : reason,
    ...position(text, offset),
  });
  const skipWhitespace = (): void => {
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
    }
  };
  /** i is on the opening quote; on success it ends after the closing one. */
  const string = (): JsonSyntaxProblem | undefined => {
    const start = i++;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return undefined;
      }
      if (c < 0x20) return at(i, 'a control character (such as a line break) inside a string');
      if (c === 0x5c) {
        const next = text[i + 1];
        if (next === undefined) break;
        if (next === 'u') {
          HEX4.lastIndex = i + 2;
          if (!HEX4.test(text)) return at(i, 'an invalid \\u escape in a string');
          i += 5;
        } else if (ESCAPES.has(next)) i++;
        else return at(i, 'an invalid escape in a string');
      }
    }
    return { reason: 'a string that is never closed', ...position(text, start) };
  };
  const number = (): JsonSyntaxProblem | undefined => {
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    const end = match ? i + match[0].length : i;
    if (!match || /[0-9.eE+-]/.test(text[end] ?? '')) return at(i, 'an invalid number');
    i = end;
    return undefined;
  };

  const stack: number[] = [];
  let expect: 'value' | 'key' | 'after' = 'value';
  skipWhitespace();
  if (i >= n) return { reason: 'no JSON value (the text is empty)', ...position(text, i) };
  for (;;) {
    skipWhitespace();
    if (expect === 'value') {
      if (i >= n) return at(i, '');
      const c = text[i];
      if (c === '{' || c === '[') {
        i++;
        skipWhitespace();
        if (text[i] === (c === '{' ? '}' : ']')) {
          i++;
          expect = 'after';
        } else {
          stack.push(c === '{' ? OBJECT : ARRAY);
          expect = c === '{' ? 'key' : 'value';
        }
        continue;
      }
      let problem: JsonSyntaxProblem | undefined;
      if (c === '"') problem = string();
      else if (c === '-' || (c! >= '0' && c! <= '9')) problem = number();
      else {
        const literal = ['true', 'false', 'null'].find((word) => text.startsWith(word, i));
        if (!literal) return at(i, 'an unexpected character');
        i += literal.length;
      }
      if (problem) return problem;
      expect = 'after';
      continue;
    }
    if (expect === 'key') {
      if (i >= n) return at(i, '');
      if (text[i] !== '"') return at(i, 'a property name that is not in double quotes');
      const problem = string();
      if (problem) return problem;
      skipWhitespace();
      if (text[i] !== ':') return at(i, "a missing ':' after a property name");
      i++;
      expect = 'value';
      continue;
    }
    const top = stack.at(-1);
    if (top === undefined) return i < n ? at(i, 'more text after the JSON value') : undefined;
    if (i >= n) return at(i, '');
    const c = text[i];
    if (c === ',') {
      i++;
      expect = top === OBJECT ? 'key' : 'value';
    } else if (c === (top === OBJECT ? '}' : ']')) {
      i++;
      stack.pop();
    } else {
      return at(i, top === OBJECT ? "a missing ',' or '}'" : "a missing ',' or ']'");
    }
  }
}

/** 1-based line and column; the column counts characters (code points), not UTF-16 units. */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: [...text.slice(lineStart, offset)].length + 1 };
}

// The one nesting limit for JSON that comes in (the sandbox's request bodies, -f files, stdin, config files).
// JSON.parse itself reads 100,000 levels, but what comes after it does not: JSON.stringify overflows the
// stack at about 4,500 levels, structuredClone and the recursive canonicalJson at about 3,000, a zod schema
// walking the value sooner. A value that parses but cannot be written back took the sandbox's store down (every
// save failed) and made the CLI exit 1 with "Maximum call stack size exceeded". Real documents nest a few
// levels (a blog's metaData, WordPress settings); 256 leaves them plenty of room and keeps every recursive
// walk far from the stack's end. A leaf module.

/** The deepest nesting of objects and arrays accepted; one more opening bracket is refused. */
export const MAX_JSON_DEPTH = 256;

export interface JsonDepthProblem {
  /** The limit that was passed. */
  limit: number;
  /** 0-based offset (UTF-16 units) of the bracket that opens level limit + 1. */
  offset: number;
  /** 1-based line and column (in characters) of that bracket. */
  line: number;
  column: number;
}

/**
 * Where the text first nests objects and arrays deeper than `limit`, or undefined. A linear scan that counts
 * brackets outside strings, without recursion, so any depth is safe to check; it does not validate (run it
 * before JSON.parse, which reports syntax errors as before).
 */
export function findJsonDepthProblem(text: string, limit = MAX_JSON_DEPTH): JsonDepthProblem | undefined {
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote, past escapes. An unclosed one ends the scan (JSON.parse reports it).
      for (i++; i < n; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) {
        return { limit, offset: i, line, column: [...text.slice(lineStart, i)].length + 1 };
      }
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    } else if (c === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return undefined;
}

/** `nests objects and arrays deeper than 256 levels (the limit) at line 1, column 257`. */
export function describeJsonDepthProblem(problem: JsonDepthProblem): string {
  return `nests objects and arrays deeper than ${problem.limit} levels (the limit) at line ${problem.line}, column ${problem.column}`;
}

// The nesting limit for JSON that comes in: a linear scan, safe at any depth, that ignores brackets in strings.
import { describe, expect, it } from 'vitest';
import { ExitCode, UsageError } from '../../src/errors.js';
import { findJsonDepthProblem, MAX_JSON_DEPTH } from '../../src/lib/json-depth.js';
import { parseJsonText } from '../../src/lib/json-text.js';

/** `{"a":{"a":…1…}}`, `levels` objects deep. */
const nestedObjects = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('findJsonDepthProblem', () => {
  it('accepts nesting up to the limit and names where the next level opens', () => {
    expect(MAX_JSON_DEPTH).toBe(256);
    expect(findJsonDepthProblem(nestedObjects(256))).toBeUndefined();
    expect(findJsonDepthProblem(nestedObjects(257))).toEqual({
      limit: 256,
      offset: 256 * 5,
      line: 1,
      column: 256 * 5 + 1,
    });
    expect(findJsonDepthProblem('[[[1]]]', 2)).toMatchObject({ offset: 2, column: 3 });
    expect(findJsonDepthProblem('[[1],[2],{"a":[3]}]', 3)).toBeUndefined();
  });

  it('counts lines and columns in characters', () => {
    expect(findJsonDepthProblem('{\n "é😀": [[1]]\n}', 2)).toMatchObject({ line: 2, column: 9 });
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    const inString = JSON.stringify({ a: '[[[[{{{{', b: 'say \\"[[[[\\" and "{{{{"', c: ['\\'] });
    expect(findJsonDepthProblem(inString, 2)).toBeUndefined();
    expect(findJsonDepthProblem(`{"\\"[[[": [[1]]}`, 2)).toMatchObject({ offset: 11 });
  });

  it('scans 4,500 and 5,000 levels without recursion', () => {
    for (const levels of [4_500, 5_000, 100_000]) {
      expect(findJsonDepthProblem(nestedObjects(levels))).toMatchObject({ offset: 256 * 5 });
      expect(findJsonDepthProblem('['.repeat(levels) + ']'.repeat(levels))).toMatchObject({ offset: 256 });
    }
  });
});

describe('parseJsonText refuses JSON nested deeper than the limit', () => {
  it.each([4_500, 5_000])('%i levels: exit 2 naming the file and the limit', (levels) => {
    let error: unknown;
    try {
      parseJsonText(`\uFEFF${nestedObjects(levels)}`, 'deep.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(ExitCode.usage);
    expect((error as Error).message).toBe(
      'deep.json nests objects and arrays deeper than 256 levels (the limit) at line 1, column 1281',
    );
  });

  it('still parses what nests up to the limit', () => {
    expect(parseJsonText(nestedObjects(256), 'ok.json')).toBeTypeOf('object');
  });
});

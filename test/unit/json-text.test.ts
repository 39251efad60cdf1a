// The JSON reader for files people give us: the error names the file and a line and column, never the text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExitCode, UsageError } from '../../src/errors.js';
import { findJsonSyntaxProblem, parseJsonText } from '../../src/lib/json-text.js';

function failure(text: string, label = 'f.json'): Error {
  try {
    parseJsonText(text, label);
  } catch (error) {
    return error as Error;
  }
  throw new Error('parsed');
}

describe('parseJsonText', () => {
  it('parses valid JSON, ignoring a byte order mark', () => {
    expect(parseJsonText('{"a":[1,2]}', 'f.json')).toEqual({ a: [1, 2] });
    expect(parseJsonText('\uFEFF{"a":1}', 'f.json')).toEqual({ a: 1 });
  });

  it('names the file and the line and column, and quotes nothing from it', () => {
    const secret = 'Qz9XSeCrEt';
    const error = failure(`{\n  "user": "me",\n  "password": ${secret}\n}`);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(ExitCode.usage);
    expect(error.message).toBe('f.json is not valid JSON (an unexpected character at line 3, column 15)');
    // Not even a few characters of it, unlike V8's own message.
    for (let i = 0; i + 3 <= secret.length; i++) expect(error.message).not.toContain(secret.slice(i, i + 3));
  });

  it.each([
    ['', 'no JSON value (the text is empty) at line 1, column 1'],
    ['{"a":', 'unexpected end of input at line 1, column 6'],
    ['[1,]', 'an unexpected character at line 1, column 4'],
    ['{"a":1,}', 'a property name that is not in double quotes at line 1, column 8'],
    ["{'a':1}", 'a property name that is not in double quotes at line 1, column 2'],
    ['{"a" 1}', "a missing ':' after a property name at line 1, column 6"],
    ['{"a":1 "b":2}', "a missing ',' or '}' at line 1, column 8"],
    ['[1 2]', "a missing ',' or ']' at line 1, column 4"],
    ['{"a":"x\ny"}', 'a control character (such as a line break) inside a string at line 1, column 8'],
    ['["\\x"]', 'an invalid escape in a string at line 1, column 3'],
    ['["\\u12G4"]', 'an invalid \\u escape in a string at line 1, column 3'],
    ['{"a":\n  "never closed}', 'a string that is never closed at line 2, column 3'],
    ['[01]', 'an invalid number at line 1, column 2'],
    ['[1.]', 'an invalid number at line 1, column 2'],
    ['[-]', 'an invalid number at line 1, column 2'],
    ['{"a":1}x', 'more text after the JSON value at line 1, column 8'],
    ['{"é":"ü", "b": nope}', 'an unexpected character at line 1, column 16'],
    ['{"a":1}\r\n\r\n]', 'more text after the JSON value at line 3, column 1'],
  ])('%j → %s', (text, expected) => {
    expect(failure(text).message).toBe(`f.json is not valid JSON (${expected})`);
  });

  it('lets the caller choose the error', () => {
    class Mine extends Error {}
    expect(() => parseJsonText('{', 'x', { error: (m) => new Mine(m) })).toThrow(Mine);
  });

  it('finds a problem exactly when JSON.parse fails, for any text', () => {
    const jsonish = fc.oneof(
      fc.json(),
      fc.string({ unit: fc.constantFrom(...'{}[]":,.-+eE0123456789 \n\t\\/untrfalse'.split('')) }),
      fc
        .json()
        .chain((text) =>
          fc
            .tuple(fc.nat({ max: text.length }), fc.nat({ max: 3 }), fc.string({ maxLength: 3 }))
            .map(([at, cut, insert]) => text.slice(0, at) + insert + text.slice(at + cut)),
        ),
    );
    fc.assert(
      fc.property(jsonish, (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        expect(findJsonSyntaxProblem(text) === undefined).toBe(valid);
      }),
      { numRuns: 3000 },
    );
  });

  it('survives nesting deeper than the stack', () => {
    const deep = '['.repeat(200_000);
    expect(findJsonSyntaxProblem(deep)?.reason).toBe('unexpected end of input');
  });
});

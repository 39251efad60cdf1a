// The streamed JSON array body (src/http/json-array.ts, split by json-array-split.ts) must agree with
// JSON.parse of the whole body, wherever the network cuts it: same elements for a valid array, "not JSON"
// exactly when JSON.parse throws, and zod's issues with the paths it would give for the whole array.
import fc from 'fast-check';
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { JsonArraySplitter } from '../../src/http/json-array-split.js';
import { StreamedArray, WHOLE_BYTES, type StreamedOutcome } from '../../src/http/json-array.js';
import { check } from '../../src/schemas/validate.js';

/** The body cut into chunks at the given byte offsets (sorted, deduplicated, within the body). */
function chunked(body: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const cut of [...at, body.length]) {
    chunks.push(body.subarray(from, cut));
    from = cut;
  }
  return chunks;
}

function split(chunks: Buffer[]): { state: string; elements: unknown[] } {
  const elements: unknown[] = [];
  const splitter = new JsonArraySplitter((text) => {
    try {
      elements.push(JSON.parse(text));
    } catch {
      splitter.stop();
    }
  });
  for (const chunk of chunks) splitter.push(chunk);
  return { state: splitter.end(), elements };
}

/** What JSON.parse makes of the whole body: the array's elements, 'not-array', or 'not-json'. */
function whole(body: Buffer): unknown[] | 'not-array' | 'not-json' {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return 'not-json';
  }
  return Array.isArray(value) ? value : 'not-array';
}

/** Strings made of the characters a scanner can trip on. */
const tricky = fc.string({
  unit: fc.constantFrom(
    '[',
    ']',
    '{',
    '}',
    '"',
    '\\',
    ',',
    ':',
    ' ',
    '\n',
    'a',
    'é',
    '€',
    '😀',
    '\u2028',
    '\u0000',
  ),
});
const value = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    tricky,
    fc.string({ unit: 'binary' }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(tricky, tie('v'), { maxKeys: 4 }),
  ),
})).v;
const space = fc.constantFrom('', ' ', '\n', '\t', '\r\n  ');

/** A body that may be damaged: cut short, a byte inserted or removed, or left whole. */
const damage = fc.oneof(
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.constantFrom(',', ']', '[', '}', '{', '"', '\\', 'x', '1', ' ', '\uFEFF', '\u00a0'),
  }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
  fc.constant({ kind: 'none' as const }),
);
function damaged(text: string, d: { kind: string; at?: number; text?: string }): string {
  if (d.kind === 'none') return text;
  const at = d.at! % (text.length + 1);
  if (d.kind === 'cut') return text.slice(0, at);
  if (d.kind === 'insert') return text.slice(0, at) + d.text! + text.slice(at);
  return text.slice(0, at) + text.slice(at + 1);
}

describe('JsonArraySplitter', () => {
  it('gives the elements JSON.parse gives, wherever the body is cut', () => {
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 8 }),
        fc.constantFrom(undefined, 2, '\t'),
        space,
        space,
        fc.array(fc.nat(), { maxLength: 12 }),
        (items, indent, before, after, cuts) => {
          const body = Buffer.from(`${before}${JSON.stringify(items, null, indent)}${after}`);
          const { state, elements } = split(chunked(body, cuts));
          expect(state).toBe('done');
          expect(elements).toEqual(whole(body));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('fails exactly when JSON.parse does, for damaged arrays', () => {
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 6 }),
        damage,
        fc.array(fc.nat(), { maxLength: 8 }),
        (items, d, cuts) => {
          const text = damaged(JSON.stringify(items), d);
          const body = Buffer.from(text);
          const expected = whole(body);
          const { state, elements } = split(chunked(body, cuts));
          if (Array.isArray(expected)) {
            expect(state).toBe('done');
            expect(elements).toEqual(expected);
          } else if (state === 'start' || state === 'not-array') {
            // Not an array: the caller reads it whole, as before.
            expect(expected === 'not-array' || expected === 'not-json').toBe(true);
          } else {
            expect(state).toBe('invalid');
            expect(expected).toBe('not-json');
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['[]', 'done', []],
    [' \n[ \t]\r\n', 'done', []],
    ['[1,]', 'invalid', [1]],
    ['[,1]', 'invalid', []],
    ['[1 2]', 'invalid', []],
    // The element parses; what follows the array does not.
    ['[1]x', 'invalid', [1]],
    ['[1}', 'invalid', []],
    ['[{"a":[}]]', 'invalid', []],
    ['["a\\"]", "\\\\"]', 'done', ['a"]', '\\']],
    ['{"a": [1]}', 'not-array', []],
    ['\uFEFF[1]', 'not-array', []],
    ['', 'start', []],
    ['  ', 'start', []],
    ['[1', 'invalid', []],
  ] as const)('%j → %s', (text, state, elements) => {
    // Byte by byte: every state carried across a chunk boundary.
    const body = Buffer.from(text);
    const result = split([...body].map((b) => Buffer.from([b])));
    expect(result.elements).toEqual(elements);
    expect(result.state).toBe(state);
  });
});

// Every StreamedArray test runs twice: with bodies held whole and parsed at the end (how a list of up to
// WHOLE_BYTES arrives), and streamed from the first byte (how a larger one does).
describe.each([
  ['held whole', WHOLE_BYTES],
  ['streamed', 0],
])('StreamedArray, %s', (_mode, wholeBytes) => {
  const item = z.looseObject({ _id: z.string(), title: z.string() });
  const arraySchema = z.array(item);
  /** Up to 8 elements, valid blogs or not (a wrong type, a missing field, not an object). */
  const blogsSomeInvalid = fc.array(
    fc.oneof(
      fc.record({ _id: fc.string(), title: fc.string() }),
      fc.record({ _id: fc.integer(), title: fc.string() }),
      fc.record({ title: fc.constant(null) }),
      fc.integer(),
      fc.constant(null),
    ),
    { maxLength: 8 },
  );

  function stream(text: string, chunkSize = 7): StreamedOutcome<unknown[]> {
    const kept: unknown[] = [];
    const array = new StreamedArray(
      item,
      { add: (b) => void kept.push(b), done: () => kept },
      Infinity,
      wholeBytes,
    );
    const body = Buffer.from(text);
    for (let i = 0; i < body.length; i += chunkSize) array.push(body.subarray(i, i + chunkSize));
    return array.end();
  }

  it('hands over what zod returns for the whole array (its key order included)', () => {
    const text = JSON.stringify([
      { title: 't1', extra: { a: [1, '[{'] }, _id: 'a' },
      { _id: 'b', title: 't2' },
    ]);
    const outcome = stream(text);
    const expected = check(arraySchema, JSON.parse(text));
    expect(expected.ok).toBe(true);
    expect(outcome).toEqual({ kind: 'items', value: expected.ok && expected.value });
    if (outcome.kind === 'items' && expected.ok)
      expect(JSON.stringify(outcome.value)).toBe(JSON.stringify(expected.value));
  });

  it('reports the first three issues with the paths of the whole array', () => {
    fc.assert(
      fc.property(blogsSomeInvalid, fc.integer({ min: 1, max: 40 }), (items, chunkSize) => {
        const text = JSON.stringify(items);
        const expected = check(arraySchema, JSON.parse(text));
        const outcome = stream(text, chunkSize);
        if (expected.ok) expect(outcome.kind).toBe('items');
        else expect(outcome).toEqual({ kind: 'invalid', issues: expected.issues.slice(0, 3) });
      }),
      { numRuns: 300 },
    );
  });

  it('a schema that loads while the body arrives: the same outcome, elements validated in order', () => {
    fc.assert(
      fc.property(
        blogsSomeInvalid,
        fc.integer({ min: 1, max: 40 }),
        fc.nat(),
        (items, chunkSize, loadedAfter) => {
          const text = JSON.stringify(items);
          const kept: unknown[] = [];
          let loaded = false;
          const array = new StreamedArray(
            () => (loaded ? item : undefined),
            { add: (b) => void kept.push(b), done: () => kept },
            Infinity,
            wholeBytes,
          );
          const body = Buffer.from(text);
          const chunks = Math.ceil(body.length / chunkSize);
          // Loaded after some chunks, or only before end() (requestArray waits for it there).
          const at = loadedAfter % (chunks + 1);
          for (let c = 0; c < chunks; c++) {
            if (c === at) loaded = true;
            array.push(body.subarray(c * chunkSize, (c + 1) * chunkSize));
          }
          loaded = true;
          expect(array.end()).toEqual(stream(text, chunkSize));
        },
      ),
      { numRuns: 300 },
    );
  });

  /** An array whose schema is still loading, and never arrives. */
  const schemaNeverLoaded = () =>
    new StreamedArray(() => undefined, { add: () => undefined, done: () => [] }, Infinity, wholeBytes);

  it('an empty array needs no schema', () => {
    const array = schemaNeverLoaded();
    array.push(Buffer.from(' [ ] '));
    expect(array.end()).toEqual({ kind: 'items', value: [] });
  });

  it('end() with elements still waiting for a schema that never came is an error, not a pass', () => {
    const array = schemaNeverLoaded();
    array.push(Buffer.from('[{"_id": "a", "title": "t"}]'));
    expect(() => array.end()).toThrow('the list was read before its schema was loaded');
  });

  it('a syntax error anywhere wins over schema issues, as JSON.parse of the whole body would', () => {
    const outcome = stream('[{"_id": 1, "title": "x"}, {"_id": "a", "title": "unterminated}]');
    expect(outcome).toEqual({
      kind: 'not-json',
      head: '[{"_id": 1, "title": "x"}, {"_id": "a", "title": "unterminated}]',
    });
  });

  it('keeps the start of an invalid body for the message, from its first bracket', () => {
    const padding = 'x'.repeat(400 * 1024);
    const outcome = stream(`  \n[{"_id": "a", "title": "${padding}"}, oops]`, 64 * 1024);
    expect(outcome.kind).toBe('not-json');
    if (outcome.kind === 'not-json') {
      expect(outcome.head.startsWith('[{"_id": "a"')).toBe(true);
      expect(Buffer.byteLength(outcome.head)).toBe(256 * 1024);
    }
  });

  it('hands back a body that is not an array (or empty) whole, for the usual handling', () => {
    expect(stream('{"message": "no"}')).toEqual({ kind: 'buffered', text: '{"message": "no"}' });
    expect(stream(' \n ')).toEqual({ kind: 'buffered', text: ' \n ' });
  });

  it('rethrows what the collector threw once the body is read, not from inside the read', () => {
    const array = new StreamedArray(
      item,
      {
        add: () => {
          throw new Error('collector broke');
        },
        done: () => [],
      },
      Infinity,
      wholeBytes,
    );
    expect(() =>
      array.push(Buffer.from('[{"_id": "a", "title": "t"}, {"_id": "b", "title": "u"}]')),
    ).not.toThrow();
    expect(() => array.end()).toThrow('collector broke');
  });
});

describe('StreamedArray: a body held whole and the same body streamed', () => {
  const item = z.looseObject({ _id: z.string(), title: z.string() });

  /**
   * The outcome, or what was thrown, for the body in chunks; wholeBytes decides how it is read. The collector
   * fails at its element `failAt`, if given.
   */
  function outcome(chunks: Buffer[], wholeBytes: number, maxBytes = Infinity, failAt?: number): unknown {
    const kept: unknown[] = [];
    const array = new StreamedArray(
      item,
      {
        add: (b) => {
          if (kept.length === failAt) throw new Error('collector broke');
          kept.push(b);
        },
        done: () => kept,
      },
      maxBytes,
      wholeBytes,
    );
    try {
      for (const chunk of chunks) array.push(chunk);
      return array.end();
    } catch (error) {
      return { threw: (error as Error).message };
    }
  }

  it('have the same outcome, for valid, invalid and damaged bodies and a failing collector, wherever they switch to streaming', () => {
    const element = fc.oneof(
      fc.record({ _id: fc.string(), title: fc.string() }),
      fc.record({ _id: fc.integer(), title: fc.string() }),
      value,
    );
    fc.assert(
      fc.property(
        fc.array(element, { maxLength: 8 }),
        damage,
        fc.array(fc.nat(), { maxLength: 8 }),
        // Where a body held whole gives up and streams: never, or after some bytes.
        fc.oneof(fc.constant(WHOLE_BYTES), fc.nat({ max: 200 })),
        fc.oneof(fc.constant(Infinity), fc.integer({ min: 1, max: 400 })),
        fc.option(fc.nat({ max: 8 }), { nil: undefined }),
        (items, d, cuts, wholeBytes, maxBytes, failAt) => {
          const body = Buffer.from(damaged(JSON.stringify(items), d));
          const chunks = chunked(body, cuts);
          expect(outcome(chunks, wholeBytes, maxBytes, failAt)).toEqual(outcome(chunks, 0, maxBytes, failAt));
        },
      ),
      { numRuns: 1000 },
    );
  });
});

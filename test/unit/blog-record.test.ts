// The Blog record checks are written by hand so that `blog list`, `show` and `delete` need not load zod
// (src/schemas/blog-record.ts). They must answer exactly as the zod schema they stand for: the same accepted
// value (fields in the same order) and the same field issues, hence the same messages.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blog, blogList } from '../../src/schemas/blog-record.js';
import { blog as zodBlog, blogList as zodBlogList } from '../../src/schemas/blog.js';
import { check, type SafeResult } from '../../src/schemas/validate.js';

/** Anything JSON.parse can give, biased towards records that are nearly blogs. */
const field = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.boolean(), fc.jsonValue());
const record = fc.dictionary(
  fc.oneof(fc.constantFrom('_id', 'title', 'content', '__proto__', 'createdAt'), fc.string()),
  field,
);
const nearBlog = fc.oneof(
  record,
  fc.record({ _id: fc.string(), title: fc.string() }),
  fc
    .tuple(fc.record({ _id: fc.string(), title: fc.string() }), record)
    .map(([head, rest]) => ({ ...rest, ...head })),
  fc.jsonValue(),
);
// Through JSON text, as a response is: an own `__proto__` key and no undefined values.
const asParsed = <T>(arb: fc.Arbitrary<T>) => arb.map((v) => JSON.parse(JSON.stringify(v)) as unknown);

function same(ours: SafeResult<unknown>, theirs: SafeResult<unknown>): void {
  expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
  expect(ours).toEqual(theirs);
  // Plain records: a `__proto__` field must not become a record's prototype.
  if (ours.ok)
    for (const record of Array.isArray(ours.value) ? ours.value : [ours.value])
      expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
}

describe('the hand-written Blog record checks answer as zod does', () => {
  it('one record', () => {
    fc.assert(
      fc.property(asParsed(nearBlog), (value) => {
        same(check(blog, value, 'blog'), check(zodBlog, value, 'blog'));
      }),
      { numRuns: 2000 },
    );
  });

  it('a list of records, and what is not a list', () => {
    fc.assert(
      fc.property(asParsed(fc.oneof(fc.array(nearBlog, { maxLength: 6 }), nearBlog)), (value) => {
        same(check(blogList, value), check(zodBlogList, value));
      }),
      { numRuns: 2000 },
    );
  });

  it('an own __proto__ field is left out, the other fields kept after _id and title', () => {
    const value = JSON.parse('{"extra":1,"__proto__":{"x":1},"title":"T","_id":"i"}') as unknown;
    const ours = check(blog, value);
    same(ours, check(zodBlog, value));
    expect(ours.ok && Object.keys(ours.value)).toEqual(['_id', 'title', 'extra']);
  });

  it('the list exposes its element as zod does (the streamed list validates element by element)', () => {
    expect(blogList.def.element).toBe(blog);
  });
});

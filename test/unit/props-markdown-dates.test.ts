// Property-based tests of two more input parsers: Markdown front matter (parseMarkdownPost) and dates
// (parseDateTime, planSchedule). For any input, each gives a value or a usage error (exit 2) with a one-line
// message — never a TypeError, a RangeError, a stack overflow, a hang, or a malformed date sent to WordPress.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExitCode, UsageError } from '../../src/errors.js';
import { FIELD_NAMES } from '../../src/publishing/sources/front-matter-fields.js';
import { parseMarkdownPost } from '../../src/publishing/sources/markdown.js';
import { formatUtc, parseDateTime, planSchedule } from '../../src/publishing/sources/schedule.js';

/** What WordPress stores (MySQL DATETIME): years 1000 to 9999. */
const DATE_GMT = /^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

function parseOrUsage(text: string): 'value' | 'usage' {
  try {
    const post = parseMarkdownPost(text, { path: 'post.md', cwd: '/tmp' });
    expect(typeof post.html).toBe('string');
    expect(Array.isArray(post.ignoredKeys)).toBe(true);
    return 'value';
  } catch (error) {
    if (!(error instanceof UsageError))
      throw new Error(`not a usage error: ${String(error)}`, { cause: error });
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toMatch(/^post\.md/);
    expect(error.message).not.toContain('\n');
    return 'usage';
  }
}

/** Every field blogctl reads, one it does not, and an empty key. */
const KEYS = [...FIELD_NAMES, 'other', ''];

/** YAML values of every kind, well and badly formed. */
const yamlValue = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom(
    '',
    '~',
    'null',
    'true',
    'no',
    '0',
    '-1',
    '1e400',
    '0x1F',
    '.nan',
    '2026-12-01',
    '2026-12-01T09:00:00+02:00',
    '2026-13-45 25:61',
    '[a, 1, [2]]',
    '{a: 1, b: [x]}',
    '[unclosed',
    '{a: ',
    '"quoted',
    "'single'",
    '|\n  block\n  text',
    '>\n  folded',
    '&anchor value',
    '*anchor',
    '*missing',
    '!!binary aGVsbG8=',
    '!!str 5',
    '!<tag:x> y',
    '!!js/function "function(){}"',
    '- a\n- b',
    'a: b: c',
    '\t tabbed',
    'https://x/y.png',
    'draft',
    'future',
    'publish',
    'closed',
    'aside',
  ),
  fc.integer(),
  fc.double(),
);

const frontMatterLine = fc
  .tuple(fc.constantFrom(...KEYS), yamlValue, fc.constantFrom('', '  ', '- '))
  .map(([key, value, indent]) => `${indent}${key}: ${String(value)}`);

const body = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.constantFrom('# Heading\n\nText', '# \n', '[ref]: http://x\n', '<script>x</script>', '```\ncode', ''),
);

describe('parseMarkdownPost: a post or exit 2, for any text', () => {
  it('any text at all', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => void parseOrUsage(text)),
      { numRuns: 1000 },
    );
  });

  it('YAML front matter of every shape', () => {
    fc.assert(
      fc.property(
        fc.array(frontMatterLine, { maxLength: 8 }),
        body,
        fc.constantFrom('---', '---yaml', '--- ', '---\r'),
        (lines, text, open) => void parseOrUsage(`${open}\n${lines.join('\n')}\n---\n${text}`),
      ),
      { numRuns: 1500 },
    );
  });

  it('JSON front matter, valid or not', () => {
    const json = fc.oneof(
      fc.json(),
      fc.dictionary(fc.constantFrom(...KEYS), fc.jsonValue()).map((o) => JSON.stringify(o)),
      fc.string({ maxLength: 60 }),
    );
    fc.assert(
      fc.property(json, body, (front, text) => void parseOrUsage(`---json\n${front}\n---\n${text}`)),
      { numRuns: 1000 },
    );
  });

  it('found by these properties: a mapping with its own toString is reported, not a TypeError', () => {
    for (const text of ['---\nstatus: {toString: ""}\n---\n', '---json\n{"sticky": {"toString": 1}}\n---\n'])
      expect(parseOrUsage(text)).toBe('usage');
  });

  it('refuses script front matter rather than run it', () => {
    expect(parseOrUsage('---js\n{ title: (() => { throw new Error("ran") })() }\n---\n')).toBe('usage');
  });
});

/** Date-like text: mostly close to ISO 8601, so the checks behind the pattern are reached. */
const dateText = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc
    .tuple(
      // The edges of what WordPress's four-digit years can hold, where an offset can push past them.
      fc.oneof(fc.integer({ min: 0, max: 99_999 }), fc.constantFrom(999, 1000, 9999, 10_000)),
      fc.oneof(fc.integer({ min: 0, max: 99 }), fc.constantFrom(1, 12)),
      fc.oneof(fc.integer({ min: 0, max: 99 }), fc.constantFrom(1, 31)),
      fc.constantFrom('T', ' ', 't', ''),
      fc.oneof(fc.integer({ min: 0, max: 99 }), fc.constantFrom(0, 23)),
      fc.integer({ min: 0, max: 99 }),
      fc.option(fc.integer({ min: 0, max: 99 })),
      fc.option(fc.stringMatching(/^[.,]\d{1,12}$/)),
      fc.constantFrom('', 'Z', 'z', '+02:00', '-23:59', '+99:99', '+0530', '-12', ' +01:00', '+24:00'),
    )
    .map(([y, mo, d, sep, h, mi, s, frac, zone]) => {
      const p = (n: number, w = 2) => String(n).padStart(w, '0');
      const time = sep ? `${sep}${p(h)}:${p(mi)}${s === null ? '' : `:${p(s)}${frac ?? ''}`}` : '';
      return `${p(y, 4)}-${p(mo)}-${p(d)}${time}${sep ? zone : ''}`;
    }),
);

describe('dates: an instant, or an error message, for any text', () => {
  it('parseDateTime never throws; what it accepts is a real instant WordPress can take', () => {
    fc.assert(
      fc.property(
        dateText,
        fc.constantFrom('local', 'utc') as fc.Arbitrary<'local' | 'utc'>,
        (text, zone) => {
          const parsed = parseDateTime(text, zone);
          if ('error' in parsed) {
            expect(parsed.error.length).toBeGreaterThan(0);
            expect(parsed.error).not.toContain('\n');
            return;
          }
          if (!('date' in parsed)) throw new Error('a local or UTC reading gives an instant');
          expect(Number.isNaN(parsed.date.getTime())).toBe(false);
          expect(formatUtc(parsed.date)).toMatch(DATE_GMT);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('found by these properties: an offset that pushes a date past year 9999 or before 1000', () => {
    expect(parseDateTime('9999-12-31T23:00-23:59', 'local')).toEqual({
      error: '"9999-12-31T23:00-23:59" is year 10000 in UTC; WordPress takes years 1000 to 9999',
    });
    expect(parseDateTime('1000-01-01T00:00+02:00', 'utc')).toMatchObject({ error: /is year 999 in UTC/ });
    const plan = planSchedule({ status: 'future', date: '9999-12-31T23:00-23:59', now: new Date() });
    expect(plan.error).toMatch(/^--date: .*WordPress takes years 1000 to 9999$/);
    expect(plan.date_gmt).toBeUndefined();
  });

  it('planSchedule never throws: an error (exit 2) or a plan with a well-formed date_gmt', () => {
    const status = fc.constantFrom('draft', 'publish', 'future', 'pending', 'private', '');
    fc.assert(
      fc.property(
        status,
        fc.option(dateText),
        fc.option(dateText),
        fc.boolean(),
        fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        (s, date, dateGmt, force, now) => {
          const plan = planSchedule({
            status: s,
            ...(date !== null && { date }),
            ...(dateGmt !== null && { dateGmt }),
            allowImmediate: force,
            now,
            zone: { timeZone: 'Europe/Berlin' },
          });
          expect(Array.isArray(plan.warnings)).toBe(true);
          if (plan.error !== undefined) {
            expect(plan.error).not.toContain('\n');
            return;
          }
          if (plan.date_gmt !== undefined) expect(plan.date_gmt).toMatch(DATE_GMT);
          if (plan.date !== undefined) expect(plan.date).toMatch(DATE_GMT);
          expect(plan.date !== undefined && plan.date_gmt !== undefined).toBe(false);
          if (s === 'future' && !force) expect(plan.date_gmt ?? plan.date).toBeDefined();
        },
      ),
      { numRuns: 5000 },
    );
  });
});

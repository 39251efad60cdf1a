// Property-based tests of what the HTTP layer reads from peers: Retry-After, error bodies, backoff arithmetic.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractPeerMessage } from '../../src/http/message.js';
import { backoffDelay, defaultRetryPolicy, parseRetryAfter } from '../../src/http/retry.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const TAG = /<\/?[A-Za-z!?][^>]*>/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

describe('parseRetryAfter', () => {
  it('never throws; returns undefined or a finite, non-negative number of ms', () => {
    fc.assert(
      fc.property(
        fc.option(fc.string({ unit: 'binary' }), { nil: undefined }),
        fc.integer(),
        (value, now) => {
          const ms = parseRetryAfter(value, now);
          expect(ms === undefined || (Number.isFinite(ms) && ms >= 0)).toBe(true);
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('reads delay-seconds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000_000 }),
        fc.constantFrom('', ' ', '\t'),
        (seconds, pad) => {
          expect(parseRetryAfter(`${pad}${seconds}${pad}`, NOW)).toBe(seconds * 1000);
        },
      ),
    );
  });

  it('reads IMF-fixdate, RFC 850 and asctime dates to the second', () => {
    fc.assert(
      fc.property(fc.integer({ min: -86_400, max: 86_400 * 365 }), (offset) => {
        const at = new Date(NOW + offset * 1000);
        const imf = at.toUTCString();
        const [wd, day, mon, year, time] = imf.replace(',', '').split(' ') as [
          string,
          string,
          string,
          string,
          string,
        ];
        const long = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][
          at.getUTCDay()
        ]!;
        const rfc850 = `${long}, ${day}-${mon}-${year.slice(2)} ${time} GMT`;
        const asctime = `${wd} ${mon} ${String(at.getUTCDate()).padStart(2, ' ')} ${time} ${year}`;
        const expected = Math.max(0, offset * 1000);
        expect(parseRetryAfter(imf, NOW)).toBe(expected);
        expect(parseRetryAfter(asctime, NOW)).toBe(expected);
        // Two-digit years are read by Date.parse in a 1950–2049 window.
        if (Number(year) < 2050) expect(parseRetryAfter(rfc850, NOW)).toBe(expected);
      }),
    );
  });

  it('does not take numbers in other shapes, or loose date-like text, for a delay', () => {
    for (const v of ['-1', '1e3', '0x10', '2', '1,5', 'soon', 'Tomorrow', '2026-01-01', 'Jan 1 2030']) {
      if (v === '2') expect(parseRetryAfter(v, NOW)).toBe(2000);
      else expect(parseRetryAfter(v, NOW), v).toBeUndefined();
    }
  });
});

describe('backoffDelay', () => {
  it('stays within [0, base·2^attempt], or exactly the Retry-After when that is longer', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.option(fc.integer({ min: 0, max: 10_000_000 }), { nil: undefined }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, base, retryAfter, r) => {
          const policy = { ...defaultRetryPolicy, baseDelayMs: base };
          const delay = backoffDelay(policy, attempt, retryAfter, () => r);
          expect(Number.isFinite(delay)).toBe(true);
          expect(delay).toBeGreaterThanOrEqual(retryAfter ?? 0);
          if (retryAfter === undefined || delay > retryAfter) {
            expect(delay).toBeLessThanOrEqual(base * 2 ** Math.min(attempt, 30));
          }
        },
      ),
    );
  });
});

describe('extractPeerMessage', () => {
  const html = fc
    .array(
      fc.oneof(
        fc.string(),
        fc.constantFrom(
          '<title>',
          '</title>',
          '<h1>',
          '</h1>',
          '<script>',
          '</script>',
          '<style>',
          '<!--',
          '-->',
          '&lt;b&gt;',
          '&#60;i&#62;',
          '&#x3c;u&#x3e;',
          '&amp;lt;',
          '<b',
          '\u001b[31m',
          '\u009b2J',
          '\u202e',
          '\ud83d\ude00',
        ),
      ),
      { maxLength: 40 },
    )
    .map((parts) => parts.join(''));
  const jsonBody = fc
    .oneof(
      fc.anything(),
      fc.record(
        { message: fc.oneof(html, fc.anything()), code: fc.oneof(html, fc.anything()) },
        { requiredKeys: [] },
      ),
      fc.record({ errors: fc.array(fc.oneof(html, fc.record({ field: fc.anything(), message: html }))) }),
    )
    .map((v) => {
      try {
        return JSON.stringify(v) ?? 'null';
      } catch {
        return '{}';
      }
    });
  const contentType = fc.option(
    fc.constantFrom('text/html', 'application/json', 'text/plain', 'application/problem+json'),
    {
      nil: undefined,
    },
  );

  it('never throws, never returns a tag or a control character, and stays within 300 characters', () => {
    fc.assert(
      fc.property(fc.oneof(html, jsonBody, fc.string({ unit: 'binary' })), contentType, (text, type) => {
        const { message, code } = extractPeerMessage(text, type);
        for (const out of [message, code]) {
          if (out === undefined) continue;
          expect(typeof out).toBe('string');
          expect(out.length).toBeGreaterThan(0);
          expect(out.length).toBeLessThanOrEqual(300);
          expect(out).not.toMatch(TAG);
          expect(out).not.toMatch(CONTROL);
          expect(out).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
          expect(out).toBe(out.trim());
          expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
        }
        if (code !== undefined) expect(code.length).toBeLessThanOrEqual(100);
      }),
      { numRuns: 3_000 },
    );
  });

  it('handles hostile shapes: deep nesting, huge lists, objects posing as field names', () => {
    const deep = '['.repeat(5_000) + '"x"' + ']'.repeat(5_000);
    expect(() => extractPeerMessage(deep, 'application/json')).not.toThrow();
    const many = JSON.stringify({ errors: Array.from({ length: 100_000 }, (_, i) => `e${i}`) });
    expect(extractPeerMessage(many, 'application/json').message!.length).toBeLessThanOrEqual(300);
    const poser = JSON.stringify({ errors: [{ field: { toString: 1 }, message: 'bad' }] });
    expect(extractPeerMessage(poser, 'application/json')).toEqual({ message: 'bad' });
    const page = `<html><title>${'<title>'.repeat(50_000)}</html>`;
    // Linear work takes milliseconds; a scan quadratic in the 50,000 tags would take minutes. The bound
    // only tells the two apart, on any machine.
    const started = Date.now();
    extractPeerMessage(page, 'text/html');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('keeps the words of a WordPress error and of an HTML page', () => {
    expect(
      extractPeerMessage(
        '{"code":"incorrect_password","message":"<strong>Error:<\\/strong> The password you entered is incorrect."}',
        'application/json',
      ),
    ).toEqual({ code: 'incorrect_password', message: 'Error: The password you entered is incorrect.' });
    expect(
      extractPeerMessage('<html><head><title>502 Bad Gateway</title></head></html>', 'text/html'),
    ).toEqual({
      message: '502 Bad Gateway',
    });
    expect(extractPeerMessage('{"message":"\\u001b]0;pwned\\u0007hello"}', 'application/json')).toEqual({
      message: ']0;pwned hello',
    });
  });
});

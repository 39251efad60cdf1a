// scrubSecret: a secret in any form a peer could echo it in (itself, base64 alone or inside a longer
// encoding at any alignment, URL-safe base64, hex, percent-encoding, cut short around "…", "..." or "***")
// is replaced; text that only shares a few characters with it is left alone.
import { describe, expect, it } from 'vitest';
import { scrubSecret, secretForms } from '../../src/lib/secret-forms.js';

const KEY = 'sk-proj-Zq9/+xY7w3kLm0pQ8rT2vB6nJ4hG1fD5';
const scrub = (text: string): string => scrubSecret(text, KEY, '[key]');
const b64 = (text: string): string => Buffer.from(text).toString('base64');

describe('scrubSecret', () => {
  it.each([
    ['itself', `the key ${KEY} was refused`],
    ['base64', `echo: ${b64(KEY)}`],
    ['base64 of a Bearer header', `auth=${b64(`Bearer ${KEY}`)}`],
    ['base64 of Basic user:key', `Basic ${b64(`u:${KEY}`)}`],
    ['base64 inside JSON', b64(JSON.stringify({ headers: { authorization: `Bearer ${KEY}` } }))],
    ['URL-safe base64', b64(`xx${KEY}`).replace(/\+/g, '-').replace(/\//g, '_')],
    ['hex', Buffer.from(KEY).toString('hex')],
    ['upper-case hex', Buffer.from(`:${KEY}`).toString('hex').toUpperCase()],
    ['percent-encoded', `?key=${encodeURIComponent(KEY)}`],
    ['cut with ...', `Incorrect API key provided: ${KEY.slice(0, 28)}...`],
    ['cut with … both ends', `key ${KEY.slice(0, 10)}…${KEY.slice(-4)}.`],
    ['masked with ***', `key ${KEY.slice(0, 5)}***${KEY.slice(-2)}`],
  ])('%s', (_form, text) => {
    const out = scrub(text);
    expect(out).toContain('[key]');
    for (const form of secretForms(KEY)) expect(out).not.toContain(form);
    expect(out).not.toContain(KEY.slice(0, 10));
    expect(out).not.toContain(KEY.slice(-6));
  });

  it('leaves ordinary text alone, dots and stars included', () => {
    const text = 'Wait... the sk-proj prefix *** is documented; see https://example.com/a...b and so on…';
    expect(scrub(text)).toBe(text);
  });

  it('does nothing without a secret', () => {
    expect(scrubSecret(`x ${KEY}`, undefined, '[key]')).toBe(`x ${KEY}`);
  });
});

// Every reader of a terminal's width takes it only when it is usable: 0, negative, fractional, NaN and absurd
// widths fall back as if the terminal had reported none.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { IO } from '../../src/output/io.js';
import { usableWidth } from '../../src/output/terminal-width.js';
import { helpWidthOf } from '../../src/output/wrap.js';

const UNUSABLE = [0, -1, -80, 0.5, 79.5, Number.NaN, Number.POSITIVE_INFINITY, 1e9, undefined];

describe('terminal widths', () => {
  it.each(UNUSABLE)('%s columns is no width', (columns) => {
    expect(usableWidth(columns)).toBeUndefined();
    expect(helpWidthOf({ isTTY: true, columns })).toBe(80);
    const stdout = Object.assign(new PassThrough(), { isTTY: true, columns });
    expect(new IO({ stdout, env: {} }).columns).toBe(80);
    expect(new IO({ stdout, env: { COLUMNS: '120' } }).columns).toBe(120);
    expect(new IO({ stdout, env: { COLUMNS: String(columns) } }).columns).toBe(80);
  });

  it.each([1, 40, 80, 200, 10_000])('%s columns is taken as it is', (columns) => {
    expect(usableWidth(columns)).toBe(columns);
    expect(helpWidthOf({ isTTY: true, columns })).toBe(columns);
    const stdout = Object.assign(new PassThrough(), { isTTY: true, columns });
    expect(new IO({ stdout, env: { COLUMNS: '120' } }).columns).toBe(columns);
  });
});

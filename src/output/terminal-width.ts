// The width a terminal reports, taken only when it is one a layout can use. A pseudo-terminal may report 0
// columns (`script` after `stty cols 0`, some git hooks and CI runners), and a broken one anything at all
// (negative, fractional, billions); every reader of a width goes through usableWidth(), and a live line is
// drawn only while the width is usable (a spinner that divides by 0 columns redraws forever).

/** The widest terminal taken at its word; a wider report is treated as no report. */
export const MAX_TERMINAL_WIDTH = 10_000;

/** `value` when it is a whole number of columns from 1 to MAX_TERMINAL_WIDTH, otherwise undefined. */
export function usableWidth(value: unknown): number | undefined {
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) value = Number(value);
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_TERMINAL_WIDTH
    ? value
    : undefined;
}

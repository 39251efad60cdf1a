// The bounds of a response body, from the environment: one answer's size, and a list answer's size and
// number of items as a whole.
import { UsageError } from '../errors.js';
import type { ListLimits } from './json-array.js';

const MIB = 1024 * 1024;
// Generous for a list of full blogs, small enough that a runaway body cannot exhaust a CI runner's memory.
const DEFAULT_MAX_RESPONSE_MB = 100;
/**
 * A list answer as a whole (blog list): room for far more blogs than an account holds, and little enough that
 * keeping every item (a table needs them all) stays within a small machine's memory.
 */
const DEFAULT_MAX_LIST_MB = 256;
const DEFAULT_MAX_LIST_ITEMS = 100_000;

/** BLOGCTL_MAX_RESPONSE_MB (test/ops knob): the largest response body, in MiB. */
export function maxResponseBytesFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env['BLOGCTL_MAX_RESPONSE_MB'];
  if (raw === undefined || raw.trim() === '') return DEFAULT_MAX_RESPONSE_MB * MIB;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > 4096) {
    throw new UsageError(
      `BLOGCTL_MAX_RESPONSE_MB: expected a size in MiB from 0 to 4096 (e.g. 100 or 0.5), got "${raw}"`,
    );
  }
  return Math.floor(n * MIB);
}

/**
 * BLOGCTL_MAX_LIST_MB and BLOGCTL_MAX_LIST_ITEMS: the bounds of a list answer as a whole (its body's size
 * and its number of items). Each item is also bounded by BLOGCTL_MAX_RESPONSE_MB.
 */
export function listLimitsFromEnv(env: NodeJS.ProcessEnv): ListLimits {
  const mb = env['BLOGCTL_MAX_LIST_MB'];
  const items = env['BLOGCTL_MAX_LIST_ITEMS'];
  let maxBytes = DEFAULT_MAX_LIST_MB * MIB;
  let maxItems = DEFAULT_MAX_LIST_ITEMS;
  if (mb !== undefined && mb.trim() !== '') {
    const n = Number(mb);
    if (!Number.isFinite(n) || n <= 0 || n > 16384)
      throw new UsageError(
        `BLOGCTL_MAX_LIST_MB: expected a size in MiB from 0 to 16384 (e.g. 256 or 0.5), got "${mb}"`,
      );
    maxBytes = Math.floor(n * MIB);
  }
  if (items !== undefined && items.trim() !== '') {
    const n = Number(items);
    if (!Number.isInteger(n) || n < 1)
      throw new UsageError(
        `BLOGCTL_MAX_LIST_ITEMS: expected a whole number of items (e.g. 100000), got "${items}"`,
      );
    maxItems = n;
  }
  return { maxBytes, maxItems };
}

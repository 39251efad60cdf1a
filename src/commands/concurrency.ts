// `--concurrency` (blog delete, wp publish), in a module of its own: a verb that parses it loads nothing of
// the other verb's.
import { UsageError } from '../errors.js';
import { positiveInt } from '../lib/positive-int.js';

const MAX_CONCURRENCY = 64;

export function parseConcurrency(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  return positiveInt('--concurrency', raw, MAX_CONCURRENCY, UsageError);
}

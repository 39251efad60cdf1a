// `--concurrency` (blog delete, wp publish), apart from the blog verbs: wp publish needs only this parser, and
// importing it from blog/delete.ts loaded the blog list and blog parameter modules and their zod schemas.
import { UsageError } from '../errors.js';
import { positiveInt } from '../lib/positive-int.js';

export const MAX_CONCURRENCY = 64;

export function parseConcurrency(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  return positiveInt('--concurrency', raw, MAX_CONCURRENCY, UsageError);
}

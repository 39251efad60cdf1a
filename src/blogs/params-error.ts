// BlogParamsError apart from params.ts: blog list reports its flags with it and needs none of the
// parameter parsing (or its zod schemas) that params.ts builds when it loads (a start-up device kept by
// measurement: CONTRIBUTING.md, Performance).
import { UsageError } from '../errors.js';

/** A bad flag or file value: a usage error (exit 2), named so callers can tell where it came from. */
export class BlogParamsError extends UsageError {}

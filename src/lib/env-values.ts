// Values read from environment variables, read alike wherever they are used (the CLI, its HTTP layer and the
// sandbox): a switch is on unless empty, `0` or `false`; a time is whole milliseconds, and an unreadable one
// is refused, never silently ignored.
import { UsageError } from '../errors.js';

/** A switch (`BLOGCTL_DEBUG=1`): set and not empty, `0` or `false` (any case). */
export function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** A whole number of milliseconds from 0 to `max`; unset or blank is undefined. */
export function msFromEnv(env: NodeJS.ProcessEnv, name: string, max = 3_600_000): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw new UsageError(
      `${name}: expected a whole number of milliseconds from 0 to ${max}, got "${raw.trim()}"`,
    );
  return n;
}

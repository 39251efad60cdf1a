// Waiting on a condition, never on the clock: a test polls what it needs to be true, and the deadline only
// turns a condition that never comes into a failure naming it (rather than a hung test).
import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitOptions {
  /** Fail after this long; generous, since it bounds a hang and not a speed. Default 20 s. */
  timeoutMs?: number;
  /** How often to look. Default 20 ms. */
  everyMs?: number;
}

/** Resolves once `condition()` holds (it may be async); throws naming `what` when the deadline passes. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  { timeoutMs = 20_000, everyMs = 20 }: WaitOptions = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await sleep(everyMs);
  }
}

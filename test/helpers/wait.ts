// Waiting on a condition, never on the clock: a test polls what it needs to be true, and the deadline only
// turns a condition that never comes into a failure naming it (rather than a hung test). The one waitFor of
// the suite: the terminals of pty.ts, the process states of process-state.ts and every test wait through it.
import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitOptions {
  /** Fail after this long; generous, since it bounds a hang and not a speed. Default 20 s. */
  timeoutMs?: number;
  /** How often to look. Default 20 ms. */
  everyMs?: number;
}

/**
 * Resolves once `condition()` holds (it may be async); throws naming `what` when the deadline passes. `what`
 * may be a function, called only then, to describe the state the wait ended in (a terminal's screen).
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string | (() => string),
  { timeoutMs = 20_000, everyMs = 20 }: WaitOptions = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      throw new Error(
        `gave up after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`,
      );
    }
    await sleep(everyMs);
  }
}

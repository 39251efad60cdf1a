// What a child process is doing, read from Linux's /proc: whether it has a handler for a signal, and whether
// it has started up and now sits waiting. A test sends a signal once the child is in the state the test is
// about, instead of after a guessed delay.
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { waitFor } from './wait.js';

/** Whether the process has a handler for `signal` (the SigCgt mask of /proc/<pid>/status). */
export function catches(pid: number, signal: NodeJS.Signals): boolean {
  const mask = /^SigCgt:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (mask === undefined) return false;
  return ((BigInt(`0x${mask}`) >> BigInt(constants.signals[signal] - 1)) & 1n) === 1n;
}

/** The CPU time the process (all its threads) has used, in clock ticks (/proc/<pid>/stat utime + stime). */
export function cpuTicks(pid: number): number {
  // Fields after the command name, which is in parentheses and may hold spaces: state is the first.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Resolves once the process handles `signal` and has used no CPU time over `quietLooks` looks in a row: it
 * has started up and sits waiting (for a lock, a timer, stdin or an answer), its handler in place.
 */
export async function waitUntilWaiting(
  pid: number,
  signal: NodeJS.Signals,
  { quietLooks = 4, timeoutMs = 20_000 }: { quietLooks?: number; timeoutMs?: number } = {},
): Promise<void> {
  let last = -1;
  let quiet = 0;
  await waitFor(
    () => {
      if (!catches(pid, signal)) return false;
      const ticks = cpuTicks(pid);
      quiet = ticks === last ? quiet + 1 : 0;
      last = ticks;
      return quiet >= quietLooks;
    },
    `process ${pid} to handle ${signal} and wait`,
    { timeoutMs, everyMs: 50 },
  );
}

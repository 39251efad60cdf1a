// What a child process is doing, read from Linux's /proc: whether it has started up and now sits waiting. A
// test sends a signal once the child is in the state the test is about, instead of after a guessed delay.
// (The signal mask says nothing here: Node catches SIGINT and SIGTERM from its first instant, to restore the
// terminal, whether or not the program has a handler.)
import { readFileSync } from 'node:fs';
import { waitFor } from './wait.js';

/** The process's state letter and the CPU time it has used, all threads, in clock ticks (/proc/<pid>/stat). */
export function cpuState(pid: number): { state: string; ticks: number } {
  // Fields after the command name, which is in parentheses and may hold spaces: state is the first.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { state: fields[0]!, ticks: Number(fields[11]) + Number(fields[12]) };
}

/**
 * Resolves once the process has been asleep (state S: blocked, not waiting for a CPU) and used no CPU time
 * over `quietLooks` looks in a row: start-up is over and it sits waiting (for a lock, a timer, stdin or an
 * answer). Start-up never sleeps that long without using the CPU; a loaded machine only makes it wait for a
 * CPU (state R), which does not count.
 */
export async function waitUntilWaiting(
  pid: number,
  { quietLooks = 5, timeoutMs = 20_000 }: { quietLooks?: number; timeoutMs?: number } = {},
): Promise<void> {
  let last = -1;
  let quiet = 0;
  await waitFor(
    () => {
      const { state, ticks } = cpuState(pid);
      quiet = state === 'S' && ticks === last ? quiet + 1 : 0;
      last = ticks;
      return quiet >= quietLooks;
    },
    `process ${pid} to sit waiting`,
    { timeoutMs, everyMs: 50 },
  );
}

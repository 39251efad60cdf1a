// Which list of secrets the code running now registers into and redacts with (redact.ts): the run's own,
// inside withOwnSecrets, else the process's. Apart from redact.ts so that a run that never reports (--help,
// --version) does not load the redaction code to start its scope.
import { AsyncLocalStorage } from 'node:async_hooks';

interface SecretList {
  secrets: Set<string>;
  /** The secrets, longest first: a secret that contains another (a Basic header, its password) is hidden whole. */
  longestFirst: string[];
}

const processList: SecretList = { secrets: new Set(), longestFirst: [] };
const runList = new AsyncLocalStorage<SecretList>();

/** The list of the run in progress (withOwnSecrets), else the process's. */
export function currentSecrets(): SecretList {
  return runList.getStore() ?? processList;
}

/**
 * Runs `fn` with a list of secrets of its own, which everything it does (awaited or not) registers into and
 * redacts with. A CLI process runs once, so for it this is the process's list; runs of the command tree
 * in-process (the tests) are then kept apart, concurrent ones included, as processes are: a secret one run
 * registered never hides another run's leak.
 */
export function withOwnSecrets<T>(fn: () => T): T {
  return runList.run({ secrets: new Set(), longestFirst: [] }, fn);
}

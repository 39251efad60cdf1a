// The one way a destructive command gets its go-ahead (CONTRIBUTING.md, conventions): `--yes`, or a person
// at a terminal saying yes to a question that defaults to no. Without a terminal and without --yes it
// refuses, naming --yes, before anything is changed.
import { CancelledError, UsageError } from '../errors.js';
import type { Deps } from '../factory.js';

export interface Confirmation {
  /** --yes was given. */
  yes: boolean | undefined;
  /** The command, as the refusal names it: `wp sites remove`. */
  command: string;
  /** What it does, for the refusal: `remove a site profile and its password`. */
  action: string;
  /** The question, answered y/N. */
  question: string;
  /** What a "no" leaves: `nothing was removed`. */
  untouched: string;
  /**
   * Shows what is at stake (blog delete's titles) once it is known that a person will be asked, and not
   * before: without a terminal the refusal comes first, and nothing is looked up for it.
   */
  beforeAsking?: () => Promise<void>;
}

export async function confirmOrYes(c: Confirmation, deps: Pick<Deps, 'io' | 'prompter'>): Promise<void> {
  if (c.yes) return;
  const { io } = deps;
  if (!io.canPrompt)
    throw new UsageError(
      `${c.command} needs --yes to ${c.action} without asking (cannot ask: ${io.noInputReason}); ${c.untouched}`,
    );
  await c.beforeAsking?.();
  if (!(await deps.prompter().confirm(c.question, { default: false })))
    throw new CancelledError(`cancelled: ${c.untouched}`);
}

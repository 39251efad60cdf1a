import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { DEFAULT_HELP_WIDTH } from '../../output/wrap.js';
import { helpTopic } from './topics.js';

/** Prints the topic `words` name, or the help of the command they name; exit 2 for anything else. */
export function action(words: string[], command: Command): void {
  const output = command.configureOutput();
  const text = helpTopic(words.join(' '), output.getOutHelpWidth?.() ?? DEFAULT_HELP_WIDTH);
  if (text !== undefined) return void output.writeOut?.(text);
  const target = words.reduce<Command | null | undefined>(
    (cmd, name) => cmd?.commands.find((c) => c.name() === name || c.aliases().includes(name)),
    command.parent,
  );
  if (!target)
    throw new UsageError(`"${words.join(' ')}": neither a help topic nor a command`, {
      hints: ['the topics: environment, exit-codes; or a command name, as in blogctl help wp publish'],
    });
  target.outputHelp();
}

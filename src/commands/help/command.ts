// `blogctl help [topic...]`: a command's help, or a topic's (environment, exit-codes).
import type { Command } from 'commander';
import { verb, type Verb } from '../define.js';

function declare() {
  return verb('help', {
    description: 'help for a command, or a topic: environment, exit-codes',
    jsonFields: 'none',
    examples: ['blogctl help exit-codes', 'blogctl help environment', 'blogctl help wp publish'],
  }).argument('[topic...]');
}

/** Help needs no dependencies (config, IO): its action gets the words and its own command, nothing more. */
export const help: Verb = () => {
  const command = declare();
  command.action(async (topic, _opts, self) => {
    const { action } = await import('./action.js');
    action(topic, self as unknown as Command);
  });
  return command as unknown as Command;
};

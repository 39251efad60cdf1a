import { defineVerb, verb, type InputOf } from '../../../define.js';

function declare() {
  return verb('remove', {
    description: 'remove a site profile and its stored password (asks, or --yes)',
    jsonFields: ['id', 'removed', 'defaultUnset'],
    examples: ['blogctl wp sites remove myblog', 'blogctl wp sites remove myblog --yes'],
  })
    .alias('rm')
    .argument('<id>')
    .option('-y, --yes', 'do not ask for confirmation (required when there is no terminal)');
}

export type Input = InputOf<typeof declare>;
export const remove = defineVerb(declare, () => import('./action.js'));

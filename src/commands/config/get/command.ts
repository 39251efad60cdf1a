import { defineVerb, verb, type InputOf } from '../../define.js';

function declare() {
  return verb('get', {
    description: 'print one setting (an unset one: its default, said so on stderr)',
    jsonFields: ['key', 'value', 'default'],
    examples: ['blogctl config get base-url'],
  }).argument('<key>');
}

export type Input = InputOf<typeof declare>;
export const get = defineVerb(declare, () => import('./action.js'));

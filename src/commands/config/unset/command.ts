import { defineVerb, verb, type InputOf } from '../../define.js';

function declare() {
  return verb('unset', {
    description: 'remove a setting',
    jsonFields: ['key', 'removed'],
    examples: ['blogctl config unset default-site'],
  }).argument('<key>');
}

export type Input = InputOf<typeof declare>;
export const unset = defineVerb(declare, () => import('./action.js'));

import { defineVerb, verb, type InputOf } from '../../define.js';

function declare() {
  return verb('path', {
    description: 'print where the config lives',
    jsonFields: ['dir', 'config', 'credentials'],
    examples: ['blogctl config path'],
  });
}

export type Input = InputOf<typeof declare>;
export const path = defineVerb(declare, () => import('./action.js'));

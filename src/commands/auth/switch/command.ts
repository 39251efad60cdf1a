import { defineVerb, verb, type InputOf } from '../../define.js';

function declare() {
  return verb('switch', {
    description: 'make a profile the active one (when neither --profile nor BLOGCTL_PROFILE says)',
    jsonFields: ['profile', 'previous'],
    examples: ['blogctl auth switch work'],
  }).argument('<profile>');
}

export type Input = InputOf<typeof declare>;
export const switchProfile = defineVerb(declare, () => import('./action.js'));

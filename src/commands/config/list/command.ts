import { defineVerb, verb, type InputOf } from '../../define.js';

function declare() {
  return verb('list', {
    description: 'show every setting and its value (or default); -q: only the keys',
    jsonFields: ['profile', 'settings', 'defaults'],
    examples: ['blogctl config list', 'blogctl config list --json'],
  });
}

export type Input = InputOf<typeof declare>;
export const list = defineVerb(declare, () => import('./action.js'));

import { defineVerb, verb, type InputOf } from '../../define.js';

function declare() {
  return verb('logout', {
    description: 'remove the selected profile: its API key and base URL (asks, or --yes)',
    jsonFields: ['profile', 'removed', 'activeUnset'],
    examples: ['blogctl auth logout --profile work', 'blogctl auth logout --profile work --yes'],
  }).option('-y, --yes', 'do not ask for confirmation (required when there is no terminal)');
}

export type Input = InputOf<typeof declare>;
export const logout = defineVerb(declare, () => import('./action.js'));

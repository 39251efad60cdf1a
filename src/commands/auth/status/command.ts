import { defineVerb, verb, type InputOf } from '../../define.js';

function declare() {
  return verb('status', {
    description: "list every profile; check that the service accepts the active one's key",
    jsonFields: [
      'profile',
      'baseUrl',
      'baseUrlSource',
      'apiKey',
      'apiKeySource',
      'accepted',
      'problem',
      'profiles',
    ],
    examples: ['blogctl auth status', 'blogctl auth status --json', 'blogctl auth status -q'],
  });
}

export type Input = InputOf<typeof declare>;
export const status = defineVerb(declare, () => import('./action.js'));

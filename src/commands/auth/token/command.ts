import { defineVerb, verb, type InputOf } from '../../define.js';

function declare() {
  return verb('token', {
    description: 'print the API key in use, unmasked, alone on stdout (for scripts)',
    jsonFields: 'none',
    examples: [
      'curl -H "Authorization: Bearer $(blogctl auth token)" "$(blogctl config get base-url)/api/v1/public/get-all-blogs"',
    ],
  });
}

export type Input = InputOf<typeof declare>;
export const token = defineVerb(declare, () => import('./action.js'));

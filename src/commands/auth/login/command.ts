import { defineVerb, verb, type InputOf } from '../../define.js';

function declare() {
  return verb('login', {
    description: 'store an API key for the selected profile (hidden prompt, or stdin: --with-key)',
    jsonFields: ['profile', 'baseUrl', 'key', 'verified'],
    examples: [
      'blogctl auth login --base-url https://api.example.com',
      'printf %s "$KEY" | blogctl auth login --with-key --profile work --base-url https://api.example.com',
    ],
  })
    .option('--with-key', 'read the API key from stdin (first line)')
    .option('--no-verify', 'store the key without checking it against the service');
}

export type Input = InputOf<typeof declare>;
export const login = defineVerb(declare, () => import('./action.js'));

import { defineVerb, verb, type InputOf } from '../../define.js';

function declare() {
  return verb('set', {
    description: 'change a setting (default-site must name an existing site profile)',
    jsonFields: ['key', 'value'],
    examples: [
      'blogctl config set base-url https://api.example.com',
      'blogctl config set timeout 120',
      'blogctl config set default-site myblog',
    ],
  })
    .argument('<key>')
    .argument('<value>');
}

export type Input = InputOf<typeof declare>;
export const set = defineVerb(declare, () => import('./action.js'));

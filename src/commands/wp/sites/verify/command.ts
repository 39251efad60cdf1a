import { defineVerb, verb, type InputOf } from '../../../define.js';

function declare() {
  return verb('verify', {
    description: 'check a site and its credentials (no id: the default site); records the result',
    jsonFields: [
      'id',
      'url',
      'valid',
      'verifiedAt',
      'restRoot',
      'permalinks',
      'applicationPasswords',
      'siteName',
      'syncState',
      'seo',
      'user',
      'can',
    ],
    examples: ['blogctl wp sites verify myblog', 'blogctl wp sites verify myblog --json can,user'],
  })
    .argument('[id]')
    .option('--password-stdin', "read the Application Password from stdin instead of the profile's");
}

export type Input = InputOf<typeof declare>;
export const verify = defineVerb(declare, () => import('./action.js'));

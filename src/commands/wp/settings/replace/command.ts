import { defineVerb, verb, type InputOf } from '../../../define.js';
import { SETTINGS_FIELDS } from '../fields.js';

function declare() {
  return verb('replace', {
    description: 'replace the whole list of WordPress sites on the service',
    jsonFields: SETTINGS_FIELDS,
    examples: ['blogctl wp settings replace --from-sites --yes', 'blogctl wp settings replace -f sites.json'],
  })
    .option('-f, --file <path>', 'the list as a JSON array (or {"settings": [...]}; - for stdin)')
    .option('--from-sites', 'send every local site profile, with its credentials')
    .option('-y, --yes', 'do not ask for confirmation (required when there is no terminal)')
    .option('--dry-run', 'print the request body (passwords as ***) and send nothing');
}

export type Input = InputOf<typeof declare>;
export const replace = defineVerb(declare, () => import('./action.js'));

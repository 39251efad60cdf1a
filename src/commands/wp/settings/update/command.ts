import { defineVerb, verb, type InputOf } from '../../../define.js';
import { oneSite } from '../../one-site.js';
import { SETTINGS_FIELDS } from '../fields.js';

function declare() {
  return (
    verb('update', {
      description: 'send only the given fields as one settings object (a partial update)',
      jsonFields: SETTINGS_FIELDS,
      examples: [
        'blogctl wp settings update --site myblog --integrated --auto-publish',
        'blogctl wp settings update --site myblog --with-credentials',
        'blogctl wp settings update -f settings.json --no-website-valid --dry-run',
      ],
    })
      .option('--site <id>', 'the site id to update (sent as `id`)', oneSite)
      .option('--label <label>', 'display name')
      // Both spellings are declared without a default, so "neither given" stays undefined and is not sent.
      .option('--integrated', 'enable the integration')
      .option('--no-integrated', 'disable the integration')
      .option('--website-valid', 'mark the site as valid')
      .option('--no-website-valid', 'mark the site as not valid')
      .option('--auto-publish', 'turn automatic publishing on')
      .option('--no-auto-publish', 'turn automatic publishing off')
      .option('--url <url>', 'credentials.websiteUrl')
      .option('--username <user>', 'credentials.username')
      .option('--password-stdin', 'credentials.password from stdin (first line)')
      .option(
        '--with-credentials',
        "send the --site profile's URL, username and password (flags override them)",
      )
      .option('-f, --file <path>', 'settings object as JSON (or - for stdin); flags override it')
      .option('--dry-run', 'print the request body (passwords as ***) and send nothing')
  );
}

export type Input = InputOf<typeof declare>;
export const update = defineVerb(declare, () => import('./action.js'));

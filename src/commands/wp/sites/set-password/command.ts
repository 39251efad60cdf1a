import { defineVerb, verb, type InputOf } from '../../../define.js';

function declare() {
  return verb('set-password', {
    description: "replace a site profile's Application Password (checked with the site first)",
    notes: '\nThe Application Password comes from --password-stdin, BLOGCTL_WP_PASSWORD or a hidden prompt.',
    // Loaded only by what reads the fields (help, completion, tests), never by a run.
    jsonFields: () => import('../fields.js').then((m) => m.SITE_VIEW_FIELDS),
    examples: [
      'blogctl wp sites set-password myblog',
      'printf %s "$WP_APP_PASSWORD" | blogctl wp sites set-password myblog --password-stdin',
    ],
  })
    .argument('<id>')
    .option('--password-stdin', 'read the Application Password from stdin (first line)')
    .option('--no-verify', 'store it without asking the site whether it accepts it');
}

export type Input = InputOf<typeof declare>;
export const setPassword = defineVerb(declare, () => import('./action.js'));

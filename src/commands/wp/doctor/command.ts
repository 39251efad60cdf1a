import { defineVerb, verb, type InputOf } from '../../define.js';

function declare() {
  return verb('doctor', {
    description: 'find what keeps blogctl out of a site, and the fix (no site: the default)',
    jsonFields: ['url', 'server', 'cdn', 'restRoot', 'permalinks', 'checks', 'canPublish', 'canSync', 'ok'],
    notes: `Give a site profile (its account is checked too), or a URL (anonymous checks; --username and the
password, from --password-stdin or BLOGCTL_WP_PASSWORD, add the account's). With neither, the default site.
Exit 0 when nothing is in the way (with an account: it can publish and sync), else the code of the first
blocker: 4 for credentials, Application Passwords or the role, 7 for a site that cannot be reached, redirects,
or answers with something that is not WordPress's REST API. A cause marked "likely" is the usual one for what
was seen, not a proved one.`,
    examples: [
      'blogctl wp doctor myblog',
      'blogctl wp doctor https://blog.example.com',
      'printf %s "$WP_APP_PASSWORD" | blogctl wp doctor https://blog.example.com --username editor --password-stdin',
      'blogctl wp doctor myblog --json checks',
    ],
  })
    .argument('[site-or-url]')
    .option('--username <name>', 'with a URL: the WordPress account to check')
    .option('--password-stdin', 'read the Application Password from stdin');
}

export type Input = InputOf<typeof declare>;
export const doctor = defineVerb(declare, () => import('./action.js'));

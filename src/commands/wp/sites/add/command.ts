import { defineVerb, verb, type InputOf } from '../../../define.js';

function declare() {
  return verb('add', {
    description: 'add a WordPress site profile: URL, username and Application Password',
    notes:
      '\nThe Application Password comes from --password-stdin, BLOGCTL_WP_PASSWORD or a hidden prompt, or with\n--web from the site itself once you approve blogctl in a browser (a site on http:// in a local environment\nsends it back to blogctl; on https:// WordPress shows it once and you paste it).\nThe site is asked first whether it accepts it (as `wp sites verify` does); nothing is stored if not.',
    // Loaded only by what reads the fields (help, completion, tests), never by a run.
    jsonFields: () => import('../fields.js').then((m) => m.SITE_VIEW_FIELDS),
    examples: [
      'blogctl wp sites add myblog --url https://example.com --username editor',
      'printf %s "$WP_APP_PASSWORD" | blogctl wp sites add myblog --url https://example.com --username editor --password-stdin',
      'blogctl wp sites add myblog --url https://example.com --web',
    ],
  })
    .argument('<id>')
    .option('--url <url>', 'the WordPress site URL, e.g. https://example.com')
    .option('--username <user>', 'the WordPress username the Application Password belongs to')
    .option('--label <label>', 'display name')
    .option('--auto-publish', 'mark the site for automatic publishing')
    .option('--password-stdin', 'read the Application Password from stdin (first line)')
    .option('--web', 'let the site mint the Application Password after you approve blogctl in a browser')
    .option('--no-browser', 'with --web: print the page to open instead of opening it')
    .option('--force', 'replace an existing profile with the same id')
    .option('--no-verify', 'store the profile without asking the site whether it accepts the credentials');
}

export type Input = InputOf<typeof declare>;
export const add = defineVerb(declare, () => import('./action.js'));

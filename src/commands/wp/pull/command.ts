import { collect, defineVerb, verb, type InputOf } from '../../define.js';

function declare() {
  return verb('pull', {
    description: "write the site's posts into the project as Markdown files",
    jsonFields: () => import('./action.js').then((m) => m.PULL_FIELDS),
    examples: [
      'blogctl wp pull --adopt',
      'blogctl wp pull posts --status publish,future --since 2026-01-01 --media',
    ],
  })
    .argument('[dir]')
    .option('--site <id>', "site profile to read (default: the project's site)")
    .option('--url <url>', 'WordPress site URL, instead of a profile')
    .option('--username <user>', 'WordPress username, with --url')
    .option('--password-stdin', 'read the Application Password from stdin (first line)')
    .option(
      '--status <list>',
      'only these statuses, comma-separated (default: publish,future,draft,pending,private)',
    )
    .option('--since <date>', "only posts modified since this date (the site's time without an offset)")
    .option('--author <id>', 'only posts by this user id')
    .option(
      '--type <list>',
      'post types to pull, comma-separated, by name or REST base: post, page, recipes (default: every type the site offers)',
    )
    .option('--category <name|id>', 'only posts in this category (repeatable or comma-separated)', collect)
    .option(
      '--media',
      'download featured images next to the posts (default: the media id, its URL as a comment)',
    )
    .option(
      '--adopt',
      "make each pulled post the file's post on the site (its identity written there): the next publish is unchanged",
    )
    .option('--force', 'overwrite files that differ from their post (default: reported and left)');
}

export type Input = InputOf<typeof declare>;
export const pull = defineVerb(declare, () => import('./action.js'));

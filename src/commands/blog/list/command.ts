import { defineVerb, verb, type InputOf } from '../../define.js';

function declare() {
  return verb('list', {
    description: 'list your blog posts (a table on a terminal, tab-separated when piped)',
    jsonFields: () => import('../../../blogs/fields.js').then((m) => m.BLOG_FIELDS),
    examples: [
      'blogctl blog list',
      'blogctl blog list --sort title --limit 0',
      'blogctl blog list --search espresso --json id,title',
      'blogctl blog list -q | head -n 1',
    ],
  })
    .option(
      '--search <text>',
      'only blogs whose id, title, category or keywords contain this text (any case)',
    )
    .option('--limit <n>', 'at most this many blogs, after --search and --sort (default 30; 0: all)')
    .option(
      '--sort <field>',
      'sort by a field; prefix "-" for descending (default -createdAt: newest first)',
    );
}

export type Input = InputOf<typeof declare>;
export const list = defineVerb(declare, () => import('./action.js'));

import { prose } from '../../../output/wrap.js';
import { collect, defineVerb, verb, type InputOf } from '../../define.js';
import { addPostOptions } from '../../common/post-flags.js';

// Help as gh keeps it: the flags most runs need, each on a line, then the custom values and the post flags in
// groups of their own, and a few lines of notes; the details are in docs/commands.md and docs/publishing.md.
// prose() reads the notes, made into lines when the group is declared (not at every start-up).
const NOTES = `
Option values: --tone Friendly sends {"name": "Friendly", "value": "Friendly"}; --tone "Friendly=friendly"
sets the value too. Flags override -f. Missing parameters are asked for on a terminal; otherwise the command
fails (exit 2) naming them all, and nothing is sent. The provider key comes from BLOGCTL_PROVIDER_API_KEY or
--provider-key-stdin. Details: docs/commands.md.

--publish <site> checks the site, its password, the schedule and the terms before generating, then publishes
the blog as \`wp publish --site <site> --from-blog <id>\` would. --key names the post: a repeat finds it and
generates nothing. --save <file>: the file's post is the blog's (as --from-blog, or --key); without --publish
the post flags go into its front matter. Details, repeats and exit codes: docs/publishing.md.`;

function declare() {
  const create = verb('create', {
    description: 'generate a blog post from keywords, tone, structure and length',
    notes: prose(NOTES),
    // Its output depends on --dry-run and --publish: the fields of every form.
    jsonFields: () =>
      import('../../../blogs/fields.js').then((m) => [...m.BLOG_FIELDS, 'blogParams', 'blog', 'publish']),
    examples: [
      'blogctl --sandbox blog create -k "home espresso" --length short',
      'blogctl blog create -f params.json --category Coffee --publish myblog --wp-category Coffee --status publish --create-terms --key weekly-2026-48',
      'blogctl blog create -k espresso,grinders --language English --tone Friendly --structure "How-to guide" --cta "Subscribe" --audience Beginners --length medium',
      'blogctl blog create -f params.json --tone "Friendly=friendly" --tone-custom "warm, no jargon" --dry-run',
      'id=$(blogctl blog create -f params.json -q)',
    ],
  })
    .option('-k, --keyword <words>', 'topic keyword(s); repeatable and comma-separated', collect)
    .option('--language <name[=value]>', 'language, e.g. English')
    .option('--tone <name[=value]>', 'tone/style, e.g. Friendly')
    .option('--structure <name[=value]>', 'content structure, e.g. "How-to guide"')
    .option('--cta <name[=value]>', 'call to action, e.g. "Subscribe"')
    .option('--audience <name[=value]>', 'target audience, e.g. Beginners')
    .option('--length <short|medium|long>', 'blog length (any case)')
    .option('--category <name>', 'category')
    .option('--link <url>', 'hyperlink to include; repeatable', collect)
    .option('--linked-blog-url <url>', 'a post of yours to link as related reading')
    .option('--meta <key=value>', 'metadata entry; repeatable (JSON values typed)', collect)
    .option('-f, --file <path|->', 'BlogParams as JSON ("-": stdin)')
    .option('--provider-key-stdin', 'read your provider key from stdin (first line)')
    .option('--dry-run', 'print the request body and send nothing')
    .option('--strict', 'refuse a post that misses what was asked')
    .option('--publish <site>', 'then publish it to this WordPress site profile')
    .option('--save <file>', 'also write it as Markdown that wp publish reads')
    .option('--force', 'with --save: overwrite the file')
    // What --<option>-custom sets is the option's customValue, whichever way the option came (flag, -f or
    // the prompt); an empty text removes it. language has none.
    .optionsGroup('Custom values (the customValue of the option in force):')
    .option('--tone-custom <text>', 'of the tone')
    .option('--structure-custom <text>', 'of the structure')
    .option('--cta-custom <text>', 'of the call to action')
    .option('--audience-custom <text>', 'of the audience')
    .option('--length-custom <text>', 'of the length')
    .optionsGroup('');
  return addPostOptions(create, 'blog create');
}

export type Input = InputOf<typeof declare>;
export type Flags = Input['opts'];
export const create = defineVerb(declare, () => import('./action.js'));

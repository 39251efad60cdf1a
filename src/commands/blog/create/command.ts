import { prose } from '../../../output/wrap.js';
import { collect, defineVerb, verb, type InputOf } from '../../define.js';
import { addPostOptions } from '../../common/post-flags.js';

// Help texts as prose() reads them, made into lines when the group is declared (not at every start-up).
const OPTION_SYNTAX = `
Option values (--language, --tone, --structure, --cta, --audience, --length):
  --tone Friendly               sends {"name": "Friendly", "value": "Friendly"}
  --tone "Friendly=friendly"    sends {"name": "Friendly", "value": "friendly"} (split at the first "=")
  --tone-custom "<text>"        adds "customValue" to the tone in force (from the flag, -f or the prompt);
                                likewise --structure-custom, --cta-custom, --audience-custom, --length-custom
                                (language has no customValue); an empty text removes it
  --length short|medium|long    any case; sends {"name": "Short", "value": "Short"}; "Quick read=short" names it
  --meta key=value              the value is JSON when it parses as JSON (800, true, null, {"a":1}, [1,2],
                                '"02134"' quoted to keep it text), otherwise the text as given
Flags override -f: each flag replaces that field of the file, except --meta (merged key by key) and
--<option>-custom (sets only customValue).

Missing required parameters are asked for on a terminal; otherwise the command fails (exit 2) naming them
all, and nothing is sent. The provider key comes from BLOGCTL_PROVIDER_API_KEY or --provider-key-stdin.`;

const PUBLISH_SYNTAX = `

--publish <site> checks the site, its password, the schedule and the terms before generating, then publishes
the blog as \`wp publish --site <site> --from-blog <id>\` would (--wp-category, --post-meta: the post's
fields). --key names the post: a repeat finds it and generates nothing. --save <file> writes the post as
Markdown for review; without --publish the post flags go into its front matter. Details, repeats and exit
codes: docs/publishing.md and docs/commands.md.`;

function declare() {
  const create = verb('create', {
    description: 'generate a blog post from keywords, tone, structure and length',
    notes: prose(OPTION_SYNTAX + PUBLISH_SYNTAX),
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
    .option('--tone-custom <text>', 'customValue of the tone')
    .option('--structure <name[=value]>', 'content structure, e.g. "How-to guide"')
    .option('--structure-custom <text>', 'customValue of the structure')
    .option('--cta <name[=value]>', 'call to action, e.g. "Subscribe to the newsletter"')
    .option('--cta-custom <text>', 'customValue of the call to action')
    .option('--audience <name[=value]>', 'target audience, e.g. Beginners')
    .option('--audience-custom <text>', 'customValue of the audience')
    .option('--length <short|medium|long>', 'blog length (any case)')
    .option('--length-custom <text>', 'customValue of the length')
    .option('--category <name>', 'category')
    .option('--link <url>', 'hyperlink to include; repeatable', collect)
    .option('--linked-blog-url <url>', 'a post of your blog to link as related reading (used as given)')
    .option(
      '--meta <key=value>',
      'metadata entry; repeatable (value parsed as JSON when it is JSON)',
      collect,
    )
    .option('-f, --file <path|->', 'BlogParams as JSON, bare or as {"blogParams": …}; "-" reads stdin')
    .option('--provider-key-stdin', 'read your text-generation provider key from the first line of stdin')
    .option('--dry-run', 'print the request body (provider key as "***") and send nothing')
    .option(
      '--strict',
      "refuse a post that misses what was asked (a section's length, a keyword, a link, the call to action) rather than keep it with what it misses listed (the sandbox's provider; sent as Prefer: handling=strict)",
    )
    .option(
      '--publish <site>',
      'then publish the blog to this WordPress site profile (title and content; the post flags below apply)',
    )
    .option(
      '--save <file>',
      "also write the blog as Markdown that wp publish reads back; the file's post is the blog's (as --from-blog, or --key), with the post flags used, with or without --publish (refuses an existing file unless --force)",
    )
    .option('--force', 'with --save: overwrite the file');
  return addPostOptions(create, 'blog create');
}

export type Input = InputOf<typeof declare>;
export type Flags = Input['opts'];
export const create = defineVerb(declare, () => import('./action.js'));

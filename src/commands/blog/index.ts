// `blogctl blog create | list | show | delete`: flags and help only; each verb loads when it runs.
import { Option, type Command } from 'commander';
import { prose } from '../../output/wrap.js';
import { BLOG_FIELDS } from '../../blogs/fields.js';
import { collect, examples, jsonFields, lazyAction, whenUsed, type App } from '../define.js';
import { addPostOptions } from '../shared/post-flags.js';

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

With --publish <site>: the flags, the site's password (profile or BLOGCTL_WP_PASSWORD), the site itself (it is
read: with --key, a post already published for that key is found and nothing is generated; one in the
trash is reported "trashed" and left there, as wp publish does), the schedule and
the category and tag names are checked before generating (--dry-run checks them too, sending nothing); then
the blog is generated and its title and content published like \`blogctl wp publish --site <site>
--from-blog <id>\`: the post's source is the blog (or --key), found again on the site by blogctl's marker, so
publishing the blog later updates that post rather than making another. --category and --meta are the
blog's; the post's are --wp-category and --post-meta. Output: the link with -q; {blog, publish} with --json.
The exit code is the publish's; a blog generated but not published can be sent later with --from-blog.
Repeats: after a lost answer (exit 7, "may exist") run the command the error names, from any machine: it
finds the post on the site, or sends it again with the same Idempotency-Key; with --key, running the same
blog create again finds it before generating. --save writes the file of the same post (its source is the
blog, or --key, with the post flags used in its front matter): \`wp publish --site <site> <file>\` leaves it
unchanged, and publishes the file's edits to that post.

Without --publish, the post flags need --save: they go into the file's front matter (--key as its key:), and
\`wp publish --site <site> <file>\` sends them. --create-terms, --allow-immediate and --post-password, which a
file does not keep, need --publish. Otherwise a post flag is refused (exit 2) before anything is generated.`;

export function registerBlog(program: Command, app: App): void {
  const blog = program.command('blog').description('create, list, show and delete generated blog posts');
  examples(blog, [
    'blogctl --sandbox blog create -k "home espresso" --length short',
    'blogctl blog list --sort -createdAt --limit 5',
  ]);
  whenUsed(blog, () => declareBlogVerbs(blog, app));
}

function declareBlogVerbs(blog: Command, app: App): void {
  const create = blog
    .command('create')
    .description('generate a blog post from keywords, tone, structure and length')
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
    .option('--linked-blog-url <url>', 'base URL for linked blog posts')
    .option(
      '--meta <key=value>',
      'metadata entry; repeatable (value parsed as JSON when it is JSON)',
      collect,
    )
    .option('-f, --file <path|->', 'BlogParams as JSON, bare or as {"blogParams": …}; "-" reads stdin')
    .option('--provider-key-stdin', 'read your text-generation provider key from the first line of stdin')
    .option('--dry-run', 'print the request body (provider key as "***") and send nothing')
    .option(
      '--publish <site>',
      'then publish the blog to this WordPress site profile (title and content; the post flags below apply)',
    )
    .option(
      '--save <file>',
      "also write the blog as Markdown that wp publish reads back; the file's post is the blog's (as --from-blog, or --key), with the post flags used, with or without --publish (refuses an existing file unless --force)",
    )
    .option('--force', 'with --save: overwrite the file');
  addPostOptions(create, 'blog create')
    .addHelpText('after', prose(OPTION_SYNTAX + PUBLISH_SYNTAX))
    .action(lazyAction(app, () => import('./create/action.js')));
  // Its output depends on --dry-run and --publish: the fields of every form.
  jsonFields(create, [...BLOG_FIELDS, 'blogParams', 'blog', 'publish']);
  examples(create, [
    'blogctl --sandbox blog create -k "home espresso" --length short',
    'blogctl blog create -f params.json --category Coffee --publish myblog --wp-category Coffee --status publish --create-terms --key weekly-2026-48',
    'blogctl blog create -k espresso,grinders --language English --tone Friendly --structure "How-to guide" --cta "Subscribe" --audience Beginners --length medium',
    'blogctl blog create -f params.json --tone "Friendly=friendly" --tone-custom "warm, no jargon" --dry-run',
    'id=$(blogctl blog create -f params.json -q)',
  ]);

  const list = blog
    .command('list')
    .description('list your blog posts (a table on a terminal, tab-separated when piped)')
    .option(
      '--search <text>',
      'only blogs whose id, title, category or keywords contain this text (any case)',
    )
    .option('--limit <n>', 'at most this many blogs (after --search and --sort)')
    .option('--sort <field>', 'sort by a field; prefix "-" for descending, e.g. --sort -createdAt')
    .action(lazyAction(app, () => import('./list/action.js')));
  jsonFields(list, BLOG_FIELDS);
  examples(list, [
    'blogctl blog list',
    'blogctl blog list --sort -createdAt --limit 5',
    'blogctl blog list --search espresso --json id,title',
    'blogctl blog list -q | head -n 1',
  ]);

  const show = blog
    .command('show')
    .description('show one blog post; --field prints one field raw (e.g. the HTML content)')
    // Optional in commander's eyes only so that `show --json <id>` can recover the id (see show/action.ts).
    .argument('[id]', 'the blog id (_id)')
    .option(
      '--field <name>',
      'print only this field: text exactly as stored (no newline added when piped), other values as JSON',
    )
    .option(
      '--markdown',
      "print the post as Markdown that wp publish reads back (title, slug, excerpt, blog_id): the file's post is the blog's, the same as wp publish --from-blog <id>",
    )
    .action(lazyAction(app, () => import('./show/action.js')));
  jsonFields(show, BLOG_FIELDS);
  examples(show, [
    'blogctl blog show 6650c0ffee0000000000abcd',
    'blogctl blog show 6650c0ffee0000000000abcd --markdown > posts/espresso.md   # then: wp publish posts/',
    'blogctl blog show 6650c0ffee0000000000abcd --field content > post.html',
    'blogctl blog show 6650c0ffee0000000000abcd --json title,createdAt',
  ]);

  const del = blog
    .command('delete')
    .description('delete blog posts by id, several at once (asks first on a terminal)')
    // Optional in commander's eyes only so that `delete --json <id> …` can recover the id (see delete/action.ts).
    .argument('[id...]', 'blog ids (_id)')
    .option('-y, --yes', 'do not ask for confirmation (required when there is no terminal)')
    .addOption(
      new Option('--concurrency <n>', 'deletes in flight at once (default: the concurrency setting, 4)'),
    )
    .addHelpText(
      'after',
      '\nOutput: nothing on stdout unless -q (the deleted ids, one per line) or --json (one {id, deleted, status?, error?} per id). An unknown id is reported and the others are still deleted; the exit code is the worst outcome.',
    )
    .action(lazyAction(app, () => import('./delete/action.js')));
  jsonFields(del, () => import('./delete/action.js').then((m) => m.OUTPUT_FIELDS));
  examples(del, [
    'blogctl blog delete 6650c0ffee0000000000abcd',
    'blogctl blog list -q | xargs blogctl blog delete --yes --concurrency 8',
    'blogctl blog delete 6650c0ffee0000000000abcd 6650c0ffee0000000000abce --yes --json',
  ]);
}

import { prose } from '../../../output/wrap.js';
import { defineVerb, option, verb, type InputOf } from '../../define.js';
import { addPostOptions } from '../../common/post-flags.js';
import { oneSite } from '../one-site.js';

function declare() {
  const publish = verb('publish', {
    description: 'publish posts (files, folders, flags, a generated blog) to WordPress, in step',
    notes: prose(PUBLISH_HELP),
    // Its output depends on the sources and --dry-run: the fields of every form.
    jsonFields: () =>
      import('../../common/publish-rows.js').then((m) => [
        ...new Set([...m.SINGLE_FIELDS, ...m.OUTPUT_FIELDS, ...m.PLAN_FIELDS]),
      ]),
    examples: [
      'blogctl wp publish --site myblog --title "Hello" --content "<p>Hi</p>" --status publish',
      'blogctl wp publish --site myblog --content-file post.md --category News --tag "home espresso" --create-terms',
      'blogctl wp publish --site myblog posts/ --status publish',
      'blogctl wp publish --site myblog posts/ --dry-run --exit-code      # CI: fail when the site is behind',
      'blogctl wp publish --site myblog posts/ --dry-run --markdown --summary "$GITHUB_STEP_SUMMARY"',
      'blogctl wp publish --site myblog --from-blog 6650c0ffee0000000000abcd --featured-image cover.png --status future --date 2026-12-01T09:00+01:00',
      'printf %s "$WP_APP_PASSWORD" | blogctl wp publish --url https://example.com --username editor --password-stdin -f post.json',
      'blogctl wp publish --site myblog --title "Draft" --content-file body.html --dry-run',
    ],
  })
    .argument('[files...]', 'Markdown (.md) or HTML files, or folders of them (recursively); one post each')
    .option(
      '--site <id>',
      'site profile to publish to (default: BLOGCTL_SITE, then config default-site)',
      oneSite,
    )
    .option('--url <url>', 'WordPress site URL, instead of a profile')
    .option('--username <user>', 'WordPress username, with --url')
    .option('--password-stdin', 'read the Application Password from stdin (first line)')
    .option(
      '-f, --file <path>',
      'payload JSON: {content} or {credentials, content} (- for stdin); flags override it',
    )
    .option('--from-blog <blogId>', 'take the title and content of a generated blog')
    .option('--title <title>', 'post title')
    .option('--content <html>', 'post body as HTML')
    .option(
      '--content-file <path>',
      'the post body from a file: Markdown (.md, with front matter) is converted, anything else sent as HTML; - for stdin (HTML)',
    )
    .option(
      '--namespace <name>',
      "a post without a file: the namespace it belongs to (default: none, wherever blogctl runs; a project's runs then count it as theirs)",
    );
  return addPostOptions(publish, 'wp publish')
    .addOption(
      option('--concurrency <n>', 'posts in flight at once in a batch (default: the concurrency setting, 4)'),
    )
    .option(
      '--dry-run',
      'read the site and print the plan (create, update with the fields, unchanged); send nothing',
    )
    .option(
      '--markdown',
      'print the plan (or the results) as Markdown tables grouped by action, for a pull-request comment',
    )
    .option(
      '--summary <file>',
      'also append that Markdown to a file (a CI job summary: "$GITHUB_STEP_SUMMARY")',
    )
    .option('--no-update', 'leave posts whose source changed as they are (reported "changed")')
    .option(
      '--force',
      "a field edited on the site that the source changed too (a conflict, exit 6) takes the source's value",
    )
    .option(
      '--prune',
      "move the project's posts whose source is gone (orphaned) to WordPress's trash; only when publishing the whole project",
    )
    .option(
      '--exit-code',
      'exit 8 when the site is not in step with the sources (with --dry-run: would change)',
    )
    .option(
      '--service-only',
      'publish through the service alone, without reading the site (no look-up: repeats cannot be detected; no update)',
    );
}

export type Input = InputOf<typeof declare>;
export type Flags = Input['opts'];
export const publish = defineVerb(declare, () => import('./action.js'));

// Paragraphs as prose() reads them (made into lines when the group is declared): wrapped to the terminal when
// shown.
const PUBLISH_HELP = `
In step with the site: WordPress, not this machine, knows what was published. Every post blogctl sends
carries an invisible marker (an HTML comment at the end of its content) naming its namespace (the
project's, from blogctl.yml) and its source: its front matter "key" or "slug", else a file's path relative to
its project's root (blogctl.yml), else to its git work tree's root, never to where blogctl runs;
--from-blog's blog id; or --key/--slug. A post without a file is in no project's namespace, wherever
blogctl runs, unless --namespace names one. Posts of another namespace are never touched. With no files and no
post flags, wp publish publishes the project around the current folder (see wp init).
Each run first looks the sources up on the site (one request for a batch), then per source: new → created
through the service; unchanged → nothing sent; changed (any field sent, the featured image's bytes) →
updated in place on WordPress (same id and link) with the site's Application Password: the changed fields,
and the body only if the source's body changed. A post an editor wrote is never overwritten nor taken as a
source's post; a post in the trash is left there; a post from flags alone (no --slug or --key) is always a
new one. Nothing is matched by title. Repeats: a lost answer (exit 7, "may exist") or a batch killed
mid-way is simply run again, from any machine: the next run finds the post on the site, or sends it again
with the same Idempotency-Key.

Content: flags override a Markdown file's front matter (title, slug, status, date, date_gmt, excerpt,
categories, tags, featured_image, featured_media, format, sticky, template, meta, comment_status,
ping_status, author, password, key, blog_id), which overrides -f. HTML files take their title from <title>,
else the first <h1>. With several files or a folder, --title, --slug, --excerpt and --key are refused (they
belong to one post). The output is then a table (tab-separated when piped: SOURCE, ACTION, WP STATUS, ID,
LINK, ERROR) or, with --json, one {source, action, status, id, link, fields, …} per source.

Exit codes: the worst outcome; with --exit-code, 8 when the site is not in step (--dry-run: something would
change; otherwise: posts left "changed" by --no-update, or in the trash); either way an edit made on the site
or an orphan (a project post whose source is gone) counts. A field edited on the site that the source changed
too is a conflict (exit 6, nothing sent) unless --force. The account must be an Editor or Administrator
(edit_others_posts), else exit 4 before anything is sent.

Site access: the look-up, updates, term names, --featured-image and reading back a status use the site's
own REST API; --service-only sends through the service alone (ids only for terms and media).

Dates: with an offset or Z, --date is that instant (sent as date_gmt); without one it is the site's local
time (sent as date, as WordPress reads it, never converted with this machine's time zone). WordPress
publishes "future" at once when the date is missing, past or under 60 s ahead: a post whose status or date
would be sent so is refused (exit 2) unless --allow-immediate; one already scheduled is left alone.`;

// `blogctl wp …`: local site profiles, the service's WordPress settings, and publishing. Only flags and help
// live here; each action imports its verb file when it runs.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { prose } from '../../output/wrap.js';
import { collect, examples, jsonFields, lazyAction, whenUsed, type App, type JsonFields } from '../define.js';
import { addPostOptions } from '../shared/post-flags.js';

export function registerWp(program: Command, app: App): void {
  const wp = program
    .command('wp')
    .description('WordPress: local site profiles, integration settings, publishing');
  examples(wp, [
    'printf %s "$WP_APP_PASSWORD" | blogctl wp sites add myblog --url https://blog.example.com --username editor --password-stdin',
    'blogctl wp publish --site myblog --title "Hello" --content "<p>Hi</p>" --status draft',
  ]);
  whenUsed(wp, () => {
    registerSites(wp, app);
    registerSettings(wp, app);
    registerPublish(wp, app);
    registerInit(wp, app);
    registerPull(wp, app);
  });
}

function registerSites(wp: Command, app: App): void {
  const siteView: JsonFields = () => import('./sites/fields.js').then((m) => m.SITE_VIEW_FIELDS);
  const sites = wp
    .command('sites')
    .description('local WordPress site profiles (URL, username, Application Password)');
  examples(sites, [
    'blogctl wp sites list',
    'blogctl wp sites show myblog --json',
    'blogctl wp sites verify myblog',
  ]);
  examples(
    jsonFields(
      sites
        .command('add <id>')
        .description('add a WordPress site profile: URL, username and Application Password')
        .option('--url <url>', 'the WordPress site URL, e.g. https://example.com')
        .option('--username <user>', 'the WordPress username the Application Password belongs to')
        .option('--label <label>', 'display name')
        .option('--auto-publish', 'mark the site for automatic publishing')
        .option('--password-stdin', 'read the Application Password from stdin (first line)')
        .option('--force', 'replace an existing profile with the same id')
        .option('--no-verify', 'store the profile without asking the site whether it accepts the credentials')
        .addHelpText(
          'after',
          '\nThe Application Password comes from --password-stdin, BLOGCTL_WP_PASSWORD or a hidden prompt.\nThe site is asked first whether it accepts it (as `wp sites verify` does); nothing is stored if not.',
        )
        .action(lazyAction(app, () => import('./sites/add/action.js'))),
      siteView,
    ),
    [
      'blogctl wp sites add myblog --url https://example.com --username editor',
      'printf %s "$WP_APP_PASSWORD" | blogctl wp sites add myblog --url https://example.com --username editor --password-stdin',
    ],
  );
  examples(
    jsonFields(
      sites
        .command('list')
        .description('list site profiles (passwords are never shown); -q: only the ids')
        .action(lazyAction(app, () => import('./sites/list/action.js'))),
      siteView,
    ),
    ['blogctl wp sites list', 'blogctl wp sites list --json id,url', 'blogctl wp sites list -q'],
  );
  examples(
    jsonFields(
      sites
        .command('show <id>')
        .description('show one site profile; -q: only its id')
        .action(lazyAction(app, () => import('./sites/show/action.js'))),
      siteView,
    ),
    ['blogctl wp sites show myblog'],
  );
  examples(
    jsonFields(
      sites
        .command('verify [id]')
        .description('check a site and its credentials (no id: the default site); records the result')
        .option('--password-stdin', "read the Application Password from stdin instead of the profile's")
        .action(lazyAction(app, () => import('./sites/verify/action.js'))),
      [
        'id',
        'url',
        'valid',
        'verifiedAt',
        'restRoot',
        'permalinks',
        'applicationPasswords',
        'siteName',
        'user',
        'can',
      ],
    ),
    ['blogctl wp sites verify myblog', 'blogctl wp sites verify myblog --json can,user'],
  );
  examples(
    jsonFields(
      sites
        .command('set-password <id>')
        .description("replace a site profile's Application Password (checked with the site first)")
        .option('--password-stdin', 'read the Application Password from stdin (first line)')
        .option('--no-verify', 'store it without asking the site whether it accepts it')
        .addHelpText(
          'after',
          '\nThe Application Password comes from --password-stdin, BLOGCTL_WP_PASSWORD or a hidden prompt.',
        )
        .action(lazyAction(app, () => import('./sites/set-password/action.js'))),
      siteView,
    ),
    [
      'blogctl wp sites set-password myblog',
      'printf %s "$WP_APP_PASSWORD" | blogctl wp sites set-password myblog --password-stdin',
    ],
  );
  examples(
    jsonFields(
      sites
        .command('remove <id>')
        .alias('rm')
        .description('remove a site profile and its stored password (asks, or --yes)')
        .option('-y, --yes', 'do not ask for confirmation (required when there is no terminal)')
        .action(lazyAction(app, () => import('./sites/remove/action.js'))),
      ['id', 'removed', 'defaultUnset'],
    ),
    ['blogctl wp sites remove myblog', 'blogctl wp sites remove myblog --yes'],
  );
}

const SETTINGS_FIELDS = ['settings', 'success', 'integration'];

function registerSettings(wp: Command, app: App): void {
  const settings = wp.command('settings').description("change the service's WordPress integration settings");
  examples(settings, [
    'blogctl wp settings update --site myblog --auto-publish',
    'blogctl wp settings replace --from-sites --yes',
  ]);
  examples(
    jsonFields(
      settings
        .command('update')
        .description('send only the given fields as one settings object (a partial update)')
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
        .action(lazyAction(app, () => import('./settings/update/action.js'))),
      SETTINGS_FIELDS,
    ),
    [
      'blogctl wp settings update --site myblog --integrated --auto-publish',
      'blogctl wp settings update --site myblog --with-credentials',
      'blogctl wp settings update -f settings.json --no-website-valid --dry-run',
    ],
  );
  examples(
    jsonFields(
      settings
        .command('replace')
        .description('replace the whole list of WordPress sites on the service')
        .option('-f, --file <path>', 'the list as a JSON array (or {"settings": [...]}; - for stdin)')
        .option('--from-sites', 'send every local site profile, with its credentials')
        .option('-y, --yes', 'do not ask for confirmation (required when there is no terminal)')
        .option('--dry-run', 'print the request body (passwords as ***) and send nothing')
        .action(lazyAction(app, () => import('./settings/replace/action.js'))),
      SETTINGS_FIELDS,
    ),
    ['blogctl wp settings replace --from-sites --yes', 'blogctl wp settings replace -f sites.json'],
  );
}

function registerInit(wp: Command, app: App): void {
  examples(
    jsonFields(
      wp
        .command('init [dir]')
        .description('write the project file (blogctl.yml): site, namespace, sources')
        .option('--site <id|url>', 'a site profile id, or the site URL (with --username)')
        .option('--username <user>', 'the WordPress username, with a site URL')
        .option(
          '--namespace <name>',
          "what makes the posts this project's (default: the repository's or folder's name)",
        )
        .option('--write-keys', 'write a random front matter "key" into every Markdown source without one')
        .action(lazyAction(app, () => import('./init/action.js'))),
      'none',
    ),
    [
      'blogctl wp init --site myblog',
      'blogctl wp init --site https://blog.example.com --username editor --namespace team-blog posts',
      'blogctl wp init --write-keys',
    ],
  );
}

function registerPull(wp: Command, app: App): void {
  examples(
    jsonFields(
      wp
        .command('pull [dir]')
        .description("write the site's posts into the project as Markdown files")
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
          '--category <name|id>',
          'only posts in this category (repeatable or comma-separated)',
          collect,
        )
        .option(
          '--media',
          'download featured images next to the posts (default: the media id, its URL as a comment)',
        )
        .option(
          '--adopt',
          "make each pulled post the file's post on the site (its identity written there): the next publish is unchanged",
        )
        .option('--force', 'overwrite files that differ from their post (default: reported and left)')
        .action(lazyAction(app, () => import('./pull/action.js'))),
      () => import('./pull/action.js').then((m) => m.PULL_FIELDS),
    ),
    ['blogctl wp pull --adopt', 'blogctl wp pull posts --status publish,future --since 2026-01-01 --media'],
  );
}

/**
 * `--site` names one site: a second one is refused (exit 2) rather than silently replacing the first. One run
 * publishes to one site, so its identities, look-ups and failures belong to that site; a shell loop publishes
 * to several.
 */
function oneSite(value: string, previous: string | undefined): string {
  if (previous !== undefined)
    throw new InvalidArgumentError(
      `--site given twice ("${previous}", then "${value}"): one site per run; run once for each site`,
    );
  return value;
}

function registerPublish(wp: Command, app: App): void {
  const publish = wp
    .command('publish')
    .description('publish posts (files, folders, flags, a generated blog) to WordPress, in step')
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
    );
  addPostOptions(publish, 'wp publish')
    .addOption(
      new Option(
        '--concurrency <n>',
        'posts in flight at once in a batch (default: the concurrency setting, 4)',
      ),
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
    )
    .addHelpText('after', prose(PUBLISH_HELP))
    .action(lazyAction(app, () => import('./publish/action.js')));
  // Its output depends on the sources and --dry-run: the fields of every form.
  jsonFields(publish, () =>
    import('../shared/publish-output.js').then((m) => [
      ...new Set([...m.SINGLE_FIELDS, ...m.OUTPUT_FIELDS, ...m.PLAN_FIELDS]),
    ]),
  );
  examples(publish, [
    'blogctl wp publish --site myblog --title "Hello" --content "<p>Hi</p>" --status publish',
    'blogctl wp publish --site myblog --content-file post.md --category News --tag "home espresso" --create-terms',
    'blogctl wp publish --site myblog posts/ --status publish',
    'blogctl wp publish --site myblog posts/ --dry-run --exit-code      # CI: fail when the site is behind',
    'blogctl wp publish --site myblog posts/ --dry-run --markdown --summary "$GITHUB_STEP_SUMMARY"',
    'blogctl wp publish --site myblog --from-blog 6650c0ffee0000000000abcd --featured-image cover.png --status future --date 2026-12-01T09:00+01:00',
    'printf %s "$WP_APP_PASSWORD" | blogctl wp publish --url https://example.com --username editor --password-stdin -f post.json',
    'blogctl wp publish --site myblog --title "Draft" --content-file body.html --dry-run',
  ]);
}

// Paragraphs as prose() reads them (made into lines when the group is declared): wrapped to the terminal when
// shown.
const PUBLISH_HELP = `
In step with the site: WordPress, not this machine, knows what was published. Every post blogctl sends
carries an invisible marker (an HTML comment at the end of its content) naming its namespace (the
project's, from blogctl.yml) and its source: its front matter "key" or "slug", else a file's path relative to
its project's root (blogctl.yml), else to its git work tree's root, never to where blogctl runs;
--from-blog's blog id; or --key/--slug. Posts of another namespace are never touched. With no files and no
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

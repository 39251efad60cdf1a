// `blogctl wp …`: local site profiles, the service's WordPress settings, and publishing. Only flags and help
// live here; each action imports its verb file when it runs.
import { Option, type Command } from 'commander';
import { prose } from '../../output/wrap.js';
import { examples, jsonFields, lazyAction, whenUsed, type App, type JsonFields } from '../define.js';
import { addPostOptions } from './publish-flags.js';

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
  });
}

function registerSites(wp: Command, app: App): void {
  const sites = wp
    .command('sites')
    .description('local WordPress site profiles (URL, username, Application Password)');
  examples(sites, [
    'blogctl wp sites list',
    'blogctl wp sites show myblog --json',
    'blogctl wp sites verify myblog',
  ]);
  const siteView: JsonFields = () => import('./sites/fields.js').then((m) => m.SITE_VIEW_FIELDS);
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
        .addHelpText(
          'after',
          '\nThe Application Password comes from --password-stdin, BLOGCTL_WP_PASSWORD or a hidden prompt.',
        )
        .action(lazyAction(app, () => import('./sites/add.js'))),
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
        .action(lazyAction(app, () => import('./sites/list.js'))),
      siteView,
    ),
    ['blogctl wp sites list', 'blogctl wp sites list --json id,url', 'blogctl wp sites list -q'],
  );
  examples(
    jsonFields(
      sites
        .command('show <id>')
        .description('show one site profile; -q: only its id')
        .action(lazyAction(app, () => import('./sites/show.js'))),
      siteView,
    ),
    ['blogctl wp sites show myblog'],
  );
  examples(
    jsonFields(
      sites
        .command('verify <id>')
        .description('check that a site answers and its credentials may publish; records the result')
        .option('--password-stdin', "read the Application Password from stdin instead of the profile's")
        .action(lazyAction(app, () => import('./sites/verify.js'))),
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
        .command('remove <id>')
        .alias('rm')
        .description('remove a site profile and its stored password (asks, or --yes)')
        .option('-y, --yes', 'do not ask for confirmation (required when there is no terminal)')
        .action(lazyAction(app, () => import('./sites/remove.js'))),
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
        .option('--site <id>', 'the site id to update (sent as `id`)')
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
        .action(lazyAction(app, () => import('./settings/update.js'))),
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
        .action(lazyAction(app, () => import('./settings/replace.js'))),
      SETTINGS_FIELDS,
    ),
    ['blogctl wp settings replace --from-sites --yes', 'blogctl wp settings replace -f sites.json'],
  );
}

function registerPublish(wp: Command, app: App): void {
  const publish = wp
    .command('publish')
    .description('publish posts (files, folders, flags, a generated blog) to WordPress, in step')
    .argument('[files...]', 'Markdown (.md) or HTML files, or folders of them (recursively); one post each')
    .option('--site <id>', 'site profile to publish to (default: config default-site)')
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
    .option('--no-update', 'leave posts whose source changed as they are (reported "changed")')
    .option(
      '--exit-code',
      'exit 8 when the site is not in step with the sources (with --dry-run: would change)',
    )
    .option(
      '--service-only',
      'publish through the service alone, without reading the site (no look-up: repeats cannot be detected; no update)',
    )
    .addHelpText('after', prose(PUBLISH_HELP))
    .action(lazyAction(app, () => import('./publish.js')));
  // Its output depends on the sources and --dry-run: the fields of every form.
  jsonFields(publish, () =>
    import('./publish-output.js').then((m) => [
      ...new Set([...m.SINGLE_FIELDS, ...m.OUTPUT_FIELDS, ...m.PLAN_FIELDS]),
    ]),
  );
  examples(publish, [
    'blogctl wp publish --site myblog --title "Hello" --content "<p>Hi</p>" --status publish',
    'blogctl wp publish --site myblog --content-file post.md --category News --tag "home espresso" --create-terms',
    'blogctl wp publish --site myblog posts/ --status publish',
    'blogctl wp publish --site myblog posts/ --dry-run --exit-code      # CI: fail when the site is behind',
    'blogctl wp publish --site myblog --from-blog 6650c0ffee0000000000abcd --featured-image cover.png --status future --date 2026-12-01T09:00+01:00',
    'printf %s "$WP_APP_PASSWORD" | blogctl wp publish --url https://example.com --username editor --password-stdin -f post.json',
    'blogctl wp publish --site myblog --title "Draft" --content-file body.html --dry-run',
  ]);
}

// Paragraphs as prose() reads them (made into lines when the group is declared): wrapped to the terminal when
// shown.
const PUBLISH_HELP = `
In step with the site: WordPress, not this machine, knows what was published. Every post blogctl sends
carries an invisible marker (an HTML comment at the end of its content) naming its source: a file's path
relative to where blogctl runs, or its front matter "key" or "slug"; --from-blog's blog id; or --key/--slug.
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
change; otherwise: posts left "changed" by --no-update, or in the trash).

Site access: the look-up, updates, term names, --featured-image and reading back a status use the site's
own REST API; --service-only sends through the service alone (ids only for terms and media).

Dates: with an offset or Z, --date is that instant (sent as date_gmt); without one it is the site's local
time (sent as date, as WordPress reads it, never converted with this machine's time zone). WordPress
publishes "future" at once when the date is missing, past or under 60 s ahead: a post whose status or date
would be sent so is refused (exit 2) unless --allow-immediate; one already scheduled is left alone.`;

// `blogctl wp …`: local site profiles, the service's WordPress settings, and publishing. Only flags and help
// live here; each action imports its verb file when it runs.
import { Option, type Command } from 'commander';
import { postFormats, postStatuses } from '../../schemas/wordpress.js';
import { collect, examples, lazyAction, type App } from '../define.js';

export function registerWp(program: Command, app: App): void {
  const wp = program
    .command('wp')
    .description('WordPress: local site profiles, integration settings, publishing');
  examples(wp, [
    'printf %s "$WP_APP_PASSWORD" | blogctl wp sites add myblog --url https://blog.example.com --username editor --password-stdin',
    'blogctl wp publish --site myblog --title "Hello" --content "<p>Hi</p>" --status draft',
  ]);
  registerSites(wp, app);
  registerSettings(wp, app);
  registerPublish(wp, app);
}

function registerSites(wp: Command, app: App): void {
  const sites = wp
    .command('sites')
    .description('local WordPress site profiles (URL, username, Application Password)');
  examples(sites, ['blogctl wp sites list', 'blogctl wp sites show myblog --json']);
  examples(
    sites
      .command('add <id>')
      .description(
        'add a site profile; the Application Password comes from a hidden prompt, --password-stdin or BLOGCTL_WP_PASSWORD',
      )
      .option('--url <url>', 'the WordPress site URL, e.g. https://example.com')
      .option('--username <user>', 'the WordPress username the Application Password belongs to')
      .option('--label <label>', 'display name')
      .option('--auto-publish', 'mark the site for automatic publishing')
      .option('--password-stdin', 'read the Application Password from stdin (first line)')
      .option('--force', 'replace an existing profile with the same id')
      .action(lazyAction(app, () => import('./sites/add.js'))),
    [
      'blogctl wp sites add myblog --url https://example.com --username editor',
      'printf %s "$WP_APP_PASSWORD" | blogctl wp sites add myblog --url https://example.com --username editor --password-stdin',
    ],
  );
  examples(
    sites
      .command('list')
      .description('list site profiles (passwords are never shown)')
      .action(lazyAction(app, () => import('./sites/list.js'))),
    ['blogctl wp sites list', 'blogctl wp sites list --json id,url'],
  );
  examples(
    sites
      .command('show <id>')
      .description('show one site profile')
      .action(lazyAction(app, () => import('./sites/show.js'))),
    ['blogctl wp sites show myblog'],
  );
  examples(
    sites
      .command('remove <id>')
      .alias('rm')
      .description('remove a site profile and its stored password')
      .action(lazyAction(app, () => import('./sites/remove.js'))),
    ['blogctl wp sites remove myblog'],
  );
}

function registerSettings(wp: Command, app: App): void {
  const settings = wp.command('settings').description("change the service's WordPress integration settings");
  examples(settings, [
    'blogctl wp settings update --site myblog --auto-publish',
    'blogctl wp settings replace --from-sites --yes',
  ]);
  examples(
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
    [
      'blogctl wp settings update --site myblog --integrated --auto-publish',
      'blogctl wp settings update --site myblog --with-credentials',
      'blogctl wp settings update -f settings.json --no-website-valid --dry-run',
    ],
  );
  examples(
    settings
      .command('replace')
      .description('replace the whole list of WordPress sites on the service')
      .option('-f, --file <path>', 'the list as a JSON array (or {"settings": [...]}; - for stdin)')
      .option('--from-sites', 'send every local site profile, with its credentials')
      .option('-y, --yes', 'do not ask for confirmation (required when not at a terminal)')
      .option('--dry-run', 'print the request body (passwords as ***) and send nothing')
      .action(lazyAction(app, () => import('./settings/replace.js'))),
    ['blogctl wp settings replace --from-sites --yes', 'blogctl wp settings replace -f sites.json'],
  );
}

function registerPublish(wp: Command, app: App): void {
  examples(
    wp
      .command('publish')
      .description('publish a post to a WordPress site through the service')
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
      .option('--content-file <path>', 'read the post body (HTML) from a file, or - for stdin')
      .addOption(new Option('--status <status>', 'post status (default draft)').choices(postStatuses))
      .option('--date <iso>', 'publish date, ISO 8601 (site-local or with an offset)')
      .option('--date-gmt <iso>', 'publish date in GMT, ISO 8601')
      .option('--slug <slug>', 'URL slug')
      .option('--excerpt <text>', 'excerpt')
      .option('--author <id>', 'author user id')
      .option('--featured-media <id>', 'featured media id')
      .addOption(
        new Option('--comment-status <status>', 'comments open or closed').choices(['open', 'closed']),
      )
      .addOption(new Option('--ping-status <status>', 'pings open or closed').choices(['open', 'closed']))
      .addOption(new Option('--format <format>', 'post format').choices(postFormats))
      .option(
        '--meta <key=value>',
        'custom meta field (repeatable; JSON values like 5, true, [1] are typed)',
        collect,
      )
      .option('--sticky', 'stick the post to the front page')
      .option('--no-sticky', 'do not stick the post')
      .option('--template <file>', 'theme template')
      .option('--category <id>', 'category id (repeatable or comma-separated)', collect)
      .option('--tag <id>', 'tag id (repeatable or comma-separated)', collect)
      .option('--post-password <password>', 'password-protect the post')
      .option('--dry-run', 'print the request body (password as ***) and send nothing')
      .action(lazyAction(app, () => import('./publish.js'))),
    [
      'blogctl wp publish --site myblog --title "Hello" --content "<p>Hi</p>" --status publish',
      'blogctl wp publish --site myblog --from-blog 65f0c… --category 3 --tag 7,9',
      'printf %s "$WP_APP_PASSWORD" | blogctl wp publish --url https://example.com --username editor --password-stdin -f post.json',
      'blogctl wp publish --site myblog --title "Draft" --content-file body.html --dry-run',
    ],
  );
}

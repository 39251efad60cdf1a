// `wp sites verify <id>`: can blogctl reach this WordPress, and may the profile's credentials publish? Reports
// the REST root, permalinks, Application Passwords, the user, roles and abilities, and records the verdict on
// the profile (isWebsiteValid, verifiedAt). Bad credentials exit 4 with the likely causes as hint lines; a
// site that cannot be reached exits 7 and leaves the profile as it was (nothing was learnt about it).
import { AuthError, UsageError } from '../../../../errors.js';
import type { Deps } from '../../../../factory.js';
import { fieldsOf, jsonOutput } from '../../../../output/json.js';
import { checkSiteId, loadSite, resolveCredentials } from '../../../../sites/profiles.js';
import type { SiteVerification } from '../../../../wordpress/verify.js';
import type { Input } from './command.js';

export interface VerifyResult extends SiteVerification {
  id: string;
  url: string;
  valid: true;
  verifiedAt: string;
}

const VERIFY_FIELDS = fieldsOf<VerifyResult>({
  id: true,
  url: true,
  valid: true,
  verifiedAt: true,
  restRoot: true,
  permalinks: true,
  applicationPasswords: true,
  siteName: true,
  syncState: true,
  seo: true,
  user: true,
  can: true,
});

export async function action({ args, opts, deps }: Input): Promise<void> {
  // Checked before the password is read or the site asked.
  const json = jsonOutput(deps.globals.json, VERIFY_FIELDS);
  const result = await verifyRun(
    { id: siteToVerify(args[0], deps), passwordStdin: Boolean(opts.passwordStdin) },
    deps,
  );
  const { io } = deps;
  if (json.enabled) return json.print(io, result);
  // -q: only the id of the site that works; what it cannot do still warns on stderr.
  if (io.quiet) io.out(result.id);
  else {
    const rows = reportRows(result, io);
    const width = Math.max(...rows.map(([k]) => k.length)) + 2;
    io.out(rows.map(([k, v]) => `${`${k}:`.padEnd(width)}${v}`).join('\n'));
  }
  if (!result.can.publish)
    io.warn(
      'this user cannot publish: WordPress will keep posts as pending or refuse them (use an Author, Editor or Administrator)',
    );
  else if (!result.can.uploadMedia)
    io.warn('this user cannot upload media: --featured-image will be refused');
  const { createCategories, createTags } = result.can;
  if (result.can.publish && !createCategories && !createTags)
    io.warn('this user cannot create categories or tags: --create-terms will be refused');
  else if (result.can.publish && !createCategories)
    io.warn(
      'this user cannot create categories (WordPress asks for manage_categories: an Editor or Administrator): --create-terms can add new tags, not new categories',
    );
  else if (result.can.publish && !createTags)
    io.warn('this user cannot create tags: --create-terms can add new categories, not new tags');
  if (result.seo.plugin !== null)
    for (const [field, why] of Object.entries(result.seo.missing))
      io.warn(`SEO field ${field} cannot be written: ${why}`);
  if (result.can.publish && !result.can.sync)
    io.warn(
      "this user cannot see other users' posts (edit_others_posts: an Editor or Administrator): wp publish of files, folders or a project is refused with this account",
    );
  io.success(`"${result.id}" works: recorded as a valid site`);
}

/** The id given, else the default site (BLOGCTL_SITE, then default-site), else a usage error naming both. */
function siteToVerify(given: string | undefined, deps: Pick<Deps, 'settings'>): string {
  if (given !== undefined) return checkSiteId(given);
  const settings = deps.settings();
  if (settings.defaultSite === undefined)
    throw new UsageError(
      'wp sites verify: no site id given and no default site (set one with `blogctl config set default-site <id>` or BLOGCTL_SITE)',
    );
  return checkSiteId(
    settings.defaultSite,
    settings.defaultSiteSource === 'env' ? 'BLOGCTL_SITE' : 'default-site',
  );
}

function reportRows(result: VerifyResult, io: Deps['io']): [string, string][] {
  const yes = (v: boolean): string => (v ? 'yes' : io.paint('yellow', 'no'));
  return [
    ['site', `${result.id} (${result.url})`],
    ...(result.siteName !== undefined ? [['name', result.siteName] as [string, string]] : []),
    ['REST API', result.restRoot],
    ['permalinks', result.permalinks === 'plain' ? 'plain (?rest_route=)' : 'pretty (/wp-json/)'],
    ['app passwords', result.applicationPasswords ? 'available' : io.paint('yellow', 'not advertised')],
    ['sync state', syncStateText(result.syncState, io)],
    ['SEO', seoText(result.seo, io)],
    [
      'user',
      `${result.user.username ?? result.user.slug ?? result.user.name} (id ${result.user.id}, ${result.user.name})`,
    ],
    ['roles', result.user.roles.join(', ') || '(none)'],
    ['can publish', yes(result.can.publish)],
    ['can upload', yes(result.can.uploadMedia)],
    ['can add categories', yes(result.can.createCategories)],
    ['can add tags', yes(result.can.createTags)],
    ['can sync', yes(result.can.sync)],
  ];
}

/** `plugin (blogctl-sync 1.0.0)` or `marker`, and why the plugin is not used when it is there. */
function syncStateText(state: VerifyResult['syncState'], io: Deps['io']): string {
  const version = state.pluginVersion === undefined ? '' : ` ${state.pluginVersion}`;
  if (state.kind === 'plugin') return `plugin (blogctl-sync${version})`;
  if (state.pluginNewer)
    return `marker ${io.paint('yellow', `(blogctl-sync${version} is newer than this blogctl: update blogctl to use it)`)}`;
  return "marker (no blogctl-sync plugin: the state rides in each post's content)";
}

const SEO_PLUGIN_NAMES = { yoast: 'Yoast SEO', rankmath: 'Rank Math', aioseo: 'All in One SEO' } as const;

/** `Yoast SEO (writable: title, description)`; the fields it cannot take are warnings, one per field. */
function seoText(seo: VerifyResult['seo'], io: Deps['io']): string {
  if (seo.plugin === null) return 'no SEO plugin (front matter seo: fields are not sent)';
  const writable = seo.writable.length ? seo.writable.join(', ') : io.paint('yellow', 'none');
  return `${SEO_PLUGIN_NAMES[seo.plugin]} (writable: ${writable})`;
}

/**
 * Verifies with the password publishing would use (--password-stdin, BLOGCTL_WP_PASSWORD, the stored one,
 * then a prompt) and records the outcome: valid on success, not valid on refused credentials.
 */
export async function verifyRun(
  input: { id: string; passwordStdin: boolean },
  deps: Pick<Deps, 'store' | 'settings' | 'env' | 'io' | 'prompter' | 'readStdin' | 'wordpress'>,
): Promise<VerifyResult> {
  const site = loadSite(deps.store(), input.id);
  const { credentials } = await resolveCredentials(
    { site: input.id, passwordStdin: input.passwordStdin },
    deps,
  );
  const client = await deps.wordpress(credentials);
  const { verifySite } = await import('../../../../wordpress/verify.js');
  try {
    const verification = await verifySite(client);
    const verifiedAt = await recordVerdict(deps, input.id, true);
    return { id: site.id, url: site.url, valid: true, verifiedAt, ...verification };
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    await recordVerdict(deps, input.id, false);
    if (error.context.status !== 401) throw error;
    throw new AuthError(error.message, {
      ...error.context,
      hints: [
        ...(error.context.hints ?? []),
        `store a new Application Password with \`blogctl wp sites set-password ${input.id}\``,
      ],
    });
  }
}

async function recordVerdict(deps: Pick<Deps, 'store'>, id: string, valid: boolean): Promise<string> {
  const verifiedAt = new Date().toISOString();
  await deps.store().updateConfig((c) => {
    const profile = c.sites?.[id];
    if (!profile) return;
    profile.isWebsiteValid = valid;
    profile.verifiedAt = verifiedAt;
  });
  return verifiedAt;
}

// `wp sites verify`: can blogctl reach this WordPress, and may these credentials publish? Public REST routes
// answer wrong credentials anonymously (200), so only an authenticated route — `users/me` — proves them.
import * as z from 'zod/mini';
import { AuthError, UnavailableError } from '../errors.js';
import { offersWpV2, permalinkMode, routeEndpoint, type RestIndex, type WordPressClient } from './client.js';
import { offersSyncPlugin, syncStateSupport } from './blogctl-plugin.js';
import { decodeEntities } from '../lib/html-entities.js';
import { seoReport, type SeoPluginKind, type SeoSupport } from './seo.js';

export interface VerifiedUser {
  id: number;
  /** Display name. */
  name: string;
  slug?: string;
  /** The login name (present with `context=edit`). */
  username?: string;
  roles: string[];
}

export interface SiteVerification {
  /** The REST root in use: `…/wp-json/` or `…/?rest_route=/`. */
  restRoot: string;
  /** Which root form the site answers on: `plain` means `?rest_route=` (plain permalinks). */
  permalinks: 'pretty' | 'plain';
  /** The REST index lists `application-passwords` under `authentication`. */
  applicationPasswords: boolean;
  siteName?: string;
  /**
   * Where a sync keeps its state on this site: `plugin` when the companion plugin blogctl-sync is active
   * (protected post meta, exact listing), else `marker` (an HTML comment in each post's content).
   */
  syncState: SyncStateReport;
  /**
   * The SEO plugin the REST index shows (null: none), the SEO fields of front matter this site takes, and why
   * each other one cannot be written.
   */
  seo: SeoReport;
  user: VerifiedUser;
  can: {
    /** publish_posts */
    publish: boolean;
    /** upload_files */
    uploadMedia: boolean;
    /** manage_categories: what WordPress asks of whoever creates a category (Editors and Administrators). */
    createCategories: boolean;
    /**
     * edit_posts: a tag is created by whoever may assign tags (WordPress checks `assign_terms` for a
     * taxonomy without hierarchy, and maps assign_post_tags to edit_posts), so an Author can.
     */
    createTags: boolean;
    /**
     * edit_others_posts (Editors and Administrators): a sync must see every post of the site, other users'
     * included, or it takes another user's post of a source for missing and publishes it again.
     */
    sync: boolean;
  };
}

interface SeoReport {
  plugin: SeoPluginKind | null;
  writable: SeoSupport['writable'];
  missing: SeoSupport['missing'];
}

interface SyncStateReport {
  kind: 'plugin' | 'marker';
  /** The plugin's version, when it is installed and this account may read it. */
  pluginVersion?: string;
  /** Installed, but it speaks a newer state format than this blogctl: not used. */
  pluginNewer?: boolean;
}

const me = z.looseObject({
  id: z.number(),
  name: z.string(),
  slug: z.optional(z.string()),
  username: z.optional(z.string()),
  roles: z.optional(z.array(z.string())),
  capabilities: z.optional(z.record(z.string(), z.unknown())),
});

/**
 * Discovers the REST root (Link header, then `?rest_route=`), reads the REST index (whether Application
 * Passwords are offered), then checks the credentials with `GET wp/v2/users/me?context=edit`.
 *
 * Throws AuthError (exit 4) on 401/403, with `context.hints` listing the likely causes; UnavailableError
 * (exit 7) when the site cannot be reached or is not WordPress.
 */
export async function verifySite(client: WordPressClient): Promise<SiteVerification> {
  const restRoot = await client.restRoot();
  let index: RestIndex | undefined;
  try {
    index = await client.index();
  } catch (error) {
    // Some sites close the whole REST API to callers they do not recognise; users/me will tell why.
    if (!(error instanceof AuthError)) throw error;
  }
  if (index && offersWpV2(index) === false) throw withoutWpV2(client.siteUrl, restRoot, index);
  const applicationPasswords = offersApplicationPasswords(index);

  const route = 'wp/v2/users/me';
  const res = await client.route(route, {
    method: 'GET',
    params: { context: 'edit' },
    passStatuses: [401, 403],
    label: 'check the WordPress credentials',
  });
  if (res.status === 401 || res.status === 403) {
    const body = (res.body ?? {}) as { code?: unknown; message?: unknown };
    const serviceMessage = typeof body.message === 'string' ? decodeEntities(body.message) : undefined;
    const peerCode = typeof body.code === 'string' ? body.code : undefined;
    const endpoint = routeEndpoint('GET', restRoot, route);
    throw new AuthError(
      `WordPress at ${client.siteUrl} did not accept the credentials of "${client.site.username}": HTTP ${res.status} ${endpoint}${serviceMessage ? `: ${serviceMessage}` : ''}`,
      {
        status: res.status,
        endpoint,
        ...(serviceMessage && { serviceMessage }),
        ...(peerCode && { peerCode }),
        hints: credentialHints({
          siteUrl: client.siteUrl,
          username: client.site.username,
          applicationPasswords: index ? applicationPasswords : undefined,
        }),
      },
    );
  }
  const user = me.safeParse(res.body);
  if (!user.success) {
    throw new AuthError(`WordPress at ${client.siteUrl}: users/me did not describe a user`, {
      status: res.status,
      endpoint: routeEndpoint('GET', restRoot, route),
    });
  }
  const caps = user.data.capabilities ?? {};
  const has = (cap: string): boolean => caps[cap] === true;
  return {
    restRoot,
    permalinks: permalinkMode(restRoot),
    applicationPasswords,
    ...(index?.name !== undefined && { siteName: decodeEntities(index.name) }),
    syncState: await syncStateReport(client, index),
    seo: await seoFields(client, index),
    user: {
      id: user.data.id,
      name: decodeEntities(user.data.name),
      ...(user.data.slug !== undefined && { slug: user.data.slug }),
      ...(user.data.username !== undefined && { username: user.data.username }),
      roles: user.data.roles ?? [],
    },
    can: {
      publish: has('publish_posts'),
      uploadMedia: has('upload_files'),
      createCategories: has('manage_categories'),
      createTags: has('edit_posts'),
      sync: has(SYNC_CAPABILITY),
    },
  };
}

/** The plugin when the REST index lists it; its info route read only then. */
async function syncStateReport(
  client: WordPressClient,
  index: RestIndex | undefined,
): Promise<SyncStateReport> {
  if (!offersSyncPlugin(index)) return { kind: 'marker' };
  const support = await syncStateSupport(client);
  const version = support.info?.version;
  return {
    kind: support.kind,
    ...(version !== undefined && { pluginVersion: version }),
    ...(support.kind === 'marker' && support.reason === 'newer' && { pluginNewer: true }),
  };
}

async function seoFields(client: WordPressClient, index: RestIndex | undefined): Promise<SeoReport> {
  const support = await seoReport(client, index);
  return { plugin: support.plugin ?? null, writable: support.writable, missing: support.missing };
}

/** What an account needs for `wp publish` to see every post: WordPress's capability, and the roles having it. */
export const SYNC_CAPABILITY = 'edit_others_posts';
export const SYNC_ROLES = 'the Editor or Administrator role';

/**
 * Before a sync reads the site: may this account see every post (edit_others_posts)? An Author sees only its
 * own drafts, pending and private posts, so a look-up would miss the others'. Returns the AuthError (exit 4)
 * naming the role needed when it may not; a failed request throws.
 */
export async function checkCanSync(client: WordPressClient): Promise<AuthError | undefined> {
  return (await syncAccount(client)).refused;
}

/** The account's user id, and the error refusing it a sync (undefined when it can). */
export async function syncAccount(
  client: WordPressClient,
): Promise<{ refused: AuthError | undefined; id: number | undefined }> {
  const res = await client.route('wp/v2/users/me', {
    method: 'GET',
    params: { context: 'edit', _fields: 'id,username,slug,name,roles,capabilities' },
    label: 'check what the account can see',
  });
  const user = me.safeParse(res.body);
  const caps = user.success ? (user.data.capabilities ?? {}) : {};
  const id = user.success ? user.data.id : undefined;
  if (caps[SYNC_CAPABILITY] === true) return { refused: undefined, id };
  const roles = user.success && user.data.roles?.length ? user.data.roles.join(', ') : 'unknown';
  const refused = new AuthError(
    `the account "${client.site.username}" (role: ${roles}) cannot see other users' posts on ${client.siteUrl}: publishing in step needs WordPress's ${SYNC_CAPABILITY} capability (${SYNC_ROLES}); nothing was sent`,
    {
      hints: [
        `give "${client.site.username}" ${SYNC_ROLES} in WordPress (Users → Edit → Role), or publish with an account that has it`,
        '`blogctl wp sites verify <site>` shows "can sync"',
      ],
    },
  );
  return { refused, id };
}

/** The site answers REST requests, but not WordPress's own routes: nothing blogctl does can work (exit 7). */
function withoutWpV2(siteUrl: string, restRoot: string, index: RestIndex): UnavailableError {
  const namespaces = index.namespaces?.length ? index.namespaces.join(', ') : 'none';
  return new UnavailableError(
    `WordPress at ${siteUrl}: REST API present but wp/v2 missing (the REST index at ${restRoot} lists the namespaces: ${namespaces})`,
    {
      endpoint: routeEndpoint('GET', restRoot, ''),
      hints: [
        'blogctl needs wp/v2 for posts, categories, tags, media and users',
        'a plugin or security setting that "disables the REST API" may have removed it: allow wp/v2 for authenticated users',
      ],
    },
  );
}

/** `authentication: {"application-passwords": {…}}` in the index; `[]` when WordPress turned them off. */
export function offersApplicationPasswords(index: RestIndex | undefined): boolean {
  const auth = index?.authentication;
  return typeof auth === 'object' && auth !== null && !Array.isArray(auth) && 'application-passwords' in auth;
}

export interface CredentialHintInput {
  siteUrl: string;
  username: string;
  /** From the REST index; undefined when the index could not be read or has no `authentication` at all. */
  applicationPasswords: boolean | undefined;
}

/**
 * The likely causes of a 401, most likely first. WordPress gives the same answer for all of them (a wrong
 * password is not reported as such), so the list is what a person can check.
 */
export function credentialHints({ siteUrl, username, applicationPasswords }: CredentialHintInput): string[] {
  // WordPress decides by the scheme and WP_ENVIRONMENT_TYPE, not the host name: a plain-HTTP site has them
  // only when it is declared a `local` environment.
  const plainHttp = /^http:/i.test(siteUrl);
  const unavailable =
    applicationPasswords === false
      ? `Application Passwords are not available on this site: its REST index lists no "application-passwords" authentication${plainHttp ? ' (WordPress turns them off on plain HTTP unless the site declares WP_ENVIRONMENT_TYPE local: use https)' : ' (a plugin or setting may turn them off)'}`
      : applicationPasswords === undefined && plainHttp
        ? 'Application Passwords may be unavailable: WordPress turns them off on plain HTTP unless the site declares WP_ENVIRONMENT_TYPE local (use https)'
        : undefined;
  const hints = [
    'the Application Password is wrong or was revoked (the login password does not work here: create one under Users → Profile → Application Passwords)',
    `"${username}" must be the WordPress username you log in with, not the name given to the Application Password`,
    'a server or proxy in front of WordPress may strip the Authorization header (Apache with CGI/FastCGI needs SetEnvIf Authorization "(.*)" HTTP_AUTHORIZATION=$1)',
  ];
  if (unavailable) hints.splice(applicationPasswords === false ? 0 : 1, 0, unavailable);
  return hints;
}

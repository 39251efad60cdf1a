// A WordPress REST client: finds the REST root, authenticates with an Application Password (Basic auth)
// and speaks wp/v2. Used by the sandbox's publish relay and by the CLI's verify/terms/media steps.
import * as z from 'zod/mini';
import { AuthError, BlogctlError, UnavailableError } from '../errors.js';
import { HttpClient } from '../http/client.js';
import type { Body, HttpClientOptions, HttpResponse, RequestSpec } from '../http/spec.js';
import type { Schema } from '../schemas/validate.js';
import { basicAuthorization } from '../output/redact.js';
import type { PostContent } from '../schemas/wordpress.js';
import { CHECK_AND_CHANGE } from './credential-hints.js';

export interface WordPressSite {
  websiteUrl: string;
  username: string;
  password: string;
}

export const wpPost = z.looseObject({
  id: z.number(),
  status: z.string(),
  link: z.optional(z.string()),
  type: z.optional(z.string()),
  slug: z.optional(z.string()),
});
export type WpPost = z.infer<typeof wpPost>;

export const restIndex = z.looseObject({
  name: z.optional(z.string()),
  url: z.optional(z.string()),
  namespaces: z.optional(z.array(z.string())),
  authentication: z.optional(z.unknown()),
});
export type RestIndex = z.infer<typeof restIndex>;

const LINK_REL = 'https://api.w.org/';

/** Finds the REST root URL in a `Link` header: `<http://site/wp-json/>; rel="https://api.w.org/"`. */
export function restRootFromLink(link: string | undefined): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(/,(?=\s*<)/)) {
    const m = /<([^>]+)>\s*;(.*)$/.exec(part.trim());
    // rel may list several relation types: rel="https://api.w.org/ other".
    const rel = m && /(?:^|;)\s*rel\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(m[2]!);
    const rels = rel ? (rel[1] ?? rel[2] ?? '').split(/\s+/) : [];
    if (m && rels.includes(LINK_REL)) return m[1];
  }
  return undefined;
}

/** `plain` when the root is the `?rest_route=/` form (plain permalinks), else `pretty` (`…/wp-json/`). */
export function permalinkMode(root: string): 'pretty' | 'plain' {
  return new URL(root).searchParams.has('rest_route') ? 'plain' : 'pretty';
}

/**
 * Builds the URL of a REST route under either root form: `…/wp-json/` (pretty permalinks) or
 * `…/?rest_route=/` (plain permalinks, where `/wp-json/` answers a POST with the HTML home page).
 */
export function routeUrl(
  root: string,
  route: string,
  query: Record<string, string | number | undefined> = {},
): string {
  const url = new URL(root);
  const cleanRoute = route.replace(/^\/+/, '');
  if (url.searchParams.has('rest_route')) {
    url.searchParams.set('rest_route', `/${cleanRoute}`);
  } else {
    url.pathname = url.pathname.replace(/\/?$/, '/') + cleanRoute;
  }
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
  return url.toString();
}

/**
 * `METHOD route` as errors show it: the path under pretty permalinks, `?rest_route=…` under plain ones (where
 * every path is just `/index.php`).
 */
export function routeEndpoint(method: string, root: string, route: string): string {
  const url = new URL(routeUrl(root, route));
  const restRoute = url.searchParams.get('rest_route');
  return `${method} ${restRoute === null ? url.pathname : `${url.pathname}?rest_route=${restRoute}`}`;
}

/**
 * A site reached over https that advertises an http REST root on the same host (a common reverse-proxy
 * misconfiguration) would otherwise receive the Basic credentials in clear text: stay on https.
 */
export function keepHttps(siteUrl: string, root: string): string {
  const site = new URL(siteUrl);
  const rest = new URL(root);
  if (site.protocol === 'https:' && rest.protocol === 'http:' && rest.hostname === site.hostname) {
    rest.protocol = 'https:';
    rest.port = site.port;
    return rest.toString();
  }
  return root;
}

/**
 * Whether a REST root may receive the site's credentials: the same host name and port as the site URL (after
 * keepHttps), or the same host moving from http to https on the default ports. A `Link` header is the site's
 * word only; one naming another host or port (a misconfigured proxy, a CDN, a hostile page cache) must not
 * be handed the Application Password.
 */
export function mayCarryCredentials(siteUrl: string, root: string): boolean {
  const site = new URL(siteUrl);
  const rest = new URL(root);
  if (rest.hostname !== site.hostname) return false;
  if (rest.protocol === site.protocol) return rest.port === site.port;
  return site.protocol === 'http:' && rest.protocol === 'https:' && site.port === '' && rest.port === '';
}

export type WordPressHttpOptions = Omit<HttpClientOptions, 'baseUrl' | 'headers'> & {
  /** A REST root already known (e.g. from an earlier verify): skips discovery. */
  restRoot?: string;
};

/** Query values for route(); arrays are not needed by any caller. */
export type RouteParams = Record<string, string | number | undefined>;

export class WordPressClient {
  readonly http: HttpClient;
  readonly siteUrl: string;
  /**
   * Basic credentials, added per request rather than to every request of `http`: only REST routes under a
   * root on the site's own host get them (never the discovery `GET /`, which needs none).
   */
  private readonly authorization: string;
  private root: string | undefined;
  private discovery: Promise<string> | undefined;
  private cachedIndex: RestIndex | undefined;
  /** The site's clock minus the local one, in ms, from the `Date` header of the latest REST answer. */
  private serverOffsetMs: number | undefined;

  constructor(
    readonly site: WordPressSite,
    options: WordPressHttpOptions = {},
  ) {
    this.siteUrl = site.websiteUrl.replace(/\/+$/, '');
    const { restRoot, ...httpOptions } = options;
    if (restRoot && mayCarryCredentials(this.siteUrl, restRoot)) this.root = restRoot;
    this.authorization = basicAuthorization(site.username, site.password);
    this.http = new HttpClient({
      ...httpOptions,
      baseUrl: this.siteUrl,
      advice: {
        redirect: `the WordPress site ${this.siteUrl} redirects: use the address it points to as the site's URL (its site profile's --url, or the project's site.url)`,
      },
    });
  }

  /**
   * The REST root, from the home page's Link header, else `?rest_route=/` when that answers the index.
   * Discovered once per client; concurrent callers share the one discovery.
   */
  async restRoot(): Promise<string> {
    if (this.root) return this.root;
    this.discovery ??= this.discover().finally(() => {
      this.discovery = undefined;
    });
    return this.discovery;
  }

  private async discover(): Promise<string> {
    // The home page is public: it is asked for without the credentials.
    const home = await this.http.request({
      method: 'GET',
      path: `${this.siteUrl}/`,
      acceptText: true,
      label: 'discover the WordPress REST API',
      // A redirect of the home page (http → https, bare domain → www) is read for its Location below.
      passStatuses: [301, 302, 303, 307, 308, 401, 403, 404, 500],
    });
    const fromLink = restRootFromLink(home.headers['link']);
    const linked = fromLink === undefined ? undefined : keepHttps(this.siteUrl, fromLink);
    if (linked !== undefined && mayCarryCredentials(this.siteUrl, linked)) {
      this.root = linked;
      return this.root;
    }
    // No Link, or one pointing elsewhere: the site's own URL answers `?rest_route=` whatever the permalinks.
    const fallback = `${this.siteUrl}/?rest_route=/`;
    const index = await this.http.request({
      method: 'GET',
      path: fallback,
      headers: { authorization: this.authorization },
      acceptText: true,
      label: 'discover the WordPress REST API',
      passStatuses: [404],
    });
    if (index.status === 200 && isRestIndex(index.body)) {
      this.root = fallback;
      const parsed = restIndex.safeParse(index.body);
      if (parsed.success) this.cachedIndex = parsed.data;
      return fallback;
    }
    // A redirect (http → https, bare domain → www) is the commonest reason: say where it points.
    const location = home.status >= 300 && home.status < 400 ? home.headers['location'] : undefined;
    const hints = [
      ...(location ? [`the site redirects to ${location}: use that URL as the site's address`] : []),
      ...(linked !== undefined
        ? [
            `the site names its REST API at ${new URL(linked).origin}, another host or port than ${new URL(this.siteUrl).origin}: blogctl sends the credentials only to the site's own address; if that is where the site really lives, use it as the site's address`,
          ]
        : []),
    ];
    throw new UnavailableError(
      `${this.siteUrl} does not look like a WordPress site: ${linked !== undefined ? 'its REST API link points to another host' : 'no REST API link header'} and no JSON at ?rest_route=/`,
      { endpoint: `GET ${new URL(fallback).pathname}`, ...(hints.length && { hints }) },
    );
  }

  /** One request to a REST route, under whichever root form the site uses. */
  async route<S extends Schema | undefined = undefined>(
    route: string,
    spec: Omit<RequestSpec<S>, 'path'> & { params?: RouteParams },
  ): Promise<HttpResponse<Body<S>>> {
    const root = await this.restRoot();
    const { params, ...rest } = spec;
    try {
      const res = await this.http.request<S>({
        ...rest,
        path: routeUrl(root, route, params),
        headers: { ...rest.headers, authorization: this.authorization },
      } as RequestSpec<S>);
      const date = Date.parse(res.headers['date'] ?? '');
      if (Number.isFinite(date)) this.serverOffsetMs = date - Date.now();
      return res;
    } catch (error) {
      throw this.refusedCredentials(error, params) ?? error;
    }
  }

  /**
   * The site's time now, on its own clock: the `Date` header of the latest REST answer (whole seconds, so at
   * most a second early) moved on by the local time elapsed since. Undefined before any answer carried one.
   */
  serverNow(): Date | undefined {
    return this.serverOffsetMs === undefined ? undefined : new Date(Date.now() + this.serverOffsetMs);
  }

  /**
   * A refusal of the credentials, whatever route said it, is an AuthError (exit 4) with the causes a person
   * can check: any 401/403, and the 400 `rest_invalid_param` on `status` that WordPress gives a caller it
   * does not recognise for a status beyond `publish` (a wrong Application Password is served as anonymous,
   * and an anonymous caller may not ask for drafts or the trash).
   */
  private refusedCredentials(error: unknown, params: RouteParams | undefined): AuthError | undefined {
    if (!(error instanceof BlogctlError) || error instanceof AuthError) {
      return error instanceof AuthError && !error.context.hints?.length ? this.authError(error) : undefined;
    }
    const { status, peerCode, serviceMessage } = error.context;
    const statusRefused =
      status === 400 &&
      peerCode === 'rest_invalid_param' &&
      params?.['status'] !== undefined &&
      /\bstatus\b/.test(serviceMessage ?? error.message);
    if (!statusRefused) return undefined;
    return this.authError(
      error,
      `${error.message} (WordPress at ${this.siteUrl} answered as to an anonymous caller: it did not accept the credentials of "${this.site.username}")`,
    );
  }

  /**
   * The causes `wp sites verify` lists, each in a few words (a script's log gets them folded into its one
   * error line), and the two commands that tell which and mend it.
   */
  private authError(error: BlogctlError, message = error.message): AuthError {
    // 403: WordPress knows the user, whose role lacks what the request needs.
    const hints =
      error.context.status === 403
        ? [
            `WordPress accepted "${this.site.username}" but its role may not do this: use an Editor or Administrator`,
            '`blogctl wp sites verify SITE` lists what the user may do',
          ]
        : [
            'the Application Password is wrong or was revoked (the login password does not work here)',
            `"${this.site.username}" must be the WordPress login name`,
            'a proxy may strip the Authorization header',
            CHECK_AND_CHANGE,
          ];
    return new AuthError(message, { ...error.context, hints });
  }

  /** The REST index (site name, namespaces, `authentication`); read once per client. */
  async index(): Promise<RestIndex> {
    if (this.cachedIndex) return this.cachedIndex;
    const res = await this.route('', {
      method: 'GET',
      schema: restIndex,
      label: 'read the WordPress REST index',
    });
    this.cachedIndex = res.body;
    return res.body;
  }

  /** Creates a post from the content fields (spec 2.3). A 2xx that is not JSON is a failure, not a success. */
  async createPost(content: PostContent): Promise<WpPost> {
    const res = await this.route('wp/v2/posts', {
      method: 'POST',
      json: content,
      schema: wpPost,
      label: 'create the WordPress post',
    });
    return res.body;
  }

  async close(): Promise<void> {
    await this.http.close();
  }
}

function isRestIndex(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const b = body as Record<string, unknown>;
  return Array.isArray(b['namespaces']) || typeof b['routes'] === 'object';
}

/**
 * Whether a REST index offers WordPress's own routes (`wp/v2`: posts, terms, media, users), which everything
 * blogctl does needs. A REST API can be there without them: plugins that "disable the REST API" often remove
 * only the core namespace. Undefined when the index lists neither namespaces nor routes.
 */
export function offersWpV2(index: RestIndex): boolean | undefined {
  if (Array.isArray(index.namespaces)) return index.namespaces.includes('wp/v2');
  const routes = (index as Record<string, unknown>)['routes'];
  if (routes && typeof routes === 'object') return Object.keys(routes).some((r) => r.startsWith('/wp/v2'));
  return undefined;
}

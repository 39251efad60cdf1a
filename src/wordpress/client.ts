// A WordPress REST client: finds the REST root, authenticates with an Application Password (Basic auth)
// and speaks wp/v2. Used by the sandbox's publish relay and by the CLI's verify/terms/media steps.
import * as z from 'zod/mini';
import { UnavailableError } from '../errors.js';
import { HttpClient, type HttpClientOptions, type RequestSpec } from '../http/client.js';
import type { PostContent } from '../schemas/wordpress.js';

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

const restIndex = z.looseObject({
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
    if (m && /rel="?https:\/\/api\.w\.org\/"?/.test(m[2]!)) return m[1];
  }
  return undefined;
}

/**
 * Builds the URL of a REST route under either root form: `…/wp-json/` (pretty permalinks) or
 * `…/?rest_route=/` (plain permalinks, where `/wp-json/` answers a POST with the HTML home page).
 */
export function routeUrl(root: string, route: string, query: Record<string, string | number | undefined> = {}): string {
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

export type WordPressHttpOptions = Omit<HttpClientOptions, 'baseUrl' | 'headers'>;

export class WordPressClient {
  readonly http: HttpClient;
  readonly siteUrl: string;
  private root: string | undefined;

  constructor(
    readonly site: WordPressSite,
    options: WordPressHttpOptions = {},
  ) {
    this.siteUrl = site.websiteUrl.replace(/\/+$/, '');
    const auth = Buffer.from(`${site.username}:${site.password}`).toString('base64');
    this.http = new HttpClient({ ...options, baseUrl: this.siteUrl, headers: { authorization: `Basic ${auth}` } });
  }

  /** The REST root, from the home page's Link header, else `?rest_route=/` when that answers the index. */
  async restRoot(): Promise<string> {
    if (this.root) return this.root;
    const home = await this.http.request({
      method: 'GET',
      path: `${this.siteUrl}/`,
      acceptText: true,
      label: 'discover the WordPress REST API',
      passStatuses: [401, 403, 404, 500],
    });
    const fromLink = restRootFromLink(home.headers['link']);
    if (fromLink) {
      this.root = fromLink;
      return fromLink;
    }
    const fallback = `${this.siteUrl}/?rest_route=/`;
    const index = await this.http.request({
      method: 'GET',
      path: fallback,
      acceptText: true,
      label: 'discover the WordPress REST API',
      passStatuses: [404],
    });
    if (index.status === 200 && isRestIndex(index.body)) {
      this.root = fallback;
      return fallback;
    }
    throw new UnavailableError(
      `${this.siteUrl} does not look like a WordPress site: no REST API link header and no JSON at ?rest_route=/`,
      { endpoint: `GET ${new URL(fallback).pathname}` },
    );
  }

  async route<S extends z.ZodMiniType | undefined = undefined>(
    route: string,
    spec: Omit<RequestSpec<S>, 'path'> & { params?: Record<string, string | number | undefined> },
  ) {
    const root = await this.restRoot();
    const { params, ...rest } = spec;
    return this.http.request<S>({ ...rest, path: routeUrl(root, route, params) } as RequestSpec<S>);
  }

  async index(): Promise<RestIndex> {
    const res = await this.route('', { method: 'GET', schema: restIndex, label: 'read the WordPress REST index' });
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

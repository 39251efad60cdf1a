// The service client: one typed method per endpoint of the specification (section 4).
import { UnavailableError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import type { ArrayCollector } from '../http/json-array.js';
import type { BlogParams } from '../schemas/blog.js';
import type { Blog } from '../schemas/blog-record.js';
import type { Credentials, PostContent } from '../schemas/wordpress.js';
import type {
  SiteIntegration,
  SiteIntegrationPatch,
  UpdateSettingsResponse,
} from '../schemas/wordpress-settings.js';
import type { PublishResult } from '../schemas/wordpress-publish.js';

// The WordPress schemas load with the WordPress endpoint that needs them (blog list, show, create and delete
// need none of them), once: in the bundle every import() of a chunk copies its exports into a fresh object,
// which a batch must not pay per post.
let publishModule: Promise<typeof import('../schemas/wordpress-publish.js')> | undefined;
const publishSchemas = (): Promise<typeof import('../schemas/wordpress-publish.js')> =>
  (publishModule ??= import('../schemas/wordpress-publish.js'));
let settingsModule: Promise<typeof import('../schemas/wordpress-settings.js')> | undefined;
const settingsSchemas = (): Promise<typeof import('../schemas/wordpress-settings.js')> =>
  (settingsModule ??= import('../schemas/wordpress-settings.js'));

// The Blog schemas, and zod with them, load once the request that needs them is on its way, so that they
// load while the server answers rather than before the request is sent.
let blogModule: Promise<typeof import('../schemas/blog-record.js')> | undefined;
const blogSchemas = (): Promise<typeof import('../schemas/blog-record.js')> =>
  (blogModule ??= import('../schemas/blog-record.js'));

export const API_PREFIX = '/api/v1/public';

/**
 * An id as one path segment. encodeURIComponent leaves `.` as it is, and a segment `.` or `..` would be
 * resolved away on the way (`delete-blog/..` is `/api/v1/public/`): dots are sent as %2E, which the server
 * decodes back.
 */
export function pathSegment(id: string): string {
  return encodeURIComponent(id).replace(/\./g, '%2E');
}

export interface DeleteResult {
  id: string;
  status: number;
  /** The JSON body of a 200, when there was one. */
  body?: unknown;
}

export interface BlogApiCallOptions {
  timeoutMs?: number;
  idempotencyKey?: string;
  /** create-blog: `Prefer: handling=strict` (RFC 7240), a post that misses what was asked is refused. */
  strict?: boolean;
}

export class BlogApi {
  constructor(private readonly http: HttpClient) {}

  /** Parameters always travel nested under `blogParams` (rule 4.3.1). */
  async createBlog(params: BlogParams, options: BlogApiCallOptions = {}): Promise<Blog> {
    const { blog } = await blogSchemas();
    const res = await this.http.request({
      method: 'POST',
      path: `${API_PREFIX}/create-blog`,
      json: { blogParams: params },
      schema: blog,
      label: 'create blog',
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      ...((options.idempotencyKey || options.strict) && {
        headers: {
          ...(options.idempotencyKey && { 'idempotency-key': options.idempotencyKey }),
          ...(options.strict && { prefer: 'handling=strict' }),
        },
      }),
    });
    return res.body;
  }

  /**
   * One blog by id (the service has no get-one endpoint): the list is read as it arrives and only that blog is
   * kept, so looking one up in a very long list costs no more memory than the blog itself.
   */
  async findBlog(id: string): Promise<{ blog: Blog | undefined; total: number }> {
    return this.collectBlogs(() => {
      let found: Blog | undefined;
      let total = 0;
      return {
        add: (b) => {
          total++;
          if (b._id === id) found = b;
        },
        done: () => ({ blog: found, total }),
      };
    });
  }

  /** How many blogs the key can list, keeping none of them: proves the key is accepted. */
  async countBlogs(): Promise<number> {
    return this.collectBlogs(() => {
      let total = 0;
      return { add: () => void total++, done: () => total };
    });
  }

  /** The title of every blog by id, keeping nothing else of them. */
  async blogTitles(): Promise<Map<string, string>> {
    return this.collectBlogs(() => {
      const titles = new Map<string, string>();
      return { add: (b) => void titles.set(b._id, b.title), done: () => titles };
    });
  }

  async listBlogs(): Promise<Blog[]> {
    return this.collectBlogs(() => {
      const blogs: Blog[] = [];
      return { add: (b) => void blogs.push(b), done: () => blogs };
    });
  }

  /**
   * Every blog, handed to the collector as the list arrives, so a caller that needs only some fields of each
   * never holds the whole list (20,000 blogs are about 100 MB). Fails as listBlogs() does, before done().
   */
  async collectBlogs<R>(collector: () => ArrayCollector<Blog, R>): Promise<R> {
    const res = await this.http.requestArray(
      {
        method: 'GET',
        path: `${API_PREFIX}/get-all-blogs`,
        schema: () => blogSchemas().then((m) => m.blogList),
        label: 'list blogs',
      },
      collector,
    );
    return res.body;
  }

  /** 200 with a JSON body or 204 with none: both are success (4.4). */
  async deleteBlog(id: string): Promise<DeleteResult> {
    const res = await this.http.request({
      method: 'DELETE',
      path: `${API_PREFIX}/delete-blog/${pathSegment(id)}`,
      allowEmpty: true,
      label: `delete blog ${id}`,
    });
    return { id, status: res.status, ...(res.body !== undefined && { body: res.body }) };
  }

  /** A single object is a partial update; an array replaces the whole list (4.1). */
  async updateWordPressSettings(
    settings: SiteIntegrationPatch | SiteIntegration[],
  ): Promise<UpdateSettingsResponse> {
    const { updateSettingsResponse } = await settingsSchemas();
    const res = await this.http.request({
      method: 'PATCH',
      path: `${API_PREFIX}/integrations/wordpress/update-settings`,
      json: { settings },
      // Setting the same fields twice leaves the same state: safe to repeat.
      idempotent: true,
      schema: updateSettingsResponse,
      label: 'update WordPress settings',
    });
    return res.body;
  }

  /**
   * Returns the normalised result whichever documented shape the service used. `published: false` is a
   * result, not an exception: the caller decides whether it fails (the CLI exits 6 with `reason`).
   */
  async publishToWordPress(
    credentials: Credentials,
    content: PostContent,
    options: BlogApiCallOptions = {},
  ): Promise<PublishResult> {
    const { normalisePublishResponse, anyJson } = await publishSchemas();
    const res = await this.http.request({
      method: 'POST',
      path: `${API_PREFIX}/integrations/wordpress/publish`,
      json: { credentials, content },
      schema: anyJson,
      label: 'publish to WordPress',
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      ...(options.idempotencyKey && { headers: { 'idempotency-key': options.idempotencyKey } }),
    });
    const result = normalisePublishResponse(res.body);
    if (!result) {
      throw new UnavailableError(
        'publish to WordPress: the service answered in neither documented shape ({isPublished, …} or {success, …})',
        { status: res.status, endpoint: `POST ${API_PREFIX}/integrations/wordpress/publish` },
      );
    }
    return result;
  }
}

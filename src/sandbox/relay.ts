// The publish relay (spec 4.2): sends the post to the WordPress site named in the request and answers in
// the configured shape. A refusal or an unreachable site is a normal 200 answer with the reason, as the
// service does; only a bug in the sandbox becomes a 500.
import { BlogctlError } from '../errors.js';
import type { PublishRequest } from '../schemas/wordpress-publish.js';
import { WordPressClient, type WpPost } from '../wordpress/client.js';
import { HttpProblem } from './http-io.js';

export type PublishShape = 'typed' | 'alt';

export interface RelayOptions {
  timeoutMs: number;
  shape: PublishShape;
  /**
   * Connect only to public addresses (set while the sandbox listens beyond loopback, unless
   * --allow-private-relay): a site on a loopback, link-local or private address is refused with a 400.
   */
  publicOnly?: boolean;
}

/** Relays started in this process and not yet finished, every sandbox in it together. */
let relaying = 0;

/**
 * How many publishes this process is relaying to WordPress right now. A post lands only through a relay, so
 * once no client can still send a request and this is 0, nothing more will land (what a test waits for).
 */
export function relaysInFlight(): number {
  return relaying;
}

export async function relayPublish(
  request: PublishRequest,
  options: RelayOptions,
): Promise<Record<string, unknown>> {
  relaying++;
  try {
    return await relay(request, options);
  } finally {
    relaying--;
  }
}

async function relay(request: PublishRequest, options: RelayOptions): Promise<Record<string, unknown>> {
  const { credentials, content } = request;
  const connectTimeoutMs = Math.min(options.timeoutMs, 10_000);
  let refusedHost: string | undefined;
  const client = new WordPressClient(credentials, {
    timeoutMs: options.timeoutMs,
    connectTimeoutMs,
    // The caller owns retries: it holds the idempotency key, and a relay that retried on its own could
    // stretch one request far past the caller's timeout.
    retry: { retries: 0 },
    ...(options.publicOnly && { publicOnly: { onRefused: (host: string) => (refusedHost ??= host) } }),
  });
  try {
    const post = await client.createPost(content);
    return published(post, options.shape);
  } catch (error) {
    if (refusedHost !== undefined) throw privateSiteRefused(refusedHost);
    if (!(error instanceof BlogctlError)) throw error;
    return refused(failureReason(error, credentials.websiteUrl, credentials.password), options.shape);
  } finally {
    await client.close();
  }
}

/** Names the host as the request gave it; never the address a name resolved to (a key holder's probe). */
function privateSiteRefused(host: string): HttpProblem {
  const message = `${host} is a loopback, link-local or private address, or resolves to one; the sandbox listens beyond loopback and relays only to public addresses (start it with --allow-private-relay to allow them)`;
  return new HttpProblem(400, `invalid request: credentials.websiteUrl: ${message}`, {
    issues: [{ path: 'credentials.websiteUrl', message }],
  });
}

function published(post: WpPost, shape: PublishShape): Record<string, unknown> {
  const id = String(post.id);
  const link = post.link ?? '';
  // Exactly the specification's other shape (4.2 rule 4): no status or type, so a client must ask WordPress.
  if (shape === 'alt') return { success: true, postUrl: link, postId: id };
  return { isPublished: true, link, id, status: post.status, type: post.type ?? 'post' };
}

function refused(reason: string, shape: PublishShape): Record<string, unknown> {
  if (shape === 'alt') return { success: false, message: reason };
  return { isPublished: false, status: reason, link: '', id: '', type: '' };
}

/**
 * One line a person can act on: WordPress's HTTP status, code and message when it answered, else why it
 * could not be reached. The password is scrubbed in case any peer echoed it.
 */
export function failureReason(error: BlogctlError, websiteUrl: string, password: string): string {
  const { status, peerCode, serviceMessage } = error.context;
  let reason: string;
  if (status !== undefined && serviceMessage) {
    reason = `WordPress answered HTTP ${status}${peerCode ? ` (${peerCode})` : ''}: ${serviceMessage}`;
  } else if (status !== undefined) {
    reason = `WordPress answered HTTP ${status}: ${error.message}`;
  } else if (peerCode) {
    // A network code or `timeout`: nothing came back from the site.
    reason = `WordPress at ${originOf(websiteUrl)} could not be reached: ${error.message}`;
  } else {
    reason = `WordPress at ${originOf(websiteUrl)}: ${error.message}`;
  }
  return scrub(reason.replace(/\s+/g, ' ').trim(), password);
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function scrub(text: string, password: string): string {
  let out = text;
  const spellings = [password, password.replace(/\s+/g, '')].filter((p) => p.length >= 4);
  for (const p of spellings) out = out.split(p).join('***');
  return out;
}

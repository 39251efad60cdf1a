// What publishing needs from the world, as narrow types defined here: the WordPress site client, the service
// client, the run's cancel signal (files and stdin come through lib/input-files.ts's StdinReader; the clock
// is the `now` a job is made with). The commands' factory (src/factory.ts) satisfies them, and a test builds
// only what a function takes. publishing/ never imports the factory, so nothing here pulls the sandbox (which
// the factory starts for --sandbox) into its import graph.
import type { BlogApi } from '../api/blog-api.js';
import type { WordPressClient, WordPressSite } from '../wordpress/client.js';

/** The WordPress REST client of a site, made on first use. */
export interface SitePort {
  wordpress(site: WordPressSite): Promise<WordPressClient>;
}

/** The service client (its publish endpoint, the generated blogs). */
export interface ServicePort {
  blogApi(options?: { connections?: number }): Promise<BlogApi>;
}

/** The run's signal: aborted on SIGINT/SIGTERM, so no new request starts. */
export interface CancelPort {
  signal: AbortSignal;
}

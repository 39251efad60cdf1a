// The real WordPress instances the end-to-end suite runs against, as test/e2e/setup.ts provides them.
import { inject } from 'vitest';

export interface WordPressInstance {
  /** `pretty` (`/wp-json/`) or `plain` (`?rest_route=`): also the name tests are reported under. */
  permalinks: 'pretty' | 'plain';
  baseUrl: string;
  /** The REST root WordPress advertises for this permalink mode. */
  restUrl: string;
  username: string;
  appPassword: string;
  /** The login password: REST Basic auth must refuse it. */
  adminPassword: string;
  /** The Application Password's *name* (up.sh's WP_APP_NAME), for the "name given as username" case. */
  appPasswordName: string;
  stateDir: string;
  port: number;
  /** An Author (publish_posts, no edit_others_posts) and its Application Password, made by up.sh. */
  authorUsername: string;
  authorAppPassword: string;
  /** An Editor (edit_others_posts) and its Application Password, made by up.sh. */
  editorUsername: string;
  editorAppPassword: string;
  /** blogctl's companion plugin (wordpress-plugin/) is installed as an mu-plugin. */
  syncPlugin: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Without the companion plugin. */
    wordpress: WordPressInstance[];
    /** With the companion plugin; empty with BLOGCTL_E2E_PLUGIN_PORTS=off. */
    wordpressPlugin: WordPressInstance[];
  }
}

/** Both instances (pretty first); fails loudly when the suite runs without test/e2e/setup.ts. */
export function wordpressInstances(): WordPressInstance[] {
  const instances = inject('wordpress');
  if (!instances?.length)
    throw new Error('no WordPress instances: run through vitest.e2e.config.ts (npm run test:e2e)');
  return instances;
}

/**
 * The instances with the companion plugin (pretty first); empty with BLOGCTL_E2E_PLUGIN_PORTS=off, when the
 * tests that need them are skipped.
 */
export function pluginInstances(): WordPressInstance[] {
  return inject('wordpressPlugin') ?? [];
}

/** Names unique to this run: instances may be reused between runs (BLOGCTL_E2E_KEEP=1). */
export const RUN_ID = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

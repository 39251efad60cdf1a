// What a request and its answer look like to HttpClient's callers (client.ts), and the client's options.
import type { Dispatcher } from 'undici';
import type { ArraySchema, Infer, Schema } from '../schemas/validate.js';
import type { PublicOnly } from './address-guard.js';
import type { RetryPolicy } from './retry.js';

declare const BLOGCTL_VERSION: string;
export const userAgent = `blogctl/${typeof BLOGCTL_VERSION === 'string' ? BLOGCTL_VERSION : 'dev'}`;

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'OPTIONS';

export interface RawBody {
  data: Buffer | Uint8Array | string;
  contentType: string;
}

export interface RequestSpec<S extends Schema | undefined = undefined> {
  method: Method;
  /** Path relative to the client's base URL (may already carry a query string). */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON body, or a raw one (media uploads). */
  json?: unknown;
  raw?: RawBody;
  headers?: Record<string, string>;
  /** Safe to repeat after any failure (GET, OPTIONS, DELETE, the settings PATCH). Defaults from the method. */
  idempotent?: boolean;
  /**
   * The whole time this call may take, from the first connect to the last byte of the last attempt,
   * waits between retries included: a server that never answers cannot hold the caller past it.
   */
  timeoutMs?: number;
  /** Validates the JSON body of a 2xx; an empty 2xx body passes as `undefined` when allowEmpty is set. */
  schema?: S;
  allowEmpty?: boolean;
  /** Accept a 2xx that is not JSON (returns its text). Otherwise a non-JSON 2xx is an error. */
  acceptText?: boolean;
  /** Human label for error messages: "create blog", "publish to WordPress". */
  label?: string;
  /** Statuses handed back to the caller as a response instead of thrown. */
  passStatuses?: number[];
}

export interface HttpResponse<T> {
  status: number;
  headers: Record<string, string>;
  body: T;
  text: string;
}

export interface HttpClientOptions {
  baseUrl: string;
  /** Sent on every request; values are never logged. */
  headers?: Record<string, string>;
  connectTimeoutMs?: number;
  /** Default time for one call (see RequestSpec.timeoutMs). */
  timeoutMs?: number;
  /** Overrides the environment's knobs (retryPolicyFromEnv), which override the defaults. */
  retry?: Partial<RetryPolicy>;
  /** Abort everything in flight (Ctrl-C). */
  signal?: AbortSignal;
  /** Redacted debug sink (`--debug`). */
  debug?: (line: string) => void;
  dispatcher?: Dispatcher;
  /** Connections per origin, for bulk commands. */
  connections?: number;
  /** Largest response body accepted; default BLOGCTL_MAX_RESPONSE_MB, else 100 MiB. */
  maxResponseBytes?: number;
  /** Bounds of a list answer as a whole; default BLOGCTL_MAX_LIST_MB / BLOGCTL_MAX_LIST_ITEMS, else 256 MiB and 100000 items. */
  listLimits?: import('./json-array.js').ListLimits;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Where proxy variables and the test/ops knobs are read; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** false: ignore HTTP(S)_PROXY (a server this process started on loopback, like the in-process sandbox). */
  proxy?: boolean;
  /**
   * Connect only to public addresses (address-guard.ts): every request over undici, directly (proxy variables
   * do not apply: the address checked must be the one reached). The sandbox's relay beyond loopback.
   */
  publicOnly?: PublicOnly;
  /**
   * Hints for the answers that most often mean the base URL is wrong: an HTML page where JSON was expected,
   * a host that cannot be reached (the service client names where its base URL came from), and a redirect
   * (each client names the setting that holds its address: the service's base URL, a site's URL).
   */
  advice?: { html?: string; unreachable?: string; redirect?: string };
}

export type Body<S> = S extends Schema ? Infer<S> : unknown;

/**
 * requestArray: the same request, with a `z.array(…)` schema whose elements arrive one by one. The schema
 * may be given as a loader: it is then called once the request is on its way, so that loading the schema
 * (and zod) overlaps the wait for the answer; elements that arrive before it is loaded wait for it.
 */
export type ArrayRequestSpec<E extends Schema> = Omit<
  RequestSpec<ArraySchema<E>>,
  'schema' | 'allowEmpty' | 'acceptText'
> & { schema: ArraySchema<E> | (() => Promise<ArraySchema<E>>) };

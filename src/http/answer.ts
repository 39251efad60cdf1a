// What an attempt's answer becomes (client.ts): the response the caller asked for (a body checked against its
// schema, a streamed array's collection), or one typed error saying what happened, with the peer's own
// message when it gave one. An error names the endpoint, never the query string or a credential.
import { UnavailableError, errorForStatus, type BlogctlError } from '../errors.js';
import { check, type Schema } from '../schemas/validate.js';
import { NETWORK_REASONS, ResponseCutOff, describe, notJsonError, schemaError } from './errors.js';
import { TooLarge } from './json-array-split.js';
import { ListTooLarge, type StreamedArray } from './json-array.js';
import { cleanSnippet, extractPeerMessage } from './message.js';
import { bypassesProxy, proxyFor, type proxyEnv } from './proxy.js';
import { RETRYABLE_STATUSES } from './retry.js';
import type { HttpResponse, RequestSpec } from './spec.js';
import type { Attempt } from './transport.js';
import { safeUrl } from './urls.js';

type ProxySettings = NonNullable<ReturnType<typeof proxyEnv>>;
const MIB = 1024 * 1024;

export function finish(
  outcome: Attempt,
  spec: RequestSpec<Schema | undefined>,
  endpoint: string,
): HttpResponse<never> {
  if (outcome.array) return finishArray(outcome, outcome.array, spec, endpoint);
  const what = spec.label ?? endpoint;
  const contentType = outcome.headers['content-type'] ?? '';
  const empty = outcome.text.trim() === '';
  if (empty) {
    // A 204 is no excuse: where the caller needs a JSON body, an empty answer is an invalid response.
    if (
      spec.allowEmpty ||
      spec.acceptText ||
      outcome.status >= 400 ||
      (outcome.status === 204 && !spec.schema)
    ) {
      return { ...outcome, body: undefined as never };
    }
    throw new UnavailableError(
      `${what}: the server answered HTTP ${outcome.status} with an empty body where JSON was expected`,
      {
        status: outcome.status,
        endpoint,
      },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(outcome.text);
  } catch {
    if (spec.acceptText) return { ...outcome, body: outcome.text as never };
    const { message } = extractPeerMessage(outcome.text, contentType);
    throw notJsonError(what, outcome.status, contentType, message, endpoint);
  }
  if (spec.schema && outcome.status < 400) {
    const result = check(spec.schema, parsed);
    if (!result.ok) throw schemaError(what, outcome.status, result.issues, endpoint);
    parsed = result.value;
  }
  return { ...outcome, body: parsed as never };
}

/** A streamed array body: the same answers as finish() gives for the whole body. */
function finishArray(
  outcome: Attempt,
  array: StreamedArray<unknown, unknown>,
  spec: RequestSpec<Schema | undefined>,
  endpoint: string,
): HttpResponse<never> {
  const what = spec.label ?? endpoint;
  let result: ReturnType<typeof array.end>;
  try {
    result = array.end();
  } catch (error) {
    if (error instanceof ListTooLarge)
      throw listTooLargeError(error, spec.label ? `${spec.label} failed` : 'request failed', endpoint);
    throw error;
  }
  switch (result.kind) {
    case 'items':
      return { ...outcome, body: result.value as never };
    case 'not-json': {
      // The whole body is not JSON, so extractPeerMessage would clean its start: that is what `head` holds.
      const message = cleanSnippet(result.head.trim()) || undefined;
      throw notJsonError(what, outcome.status, outcome.headers['content-type'] ?? '', message, endpoint);
    }
    case 'invalid':
      throw schemaError(what, outcome.status, result.issues, endpoint);
    case 'buffered': {
      // Empty, or not an array: every such body fails as it always did (an array would have streamed).
      const whole = finish({ ...outcome, text: result.text, array: undefined }, spec, endpoint);
      return { ...whole, body: array.collect(whole.body as unknown[]) as never };
    }
  }
}

/** Redirects are never followed (the Authorization header must not travel to wherever one points) and never
 * success: a 301 to a delete is not a delete. The caller learns where it points. */
export function redirectError(
  outcome: Attempt,
  spec: RequestSpec<Schema | undefined>,
  endpoint: string,
): BlogctlError {
  const location = outcome.headers['location'];
  return new UnavailableError(
    `${spec.label ?? endpoint} failed: the server answered HTTP ${outcome.status}, a redirect${location ? ` to ${safeUrl(location)}` : ''}; blogctl does not follow redirects`,
    {
      status: outcome.status,
      endpoint,
      // Which setting holds the address is the client's to say (HttpClientOptions.advice.redirect).
      hints: [location ? 'if it moved for good, use the address it points to' : 'check the address'],
    },
  );
}

export function statusError(
  outcome: Attempt,
  spec: RequestSpec<Schema | undefined>,
  endpoint: string,
  retryAfterMs: number | undefined,
): BlogctlError {
  const peer = extractPeerMessage(outcome.text, outcome.headers['content-type']);
  const what = spec.label ? `${spec.label} failed` : 'request failed';
  const message = `${what}: HTTP ${outcome.status} ${endpoint}${peer.message ? `: ${peer.message}` : ''}`;
  const hints =
    RETRYABLE_STATUSES.has(outcome.status) && retryAfterMs !== undefined && retryAfterMs >= 1000
      ? [`the server asked to retry after ${Math.ceil(retryAfterMs / 1000)} s`]
      : [];
  return errorForStatus(outcome.status, message, {
    status: outcome.status,
    endpoint,
    ...(peer.message && { serviceMessage: peer.message }),
    ...(peer.code && { peerCode: peer.code }),
    ...(hints.length && { hints }),
  });
}

export function networkError(
  error: unknown,
  spec: RequestSpec<Schema | undefined>,
  url: string,
  endpoint: string,
  timedOut: boolean,
  code: string | undefined,
  budgetMs: number,
  /** The proxy settings in force for this client, if any. */
  proxy: ProxySettings | undefined,
): BlogctlError {
  const what = spec.label ? `${spec.label} failed` : 'request failed';
  const origin = new URL(url).origin;
  if (error instanceof ListTooLarge) return listTooLargeError(error, what, endpoint);
  if (error instanceof TooLarge) {
    const part =
      error.element === undefined ? 'the response' : `item [${error.element}] of the list in the response`;
    return new UnavailableError(
      `${what}: ${endpoint}: ${part} was larger than ${formatBytes(error.max)} (BLOGCTL_MAX_RESPONSE_MB raises the limit)`,
      { endpoint },
    );
  }
  if (timedOut) {
    const seconds = Math.round(budgetMs / 100) / 10;
    return new UnavailableError(
      `${what}: ${endpoint}: no complete answer from ${origin} within ${seconds} s (raise --timeout)`,
      {
        endpoint,
        peerCode: 'timeout',
      },
    );
  }
  if (error instanceof ResponseCutOff) {
    const why = (code && NETWORK_REASONS[code]) ?? describe(error.cause) ?? code ?? 'unknown error';
    return new UnavailableError(
      `${what}: ${endpoint}: ${origin} answered HTTP ${error.status} but the answer was cut off before its end (${why})`,
      { status: error.status, endpoint, ...(code && { peerCode: code }) },
    );
  }
  const reason = (code && NETWORK_REASONS[code]) ?? describe(error) ?? code ?? 'unknown error';
  const via = proxy && !bypassesProxy(url, proxy.noProxy) ? proxyFor(url, proxy) : undefined;
  const hints = via
    ? [`requests go through the proxy ${safeUrl(via)} (HTTP(S)_PROXY; NO_PROXY lists hosts that bypass it)`]
    : [];
  // The proxy is named in the line itself: hint lines reach only a terminal, and a CI log is where a
  // wrong HTTPS_PROXY is usually found.
  const through = via ? ` through the proxy ${safeUrl(via)}` : '';
  return new UnavailableError(`${what}: cannot reach ${origin}${through}: ${reason}`, {
    endpoint,
    ...(code && { peerCode: code }),
    ...(hints.length && { hints }),
  });
}

function formatBytes(n: number): string {
  return n >= MIB ? `${Math.round((n / MIB) * 10) / 10} MiB` : `${n} bytes`;
}

/** A list over its limits (json-array.ts), naming the limit and the variable that raises it. */
function listTooLargeError(error: ListTooLarge, what: string, endpoint: string): UnavailableError {
  const over =
    error.unit === 'items'
      ? `had more than ${error.max} items (BLOGCTL_MAX_LIST_ITEMS raises the limit)`
      : `was larger than ${formatBytes(error.max)} (BLOGCTL_MAX_LIST_MB raises the limit)`;
  return new UnavailableError(`${what}: ${endpoint}: the list in the response ${over}`, { endpoint });
}

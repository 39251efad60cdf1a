// The errors of a request, as the HTTP layer words them: an answer that is not JSON or not the expected shape,
// a timeout or a cut body inside an attempt, and the one-line reason for a network failure (TLS included).
// Rule: a reason names the cause a person can act on, never a library's internal error name.
import { UnavailableError } from '../errors.js';
import { formatIssues, type FieldIssue } from '../schemas/validate.js';

/** The words notJsonError uses for an HTML answer: how the client recognises one to add advice. */
export const HTML_ANSWER = 'an HTML page';

export function notJsonError(
  what: string,
  status: number,
  contentType: string,
  message: string | undefined,
  endpoint: string,
): UnavailableError {
  return new UnavailableError(
    `${what}: the server answered HTTP ${status} with ${/html/i.test(contentType) ? HTML_ANSWER : 'a body that is not JSON'} (${message ?? 'empty'})`,
    { status, endpoint },
  );
}

export function schemaError(
  what: string,
  status: number,
  issues: FieldIssue[],
  endpoint: string,
): UnavailableError {
  return new UnavailableError(
    `${what}: unexpected response from the server: ${formatIssues(issues.slice(0, 3))}`,
    { status, endpoint },
  );
}

export class AttemptTimeout extends Error {
  constructor() {
    super('timeout');
  }
}
/** The connection failed after the status line: `cause` is what undici or node:http reported. */
export class ResponseCutOff extends Error {
  constructor(
    readonly status: number,
    cause: Error,
  ) {
    super('response cut off', { cause });
  }
}

const UNKNOWN_AUTHORITY =
  "the server's certificate is signed by an authority Node does not know (add it with NODE_EXTRA_CA_CERTS=/path/to/ca.pem)";

export const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ECONNRESET: 'connection reset by the server',
  EPIPE: 'connection closed while sending',
  UND_ERR_SOCKET: 'connection closed unexpectedly',
  UND_ERR_CLOSED: 'connection closed',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
  UND_ERR_HEADERS_TIMEOUT: 'timed out waiting for the response',
  UND_ERR_BODY_TIMEOUT: 'timed out reading the response',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the response was cut short',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'timed out',
  ERR_INVALID_URL: 'invalid URL',
  // TLS: an authority Node does not know (a company proxy's, a self-signed site's) is added, not ignored.
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: UNKNOWN_AUTHORITY,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: UNKNOWN_AUTHORITY,
  SELF_SIGNED_CERT_IN_CHAIN: UNKNOWN_AUTHORITY,
  DEPTH_ZERO_SELF_SIGNED_CERT: UNKNOWN_AUTHORITY,
  CERT_HAS_EXPIRED: "the server's certificate has expired",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's certificate is for another host name",
};

export function describe(error: unknown): string | undefined {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.slice(0, 200).trim() || undefined;
}

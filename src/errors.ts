// Typed errors, one per documented exit code. Nothing but bin/ exits: code throws one of these and
// src/cli/report.ts maps it to process.exitCode once.

export const ExitCode = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  cancelled: 3,
  auth: 4,
  notFound: 5,
  rejected: 6,
  unavailable: 7,
  /** `wp publish --exit-code`: the site is not in step with the sources (as `git diff --exit-code`). */
  outOfStep: 8,
  /**
   * A local write failed: stdout (a full disk, EIO, a closed descriptor: output was lost; bin/ sets it), or a
   * file blogctl keeps or saves (config.json, credentials.json, the --sandbox state: read-only, full, denied).
   */
  writeFailed: 9,
  interrupted: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export interface ErrorContext {
  /** HTTP status, when the error came from a response. */
  status?: number;
  /** `METHOD /path` of the request that failed. */
  endpoint?: string;
  /** The service's (or WordPress's) own message, already cleaned. */
  serviceMessage?: string;
  /** A machine-readable code from the peer (WordPress `code`), when there is one. */
  peerCode?: string;
  /**
   * Advice: a list under the error on a terminal; folded into the one line for a script (stderr not a
   * terminal), so a CI or cron log keeps it.
   */
  hints?: string[];
  /**
   * Per-item lines of a batch (which posts or ids failed, and why): a list under the error on a terminal,
   * never folded into the line — a script has them on stdout already (the summary, or --json).
   */
  details?: string[];
  /**
   * Every input problem of a run, each naming its file (and line): what GitHub annotations and the Markdown
   * plan list. The command prints them itself; the error report does not repeat them.
   */
  inputs?: string[];
}

export class BlogctlError extends Error {
  readonly exitCode: ExitCodeValue;
  readonly kind: string;
  readonly context: ErrorContext;

  constructor(kind: string, exitCode: ExitCodeValue, message: string, context: ErrorContext = {}) {
    super(message);
    this.name = new.target.name;
    this.kind = kind;
    this.exitCode = exitCode;
    this.context = context;
  }

  toJSON(): Record<string, unknown> {
    return {
      error: this.kind,
      message: this.message,
      exitCode: this.exitCode,
      ...(this.context.status !== undefined && { status: this.context.status }),
      ...(this.context.endpoint !== undefined && { endpoint: this.context.endpoint }),
      ...(this.context.serviceMessage !== undefined && { serviceMessage: this.context.serviceMessage }),
      ...(this.context.peerCode !== undefined && { code: this.context.peerCode }),
      ...(this.context.hints?.length && { hints: this.context.hints }),
      ...(this.context.details?.length && { details: this.context.details }),
    };
  }
}

/** Bad flags, files or values: nothing was sent. */
export class UsageError extends BlogctlError {
  constructor(message: string, context?: ErrorContext) {
    super('usage', ExitCode.usage, message, context);
  }
}
/** A person declined a confirmation. */
export class CancelledError extends BlogctlError {
  constructor(message = 'cancelled') {
    super('cancelled', ExitCode.cancelled, message);
  }
}
/** 401/403, or no API key / credentials at all. */
export class AuthError extends BlogctlError {
  constructor(message: string, context?: ErrorContext) {
    super('auth', ExitCode.auth, message, context);
  }
}
export class NotFoundError extends BlogctlError {
  constructor(message: string, context?: ErrorContext) {
    super('not_found', ExitCode.notFound, message, context);
  }
}
/** Any other 4xx, and a publish answered with `isPublished: false`. */
export class RejectedError extends BlogctlError {
  constructor(message: string, context?: ErrorContext) {
    super('rejected', ExitCode.rejected, message, context);
  }
}
/** 5xx, network failures, timeouts, invalid responses. */
export class UnavailableError extends BlogctlError {
  constructor(message: string, context?: ErrorContext) {
    super('unavailable', ExitCode.unavailable, message, context);
  }
}
/**
 * This machine refused a write: a read-only file system, a full disk or quota, permission denied, an I/O
 * error. Not the service's fault and not bad input; the message names the file and what was left as it was.
 */
export class WriteFailedError extends BlogctlError {
  constructor(message: string, context?: ErrorContext) {
    super('write_failed', ExitCode.writeFailed, message, context);
  }
}
/** Ctrl-C / SIGINT / SIGTERM. */
export class InterruptedError extends BlogctlError {
  constructor(message = 'interrupted') {
    super('interrupted', ExitCode.interrupted, message);
  }
}

/** Picks the typed error for an HTTP status: 401/403 → auth, 404 → not found, 4xx → rejected, else unavailable. */
export function errorForStatus(status: number, message: string, context: ErrorContext): BlogctlError {
  if (status === 401 || status === 403) return new AuthError(message, context);
  if (status === 404) return new NotFoundError(message, context);
  if (status >= 400 && status < 500) return new RejectedError(message, context);
  return new UnavailableError(message, context);
}

/**
 * `wp publish --exit-code`: the site differs from the sources — a dry run would create or update posts, or a
 * run left some as they were (`--no-update`, a post in the trash). Not a failure of blogctl: a finding.
 */
export class OutOfStepError extends BlogctlError {
  constructor(message: string, context: ErrorContext = {}) {
    super('out_of_step', ExitCode.outOfStep, message, context);
  }
}

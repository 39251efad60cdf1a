import { AuthError, BlogctlError, ExitCode, UnavailableError, UsageError } from '../../../errors.js';
import type { Deps } from '../../../factory.js';
import { jsonOutput } from '../../../output/json.js';
import { maskSecret, registerSecret } from '../../../output/redact.js';
import type { Input } from './command.js';

export interface LoginOptions {
  key: string;
  verify: boolean;
  /** A base URL typed at the prompt: stored in the profile, as --base-url is. */
  baseUrl?: string;
}

export interface LoginResult {
  profile: string;
  baseUrl?: string;
  key: string;
  verified: boolean | 'skipped';
}

export async function action({ opts, deps }: Input): Promise<void> {
  // Checked before the key is read or sent.
  const json = jsonOutput(deps.globals.json, ['profile', 'baseUrl', 'key', 'verified']);
  const baseUrl = await askBaseUrl(deps);
  checkCanVerify(opts.verify !== false, deps, baseUrl);
  let key: string;
  if (opts.withKey) {
    key = (await deps.readStdin()).split(/\r?\n/)[0]!.trim();
    if (!key) throw new UsageError('--with-key: no API key on stdin');
  } else if (deps.io.canPrompt) {
    key = (
      await deps.prompter().password('API key', { validate: (v) => (v.trim() ? true : 'enter the API key') })
    ).trim();
  } else {
    throw new UsageError(
      `no API key given and cannot prompt (${deps.io.noInputReason}): pipe it in with --with-key, or set BLOGCTL_API_KEY`,
    );
  }
  registerSecret(key);
  const result = await loginRun(
    { key, verify: opts.verify !== false, ...(baseUrl !== undefined && { baseUrl }) },
    deps,
  );
  const where = result.baseUrl ? ` for ${result.baseUrl}` : '';
  if (json.enabled) {
    return json.print(deps.io, {
      profile: result.profile,
      baseUrl: result.baseUrl ?? null,
      key: maskSecret(result.key),
      verified: result.verified,
    });
  }
  if (!result.baseUrl)
    deps.io.warn(
      `stored without checking, and no base URL yet: run \`blogctl --profile ${result.profile} config set base-url <url>\``,
    );
  deps.io.note(`Logged in to profile "${result.profile}"${where} with key ${maskSecret(result.key)}.`);
}

/**
 * The base URL, asked for on a terminal when none is configured (flag, environment or profile) and this is
 * not --sandbox; the same normalisation as --base-url. Undefined when there is one, or nobody to ask.
 */
async function askBaseUrl(deps: Pick<Deps, 'settings' | 'io' | 'prompter'>): Promise<string | undefined> {
  const settings = deps.settings({ allowNewProfile: true });
  if (settings.baseUrl || settings.sandbox || !deps.io.canPrompt) return undefined;
  const { serviceBaseUrl } = await import('../../../lib/url-shape.js');
  const typed = await deps.prompter().input('Service base URL (e.g. https://api.example.com)', {
    validate: (v) => {
      try {
        serviceBaseUrl(v, 'base URL');
        return true;
      } catch (error) {
        return (error as Error).message.replace(/^base URL: /, '');
      }
    },
  });
  return serviceBaseUrl(typed, 'base URL');
}

/**
 * The profile login would write to (a new one is created), refused before any key is read: under --sandbox,
 * and when there is no base URL to check the key against and --no-verify does not say to store it unchecked.
 */
function checkCanVerify(verify: boolean, deps: Pick<Deps, 'settings'>, typedBaseUrl?: string): void {
  const settings = deps.settings({ allowNewProfile: true });
  if (settings.sandbox)
    throw new UsageError('auth login stores a key for a real service; --sandbox needs none');
  // The README promises that a key nobody could check is not stored: without a base URL there is nothing to
  // check it against.
  if (verify && !settings.baseUrl && !typedBaseUrl)
    throw new UsageError(
      `no base URL to check the API key against for profile "${settings.profile}": pass --base-url <url>, or --no-verify to store the key unchecked; nothing was stored`,
    );
}

/** Checks the key against the service (unless --no-verify), then stores it (and a --base-url) in the profile. */
export async function loginRun(
  options: LoginOptions,
  deps: Pick<Deps, 'settings' | 'store' | 'globals' | 'blogApi' | 'env'>,
): Promise<LoginResult> {
  checkCanVerify(options.verify, deps, options.baseUrl);
  const settings = deps.settings({ allowNewProfile: true });
  const baseUrl = options.baseUrl ?? settings.baseUrl;
  let verified: LoginResult['verified'] = 'skipped';
  if (baseUrl && options.verify) {
    // The key under test must be the one sent, not an environment key or a stored one.
    const { HttpClient } = await import('../../../http/client.js');
    const { BlogApi } = await import('../../../api/blog-api.js');
    const http = new HttpClient({
      baseUrl,
      headers: { authorization: `Bearer ${options.key}` },
      timeoutMs: settings.timeoutMs,
      connectTimeoutMs: settings.connectTimeoutMs,
      retry: { retries: 1 },
    });
    try {
      await new BlogApi(http).countBlogs();
      verified = true;
    } catch (error) {
      if (error instanceof AuthError)
        throw new AuthError(
          `the service rejected this API key (HTTP ${error.context.status ?? 401}); nothing was stored`,
          error.context,
        );
      // Storing a key nobody checked would let a typo surface only at the next cron run: fail, and say how to
      // store it unchecked on purpose.
      if (error instanceof BlogctlError && error.exitCode === ExitCode.unavailable)
        throw new UnavailableError(
          `could not check the API key: ${error.message}; nothing was stored (--no-verify stores it without checking)`,
          error.context,
        );
      throw error;
    } finally {
      await http.close();
    }
  }
  const store = deps.store();
  if (options.baseUrl !== undefined || settings.baseUrlSource === 'flag') {
    await store.updateConfig((c) => {
      c.profiles ??= {};
      c.profiles[settings.profile] = { ...c.profiles[settings.profile], baseUrl: baseUrl! };
    });
  }
  await store.updateCredentials((c) => {
    c.apiKeys ??= {};
    c.apiKeys[settings.profile] = options.key;
  });
  return { profile: settings.profile, ...(baseUrl && { baseUrl }), key: options.key, verified };
}

// A post's password (WordPress's `password`, a password-protected post) is a secret like the others: it can
// come from argv (--post-password), the first line of stdin (--post-password-stdin) or the environment
// (BLOGCTL_POST_PASSWORD), in that order, and once read it is registered for redaction, so no output, error,
// --debug log or JSON shows it, whole or cut short.
import { UsageError } from '../../errors.js';
import type { Deps } from '../../factory.js';
import { registerSecret } from '../../output/redact.js';

const POST_PASSWORD_ENV = 'BLOGCTL_POST_PASSWORD';

export interface PostPasswordFlags {
  postPassword?: string | undefined;
  postPasswordStdin?: true | undefined;
}

/** The post password and where it came from (what an error about it names), or undefined for none. */
export async function resolvePostPassword(
  opts: PostPasswordFlags,
  deps: Pick<Deps, 'env' | 'readStdin'>,
): Promise<{ password: string; from: string } | undefined> {
  if (opts.postPassword !== undefined && opts.postPasswordStdin)
    throw new UsageError('--post-password and --post-password-stdin: give the post password one way');
  let found: { password: string; from: string } | undefined;
  if (opts.postPasswordStdin) {
    const line = (await deps.readStdin()).split(/\r?\n/)[0]!.trim();
    if (!line) throw new UsageError('--post-password-stdin: no password on the first line of stdin');
    found = { password: line, from: '--post-password-stdin' };
  } else if (opts.postPassword !== undefined) {
    found = { password: opts.postPassword, from: '--post-password' };
  } else {
    const value = deps.env[POST_PASSWORD_ENV]?.trim();
    if (value) found = { password: value, from: POST_PASSWORD_ENV };
  }
  if (found) registerSecret(found.password);
  return found;
}

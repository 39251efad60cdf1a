// Whether a site accepts a profile's credentials, asked before `wp sites add` and `wp sites set-password` store
// them.
import { AuthError, BlogctlError } from '../../../errors.js';
import type { Deps } from '../../../factory.js';

/**
 * Asks the site whether it accepts these credentials (what `wp sites verify` does) and returns when it did.
 * A refusal (exit 4) or a site that cannot be reached (exit 7) stores nothing; the error says how to add the
 * profile anyway.
 */
export async function checkCredentials(
  id: string,
  site: { url: string; username: string; password: string },
  deps: Pick<Deps, 'wordpress'>,
  /** What was not done, for the error: `WordPress site "<id>" <outcome>: …`. */
  outcome = 'not added',
): Promise<string> {
  const client = await deps.wordpress({
    websiteUrl: site.url,
    username: site.username,
    password: site.password,
  });
  const { verifySite } = await import('../../../wordpress/verify.js');
  try {
    await verifySite(client);
    return new Date().toISOString();
  } catch (error) {
    if (!(error instanceof BlogctlError)) throw error;
    const message = `WordPress site "${id}" ${outcome}: ${error.message}`;
    // Refused credentials are not stored at all; a site that could not be asked may be added unchecked.
    if (error instanceof AuthError) throw new AuthError(message, error.context);
    throw new BlogctlError(error.kind, error.exitCode, message, {
      ...error.context,
      hints: [
        ...(error.context.hints ?? []),
        'to store it without checking, add --no-verify (check it later with `blogctl wp sites verify`)',
      ],
    });
  }
}

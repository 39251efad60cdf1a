// `wp sites add <id>`: a local site profile. The Application Password goes to credentials.json only.
import type { SiteProfile } from '../../../config/store.js';
import { UsageError } from '../../../errors.js';
import type { Deps } from '../../../factory.js';
import { jsonOutput } from '../../../output/json.js';
import {
  checkSiteId,
  checkSiteUrl,
  envPassword,
  missingPasswordError,
  promptPassword,
  readSites,
  saveSite,
  siteView,
  stdinPassword,
  type SiteView,
} from '../../../sites/profiles.js';
import type { ActionInput } from '../../define.js';
import { SITE_VIEW_FIELDS } from './fields.js';

interface AddFlags {
  url?: string;
  username?: string;
  label?: string;
  autoPublish?: boolean;
  passwordStdin?: boolean;
  force?: boolean;
}

export interface AddOptions {
  id: string;
  url: string;
  username: string;
  password: string;
  label?: string;
  autoPublish?: boolean;
  /** Replace an existing profile of that id. */
  force: boolean;
}

export async function action({ args, opts, deps }: ActionInput<AddFlags>): Promise<void> {
  const json = jsonOutput(deps.globals.json, SITE_VIEW_FIELDS);
  const id = checkSiteId(String(args[0]));
  let url = opts.url;
  let username = opts.username;
  // Before any prompt: refuse early, so nobody types a password for a profile that will not be written.
  assertFree(id, opts.force, deps);
  if ((url === undefined || username === undefined) && !deps.io.canPrompt) {
    const missing = [url === undefined && '--url', username === undefined && '--username'].filter(Boolean);
    throw new UsageError(
      `wp sites add: missing ${missing.join(' and ')} (cannot prompt: ${deps.io.noInputReason})`,
    );
  }
  url ??= await deps.prompter().input('WordPress site URL', { validate: validUrl });
  url = checkSiteUrl(url);
  username ??= await deps
    .prompter()
    .input('WordPress username', { validate: (v) => (v.trim() ? true : 'enter the username') });
  username = username.trim();
  if (!username) throw new UsageError('--username: must not be empty');

  const password =
    (opts.passwordStdin ? await stdinPassword(deps) : undefined) ??
    envPassword(deps.env) ??
    (await promptPassword(deps, `Application Password for ${username} at ${url}`));
  if (!password) throw missingPasswordError(deps);

  const view = await addRun(
    {
      id,
      url,
      username,
      password,
      force: Boolean(opts.force),
      ...(opts.label !== undefined && { label: opts.label }),
      ...(opts.autoPublish && { autoPublish: true }),
    },
    deps,
  );
  if (json.enabled) return json.print(deps.io, view);
  deps.io.success(
    `Added WordPress site "${id}" (${url}, user ${username}); password stored in ${deps.store().credentialsPath}`,
  );
}

export async function addRun(options: AddOptions, deps: Pick<Deps, 'store' | 'settings'>): Promise<SiteView> {
  assertFree(options.id, options.force, deps);
  const profile: SiteProfile = { url: options.url, username: options.username };
  if (options.label !== undefined) profile.label = options.label;
  if (options.autoPublish !== undefined) profile.autoPublish = options.autoPublish;
  await saveSite(deps.store(), options.id, profile, options.password);
  return siteView({ ...profile, id: options.id, password: options.password }, deps.settings().defaultSite);
}

function assertFree(id: string, force: boolean | undefined, deps: Pick<Deps, 'store'>): void {
  if (force) return;
  if (readSites(deps.store()).some((s) => s.id === id)) {
    throw new UsageError(
      `WordPress site "${id}" already exists; pass --force to replace it, or remove it first with \`blogctl wp sites remove ${id}\``,
    );
  }
}

function validUrl(value: string): true | string {
  try {
    checkSiteUrl(value);
    return true;
  } catch (error) {
    return (error as Error).message.replace(/^--url: /, '');
  }
}

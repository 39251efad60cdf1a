// `wp sites add <id>`: a local site profile. The Application Password goes to credentials.json only. The
// credentials are checked against the site before anything is stored (`--no-verify` skips it): a profile
// that WordPress refuses is never added.
import type { SiteProfile } from '../../../../config/store.js';
import { UsageError } from '../../../../errors.js';
import type { Deps } from '../../../../factory.js';
import { jsonOutput } from '../../../../output/json.js';
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
} from '../../../../sites/profiles.js';
import type { Input } from './command.js';
import { checkCredentials } from '../check-credentials.js';
import { SITE_VIEW_FIELDS } from '../fields.js';

export interface AddOptions {
  id: string;
  url: string;
  username: string;
  password: string;
  label?: string;
  autoPublish?: boolean;
  /** Replace an existing profile of that id. */
  force: boolean;
  /** When `wp sites add` checked the credentials against the site: recorded as a valid site. */
  verifiedAt?: string;
}

export async function action({ args, opts, deps }: Input): Promise<void> {
  const json = jsonOutput(deps.globals.json, SITE_VIEW_FIELDS);
  const id = checkSiteId(args[0]);
  let url = opts.url;
  let username = opts.username;
  // Before any prompt: refuse early, so nobody types a password for a profile that will not be written.
  assertFree(id, opts.force, deps);
  if (opts.web) return webAction(id, { args, opts, deps } as Input, json);
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

  await checkAndStore(id, { url, username, password }, { opts, deps } as Input, json, 'pasted');
}

/**
 * The credentials checked against the site (unless --no-verify), the profile stored, and what was done said:
 * the same for a pasted password and one the site minted (--web).
 */
async function checkAndStore(
  id: string,
  site: { url: string; username: string; password: string },
  { opts, deps }: Pick<Input, 'opts' | 'deps'>,
  json: ReturnType<typeof jsonOutput>,
  how: 'pasted' | 'minted',
): Promise<void> {
  const verifiedAt = opts.verify === false ? undefined : await checkCredentials(id, site, deps);
  const view = await addRun(
    {
      id,
      ...site,
      force: Boolean(opts.force),
      ...(opts.label !== undefined && { label: opts.label }),
      ...(opts.autoPublish && { autoPublish: true }),
      ...(verifiedAt !== undefined && { verifiedAt }),
    },
    deps,
  );
  if (json.enabled) return json.print(deps.io, view);
  const minted = how === 'minted' ? ' with a new Application Password minted by the site' : '';
  deps.io.success(
    `Added WordPress site "${id}" (${site.url}, user ${site.username})${minted}; password stored in ${deps.store().credentialsPath}; ${verifiedAt ? 'credentials verified' : `not checked: \`blogctl wp sites verify ${id}\``}`,
  );
}

/**
 * `--web`: the site mints the password once its owner approves blogctl in a browser (src/sites/web-login.ts);
 * then the same check and store as a pasted one.
 */
async function webAction(
  id: string,
  { opts, deps }: Input,
  json: ReturnType<typeof jsonOutput>,
): Promise<void> {
  if (opts.passwordStdin)
    throw new UsageError('--web and --password-stdin: with --web the site itself mints the password');
  const reason = deps.io.noInputReason;
  if (reason === 'CI is set' || reason === '--no-input is set')
    throw new UsageError(`--web waits for a person to approve blogctl in a browser (${reason})`);
  if (opts.url === undefined && !deps.io.canPrompt)
    throw new UsageError(`wp sites add --web: missing --url (cannot prompt: ${reason})`);
  const url = checkSiteUrl(
    opts.url ?? (await deps.prompter().input('WordPress site URL', { validate: validUrl })),
  );
  const { webLogin } = await import('../../../../sites/web-login.js');
  const { hostname } = await import('node:os');
  const login = await webLogin(
    {
      siteUrl: url,
      // WordPress refuses a second password of the same name for one user: the time makes each its own.
      appName: `blogctl (${id}) on ${hostname()}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      openBrowser: opts.browser !== false && deps.io.stderrIsTTY,
      ...(opts.username !== undefined && { username: opts.username.trim() }),
      timeoutMs: WEB_TIMEOUT_MS,
      signal: deps.signal,
      http: deps.httpOptions(),
    },
    {
      // Not hidden by -q: without the page to open, nothing can happen.
      tell: (line) => deps.io.stderr.write(deps.io.forStderr(`${line}\n`)),
      askUsername: async () => {
        if (!deps.io.canPrompt)
          throw new UsageError(`--web on an https:// site needs --username (cannot prompt: ${reason})`);
        return (
          await deps
            .prompter()
            .input('WordPress username', { validate: (v) => (v.trim() ? true : 'enter the username') })
        ).trim();
      },
      askPassword: async (message) => {
        if (!deps.io.canPrompt)
          throw new UsageError(
            `--web on an https:// site needs a terminal to paste the password WordPress shows (${reason})`,
          );
        return deps.prompter().password(message);
      },
    },
  );
  await checkAndStore(
    id,
    { url, username: login.username, password: login.password },
    { opts, deps },
    json,
    'minted',
  );
}

/** How long `--web` waits for the approval in the browser. */
const WEB_TIMEOUT_MS = 10 * 60_000;

export async function addRun(options: AddOptions, deps: Pick<Deps, 'store' | 'settings'>): Promise<SiteView> {
  assertFree(options.id, options.force, deps);
  const profile: SiteProfile = { url: options.url, username: options.username };
  if (options.label !== undefined) profile.label = options.label;
  if (options.autoPublish !== undefined) profile.autoPublish = options.autoPublish;
  if (options.verifiedAt !== undefined) {
    profile.isWebsiteValid = true;
    profile.verifiedAt = options.verifiedAt;
  }
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

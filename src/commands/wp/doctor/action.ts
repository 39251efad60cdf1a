// `wp doctor [site|URL]`: runs the checks of src/wordpress/doctor.ts and prints each with its fix. The report is
// data (stdout); the first blocker is also the error that sets the exit code.
import { AuthError, UnavailableError, UsageError } from '../../../errors.js';
import type { Deps } from '../../../factory.js';
import { fieldsOf, jsonOutput } from '../../../output/json.js';
import { checkSiteId, checkSiteUrl, loadSite, resolveCredentials } from '../../../sites/profiles.js';
import type { DoctorCheck, DoctorReport } from '../../../wordpress/doctor.js';
import type { Input } from './command.js';

const FIELDS = fieldsOf<DoctorReport>({
  url: true,
  server: true,
  cdn: true,
  restRoot: true,
  permalinks: true,
  checks: true,
  canPublish: true,
  canSync: true,
  ok: true,
});

export async function action({ args, opts, deps }: Input): Promise<void> {
  const json = jsonOutput(deps.globals.json, FIELDS);
  const report = await doctorRun(
    { target: args[0], username: opts.username, passwordStdin: Boolean(opts.passwordStdin) },
    deps,
  );
  const { io } = deps;
  if (json.enabled) json.print(io, report);
  else io.out(reportLines(report, io).join('\n'));
  const blocker = report.checks.find((c) => c.status === 'fail');
  if (!blocker) {
    io.success(
      report.canSync
        ? `${report.url}: blogctl can publish and sync`
        : `${report.url}: nothing in the way (no account was checked)`,
    );
    return;
  }
  // The fixes are in the report: the error line only names the blocker.
  const message = `${report.url}: ${blocker.name}: ${blocker.summary}`;
  throw blocker.exitCode === 4 ? new AuthError(message) : new UnavailableError(message);
}

export interface DoctorRunInput {
  target: string | undefined;
  username: string | undefined;
  passwordStdin: boolean;
}

/** Which site and account to check, then the checks. */
export async function doctorRun(
  input: DoctorRunInput,
  deps: Pick<Deps, 'store' | 'settings' | 'env' | 'io' | 'prompter' | 'readStdin' | 'httpOptions'>,
): Promise<DoctorReport> {
  let url: string;
  let credentials: { username: string; password: string } | undefined;
  if (input.target !== undefined && input.target.includes('://')) {
    url = checkSiteUrl(input.target, 'site-or-url');
    if (input.username !== undefined) {
      const resolved = await resolveCredentials(
        { url, username: input.username, passwordStdin: input.passwordStdin },
        deps,
      );
      credentials = resolved.credentials;
    } else if (input.passwordStdin) {
      throw new UsageError('--password-stdin: give --username too (the account to check)');
    }
  } else {
    if (input.username !== undefined)
      throw new UsageError('--username goes with a URL; a site profile has its own username');
    const settings = deps.settings();
    const id = input.target ?? settings.defaultSite;
    if (id === undefined)
      throw new UsageError(
        'wp doctor: give a site id or a URL (no default site: set one with `blogctl config set default-site <id>` or BLOGCTL_SITE)',
      );
    const site = loadSite(
      deps.store(),
      checkSiteId(
        id,
        input.target !== undefined
          ? 'site id'
          : settings.defaultSiteSource === 'env'
            ? 'BLOGCTL_SITE'
            : 'default-site',
      ),
    );
    url = site.url;
    credentials = (await resolveCredentials({ site: site.id, passwordStdin: input.passwordStdin }, deps))
      .credentials;
  }
  const { diagnose } = await import('../../../wordpress/doctor.js');
  return diagnose({ url, ...(credentials && { credentials }) }, deps.httpOptions());
}

const MARK: Record<DoctorCheck['status'], string> = { ok: 'ok', warn: 'warn', fail: 'FAIL', skip: 'skip' };

function reportLines(report: DoctorReport, io: Deps['io']): string[] {
  const width = Math.max(...report.checks.map((c) => c.name.length));
  const lines = [
    `site:   ${report.url}`,
    `server: ${report.server}${report.cdn ? ` (behind ${report.cdn})` : ''}`,
  ];
  for (const check of report.checks) {
    const mark = MARK[check.status].padEnd(4);
    const painted =
      check.status === 'fail'
        ? io.paint('red', mark)
        : check.status === 'warn'
          ? io.paint('yellow', mark)
          : check.status === 'ok'
            ? io.paint('green', mark)
            : io.paint('dim', mark);
    lines.push(`${painted}  ${check.name.padEnd(width)}  ${check.likely ? 'likely: ' : ''}${check.summary}`);
    for (const fix of check.fix ?? []) lines.push(`${' '.repeat(width + 8)}fix: ${fix}`);
  }
  return lines;
}

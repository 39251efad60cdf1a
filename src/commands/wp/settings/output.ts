// How both settings verbs print the service's answer: passwords stripped (the service should send none, but
// a password must never reach a terminal or a log), `--json [fields]`, else a short block or a table.
import type { IO } from '../../../output/io.js';
import { jsonOutput, type JsonFlag, type JsonOutput } from '../../../output/json.js';
import { printTable } from '../../../output/table.js';
import { RejectedError } from '../../../errors.js';
import { API_PREFIX } from '../../../api/blog-api.js';
import type { UpdateSettingsResponse } from '../../../schemas/wordpress-settings.js';
import { stripPasswords } from '../../../sites/profiles.js';

type Integration = Record<string, unknown> & { credentials?: Record<string, unknown> };

const SETTINGS_ENDPOINT = `PATCH ${API_PREFIX}/integrations/wordpress/update-settings`;

/** `success: false` in a 2xx is still a refusal (exit 6). */
export function assertApplied(response: UpdateSettingsResponse): UpdateSettingsResponse {
  const clean = stripPasswords(response);
  if (!clean.success) {
    const reason = ['message', 'error', 'reason']
      .map((k) => clean[k])
      .find((v) => typeof v === 'string' && v);
    throw new RejectedError(
      `the service did not apply the WordPress settings (success: false)${reason ? `: ${String(reason)}` : ''}`,
      {
        endpoint: SETTINGS_ENDPOINT,
        ...(typeof reason === 'string' && { serviceMessage: reason }),
      },
    );
  }
  return clean;
}

/**
 * `--json` of both verbs: a dry run prints `{settings}`, a sent one the service's answer. Its fields are the
 * specification's two: a misspelt one fails before the settings are sent rather than after (a bare --json
 * still prints anything else the service adds).
 */
export function settingsJson(json: JsonFlag, dryRun: boolean): JsonOutput {
  return jsonOutput(json, dryRun ? ['settings'] : ['success', 'integration']);
}

/** A dry run's output: the body that would be sent (passwords as ***), as JSON with or without --json. */
export function printDryRun(
  io: Pick<IO, 'json' | 'warn' | 'note'>,
  json: JsonOutput,
  settings: unknown,
): void {
  json.print(io, { settings });
  io.note('dry run: nothing was sent');
}

export function printSettingsResult(
  io: IO,
  json: JsonOutput,
  response: UpdateSettingsResponse,
  done: string,
): void {
  if (json.enabled) return json.print(io, response);
  const integration = response.integration as Integration | Integration[] | undefined;
  // -q: only the identifying value, as everywhere: the id of each site the service answered with.
  if (io.quiet) {
    const ids = [integration ?? []].flat().map((s) => s['id']);
    if (ids.length) io.out(ids.join('\n'));
  } else if (Array.isArray(integration)) {
    printTable(
      io,
      [
        { header: 'ID', value: (s: Integration) => s['id'], copy: true },
        { header: 'LABEL', value: (s) => s['label'], flexible: true, drop: 5 },
        { header: 'INTEGRATED', value: (s) => yesNo(s['isIntegrated']), drop: 2 },
        { header: 'VALID', value: (s) => yesNo(s['isWebsiteValid']), drop: 3 },
        { header: 'AUTO-PUBLISH', value: (s) => yesNo(s['autoPublish']), drop: 1 },
        { header: 'URL', value: (s) => s.credentials?.['websiteUrl'], copy: true },
        { header: 'USERNAME', value: (s) => s.credentials?.['username'], drop: 4 },
      ],
      integration,
    );
  } else if (integration) {
    const rows: [string, unknown][] = [
      ['id', integration['id']],
      ['label', integration['label']],
      ['integrated', yesNo(integration['isIntegrated'])],
      ['website valid', yesNo(integration['isWebsiteValid'])],
      ['auto-publish', yesNo(integration['autoPublish'])],
      ['url', integration.credentials?.['websiteUrl']],
      ['username', integration.credentials?.['username']],
    ];
    const shown = rows.filter(([, v]) => v !== undefined && v !== '');
    const width = Math.max(...shown.map(([k]) => k.length)) + 2;
    io.out(shown.map(([k, v]) => `${`${k}:`.padEnd(width)}${String(v)}`).join('\n'));
  } else {
    io.out('success: true');
  }
  io.success(done);
}

function yesNo(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : value ? 'yes' : 'no';
}

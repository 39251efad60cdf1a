// Scheduling that does what it says. WordPress quietly rewrites the status from the date (wp_insert_post):
// `future` less than 60 s ahead (or in the past, or with no date) is published at once, and `publish` 60 s or
// more ahead becomes `future`. planSchedule predicts that before anything is sent (refusing `future` without a
// usable date unless forced), and turns the person's date into an unambiguous UTC `date_gmt`: WordPress's
// `date` is in the *site's* time zone, which blogctl cannot see.

/** WordPress's threshold (MINUTE_IN_SECONDS in wp_insert_post). */
export const SCHEDULE_THRESHOLD_SECONDS = 60;

export interface ScheduleInput {
  status: string;
  /**
   * `--date`: ISO 8601 with an offset (`2026-12-01T09:00:00+02:00`, `…Z`), converted to UTC; or without one
   * (`2026-12-01T09:00`, `2026-12-01 09:00:00`), read as local time in this machine's time zone (TZ).
   */
  date?: string;
  /** `--date-gmt`: UTC when it has no offset (WordPress's meaning); an offset is honoured if given. */
  dateGmt?: string;
  now: Date;
  /**
   * `--force`: send `future` without a usable date anyway — none, in the past or under 60 s ahead — and let
   * WordPress publish it at once.
   */
  force?: boolean;
  /** How the date options are named in messages (default `--date`, `--date-gmt`); e.g. `post.md: front matter "date"`. */
  names?: { date?: string; dateGmt?: string };
}

export interface SchedulePlan {
  /** UTC, `YYYY-MM-DDTHH:MM:SS` (seconds, no fraction, no zone): send as `date_gmt`, and send no `date`. */
  date_gmt?: string;
  /** The status WordPress will give the post, when it differs from the one asked for or is worth stating. */
  expectedStatus?: string;
  warnings: string[];
  /**
   * Set when nothing may be sent (exit 2): an invalid date, both dates, or `future` without a usable date
   * (none, past, or under 60 s ahead) unless forced.
   */
  error?: string;
}

/**
 * Plans the date and predicts the status. Pure (the clock is `now`); never throws.
 *
 * Local times follow the machine's time zone, including daylight saving: a time skipped by a spring-forward
 * change is an error; one that occurs twice in the autumn takes the earlier occurrence, with a warning.
 */
export function planSchedule(input: ScheduleInput): SchedulePlan {
  const dateName = input.names?.date ?? '--date';
  const gmtName = input.names?.dateGmt ?? '--date-gmt';
  const warnings: string[] = [];
  const given = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

  if (given(input.date) && given(input.dateGmt)) {
    return { warnings, error: `give ${dateName} or ${gmtName}, not both` };
  }
  let when: Date | undefined;
  if (given(input.date) || given(input.dateGmt)) {
    const asGmt = !given(input.date);
    const parsed = parseDateTime(asGmt ? input.dateGmt! : input.date!, asGmt ? 'utc' : 'local');
    if ('error' in parsed) return { warnings, error: `${asGmt ? gmtName : dateName}: ${parsed.error}` };
    when = parsed.date;
    if (parsed.warning) warnings.push(`${asGmt ? gmtName : dateName}: ${parsed.warning}`);
  }
  const date_gmt = when ? formatUtc(when) : undefined;
  const plan = (extra: Partial<SchedulePlan>): SchedulePlan => ({
    ...(date_gmt && { date_gmt }),
    warnings,
    ...extra,
  });

  // WordPress compares whole seconds: strtotime(date_gmt) - strtotime(now).
  const ahead = when ? Math.floor(when.getTime() / 1000) - Math.floor(input.now.getTime() / 1000) : undefined;
  const shown = date_gmt ? `${date_gmt.replace('T', ' ')} UTC` : '';

  if (input.status === 'future') {
    if (ahead === undefined) {
      const problem = `--status future needs ${dateName} (or ${gmtName}): without a date WordPress publishes the post at once`;
      if (!input.force) return plan({ error: `${problem} (--force sends it anyway)` });
      warnings.push(problem);
      return plan({ expectedStatus: 'publish' });
    }
    // Not a usable date either: WordPress would publish at once, the opposite of what "future" asks for.
    if (ahead < SCHEDULE_THRESHOLD_SECONDS) {
      const distance = ahead < 0 ? 'is in the past' : `is only ${ahead} s ahead`;
      const problem = `${dateName} ${shown} ${distance}: WordPress publishes a "future" post less than ${SCHEDULE_THRESHOLD_SECONDS} s ahead at once (status publish)`;
      if (!input.force) {
        return plan({
          error: `--status future needs a date at least ${SCHEDULE_THRESHOLD_SECONDS} s ahead; ${problem} (--force publishes it now anyway)`,
        });
      }
      warnings.push(problem);
      return plan({ expectedStatus: 'publish' });
    }
    return plan({ expectedStatus: 'future' });
  }
  if (input.status === 'publish' && ahead !== undefined && ahead >= SCHEDULE_THRESHOLD_SECONDS) {
    warnings.push(
      `${dateName} ${shown} is in the future: WordPress schedules the post (status future) instead of publishing it now`,
    );
    return plan({ expectedStatus: 'future' });
  }
  return plan({});
}

export type ParsedDateTime = { date: Date; warning?: string } | { error: string };

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/**
 * ISO 8601 date-time → instant. `zoneless` says how a time without offset is read: `local` (machine time
 * zone) or `utc`. A date alone is refused: at midnight of which zone would be a guess.
 */
export function parseDateTime(text: string, zoneless: 'local' | 'utc'): ParsedDateTime {
  const parsed = readDateTime(text, zoneless);
  // WordPress stores dates as MySQL DATETIME (years 1000 to 9999); an offset can push a date in range as
  // written past either end in UTC, and toISOString would then write `+010000-…`.
  if ('date' in parsed) {
    const year = parsed.date.getUTCFullYear();
    if (year < 1000 || year > 9999)
      return { error: `"${text}" is year ${year} in UTC; WordPress takes years 1000 to 9999` };
  }
  return parsed;
}

function readDateTime(text: string, zoneless: 'local' | 'utc'): ParsedDateTime {
  const value = text.trim();
  const m = DATE_TIME.exec(value);
  const example = 'e.g. 2026-12-01T09:00, 2026-12-01T09:00:00+02:00 or 2026-12-01T07:00:00Z';
  if (!m) return { error: `"${text}" is not an ISO 8601 date-time (${example})` };
  const [, y, mo, d, h, mi, s, frac, z, sign, oh, om] = m;
  if (h === undefined) return { error: `"${text}" has no time of day (${example})` };
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s ?? 0);
  const ms = frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0;
  if (year < 1000) return { error: `"${text}": the year must have four digits, from 1000` };
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) {
    return { error: `"${text}": there is no such day` };
  }
  if (hour > 23 || minute > 59 || second > 59) return { error: `"${text}": there is no such time of day` };
  const utcFields = Date.UTC(year, month - 1, day, hour, minute, second, ms);

  if (z || sign) {
    const offsetH = Number(oh ?? 0);
    const offsetM = Number(om ?? 0);
    if (offsetH > 23 || offsetM > 59) return { error: `"${text}": the offset is not valid` };
    const offset = z ? 0 : (sign === '-' ? -1 : 1) * (offsetH * 60 + offsetM);
    return { date: new Date(utcFields - offset * 60_000) };
  }
  if (zoneless === 'utc') return { date: new Date(utcFields) };

  const local = new Date(year, month - 1, day, hour, minute, second, ms);
  const same = (x: Date): boolean =>
    x.getFullYear() === year &&
    x.getMonth() === month - 1 &&
    x.getDate() === day &&
    x.getHours() === hour &&
    x.getMinutes() === minute;
  if (!same(local)) {
    return {
      error: `"${text}" does not exist in this machine's time zone (${zoneName()}): clocks skip it; give an offset`,
    };
  }
  const later = new Date(local.getTime() + 3_600_000);
  if (same(later)) {
    return {
      date: local,
      warning: `"${text}" occurs twice in this machine's time zone (${zoneName()}); using the first one (${formatUtc(local)} UTC): give an offset to choose`,
    };
  }
  return { date: local };
}

/** `YYYY-MM-DDTHH:MM:SS` in UTC. */
export function formatUtc(date: Date): string {
  return date.toISOString().slice(0, 19);
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function zoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
}

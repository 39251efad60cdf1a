// Scheduling that does what it says. WordPress quietly rewrites the status from the date (wp_insert_post):
// `future` less than 60 s ahead (or in the past, or with no date) is published at once, and `publish` 60 s or
// more ahead becomes `future`. planSchedule predicts that before anything is sent (refusing `future` without a
// usable date unless allowed), and decides which date field carries the person's date:
//
// - with an offset or `Z`, the date is that instant: sent as UTC `date_gmt`;
// - without one, it is the site's local time, as WordPress reads it: sent as `date`, as written, never
//   converted with this machine's time zone (a CI runner on UTC would shift a Berlin site's post by an hour).
//   The instant, needed for the checks above, comes from the site's own time zone (its REST index reports
//   `timezone_string` and `gmt_offset`); until the site has been read it is unknown, and the checks wait.
//
// Only one of `date` and `date_gmt` is ever sent, and giving both is refused: WordPress (6.1, verified by the
// e2e suite) takes `date` and silently ignores `date_gmt` when both are present.

/** WordPress's threshold (MINUTE_IN_SECONDS in wp_insert_post). */
export const SCHEDULE_THRESHOLD_SECONDS = 60;

/** A site's time zone as its REST index reports it: a zone name, else a fixed offset in hours. */
export interface SiteZone {
  timeZone?: string;
  offsetHours?: number;
}

export interface ScheduleInput {
  status: string;
  /** `--date`: ISO 8601 with an offset (an instant), or without one (the site's local time). */
  date?: string;
  /** `--date-gmt`: UTC when it has no offset (WordPress's meaning); an offset is honoured if given. */
  dateGmt?: string;
  now: Date;
  /** The site's time zone, once known: local dates then get an instant, and the checks run on it. */
  zone?: SiteZone;
  /**
   * `--allow-immediate`: send `future` without a usable date anyway — none, in the past or under 60 s
   * ahead — and let WordPress publish it at once.
   */
  allowImmediate?: boolean;
  /** How the date options are named in messages (default `--date`, `--date-gmt`); e.g. `post.md: front matter "date"`. */
  names?: { date?: string; dateGmt?: string };
}

export interface SchedulePlan {
  /** UTC, `YYYY-MM-DDTHH:MM:SS`: the date had an offset, or came as `--date-gmt`. */
  date_gmt?: string;
  /** The site's local time, `YYYY-MM-DDTHH:MM:SS`, as written: the date had no offset. */
  date?: string;
  /** A local date whose instant needs the site's time zone, not known yet: check again with `zone`. */
  needsZone?: boolean;
  /** The status WordPress will give the post, when it differs from the one asked for or is worth stating. */
  expectedStatus?: string;
  warnings: string[];
  /**
   * Set when nothing may be sent (exit 2): an invalid date, both dates, or `future` without a usable date
   * (none, past, or under 60 s ahead) unless allowed.
   */
  error?: string;
  /**
   * The error is the clock's, not the input's: `future` without a usable date. It matters only for a post
   * whose status or date is sent (a post already published unchanged keeps the date it was given).
   */
  timing?: boolean;
}

/** Plans the date and predicts the status. Pure (the clock is `now`); never throws. */
export function planSchedule(input: ScheduleInput): SchedulePlan {
  const dateName = input.names?.date ?? '--date';
  const gmtName = input.names?.dateGmt ?? '--date-gmt';
  const warnings: string[] = [];
  const given = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

  if (given(input.date) && given(input.dateGmt)) {
    return { warnings, error: `give ${dateName} or ${gmtName}, not both` };
  }
  let when: Date | undefined;
  let local: string | undefined;
  let needsZone = false;
  if (given(input.date) || given(input.dateGmt)) {
    const asGmt = !given(input.date);
    const name = asGmt ? gmtName : dateName;
    const parsed = parseDateTime(asGmt ? input.dateGmt! : input.date!, asGmt ? 'utc' : 'site');
    if ('error' in parsed) return { warnings, error: `${name}: ${parsed.error}` };
    if ('local' in parsed) {
      local = parsed.local;
      if (input.zone) when = siteInstant(parsed.local, input.zone);
      else needsZone = true;
    } else when = parsed.date;
  }
  const date_gmt = when && local === undefined ? formatUtc(when) : undefined;
  const plan = (extra: Partial<SchedulePlan>): SchedulePlan => ({
    ...(date_gmt && { date_gmt }),
    ...(local && { date: local }),
    ...(needsZone && { needsZone }),
    warnings,
    ...extra,
  });

  // WordPress compares whole seconds: strtotime(date_gmt) - strtotime(now).
  const ahead = when ? Math.floor(when.getTime() / 1000) - Math.floor(input.now.getTime() / 1000) : undefined;
  const shown = local
    ? `${local.replace('T', ' ')} (the site's time${when ? `, ${formatUtc(when).replace('T', ' ')} UTC` : ''})`
    : date_gmt
      ? `${date_gmt.replace('T', ' ')} UTC`
      : '';

  if (input.status === 'future') {
    if (!when && !local) {
      const problem = `--status future needs ${dateName} (or ${gmtName}): without a date WordPress publishes the post at once`;
      if (!input.allowImmediate)
        return plan({ error: `${problem} (--allow-immediate sends it anyway)`, timing: true });
      warnings.push(problem);
      return plan({ expectedStatus: 'publish' });
    }
    // A local date waits for the site's time zone to be checked.
    if (ahead === undefined) return plan({ expectedStatus: 'future' });
    // Not a usable date either: WordPress would publish at once, the opposite of what "future" asks for.
    if (ahead < SCHEDULE_THRESHOLD_SECONDS) {
      const distance = ahead < 0 ? 'is in the past' : `is only ${ahead} s ahead`;
      const problem = `${dateName} ${shown} ${distance}: WordPress publishes a "future" post less than ${SCHEDULE_THRESHOLD_SECONDS} s ahead at once (status publish)`;
      if (!input.allowImmediate) {
        return plan({
          error: `--status future needs a date at least ${SCHEDULE_THRESHOLD_SECONDS} s ahead; ${problem} (--allow-immediate publishes it now anyway)`,
          timing: true,
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

/** A site-local `YYYY-MM-DDTHH:MM:SS` as an instant, in the site's zone (a name, else a fixed offset). */
export function siteInstant(local: string, zone: SiteZone): Date {
  const asUtc = Date.parse(`${local}Z`);
  if (zone.timeZone) {
    try {
      // The zone's offset at the guess, then at the result (they differ only across a change of offset).
      let t = asUtc - zoneOffsetMs(new Date(asUtc), zone.timeZone);
      t = asUtc - zoneOffsetMs(new Date(t), zone.timeZone);
      return new Date(t);
    } catch {
      // An unknown zone name (a newer tz database on the site): its fixed offset is the next best thing.
    }
  }
  return new Date(asUtc - (zone.offsetHours ?? 0) * 3_600_000);
}

function zoneOffsetMs(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/** The zone a REST index reports: `timezone_string` when set, else `gmt_offset` (hours, maybe as text). */
export function siteZoneOf(index: Record<string, unknown>): SiteZone {
  const name = index['timezone_string'];
  const offset = Number(index['gmt_offset']);
  return {
    ...(typeof name === 'string' && name.trim() && { timeZone: name.trim() }),
    ...(Number.isFinite(offset) && { offsetHours: offset }),
  };
}

export type ParsedDateTime = { date: Date; warning?: string } | { local: string } | { error: string };

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/**
 * ISO 8601 date-time → instant. `zoneless` says how a time without offset is read: `site` (kept as the
 * site's local wall time, `{local}`), `local` (this machine's zone) or `utc`. A date alone is 00:00 of that
 * day, read the same way, except in this machine's zone (refused: which zone would be a guess).
 */
export function parseDateTime(text: string, zoneless: 'site' | 'local' | 'utc'): ParsedDateTime {
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

function readDateTime(text: string, zoneless: 'site' | 'local' | 'utc'): ParsedDateTime {
  const value = text.trim();
  const m = DATE_TIME.exec(value);
  const example = 'e.g. 2026-12-01T09:00, 2026-12-01T09:00:00+02:00 or 2026-12-01T07:00:00Z';
  if (!m) return { error: `"${text}" is not an ISO 8601 date-time (${example})` };
  const [, y, mo, d, h, mi, s, frac, z, sign, oh, om] = m;
  // A date alone (Jekyll's and Hugo's `date: 2030-12-24`) is that day's 00:00 where the date is read: the
  // site's local time, or UTC for a GMT date. In this machine's zone it would be a guess: refused.
  const dateOnly = h === undefined && !z && !sign && zoneless !== 'local';
  if (h === undefined && !dateOnly) return { error: `"${text}" has no time of day (${example})` };
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h ?? 0);
  const minute = Number(mi ?? 0);
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
  if (zoneless === 'site') return { local: formatUtc(new Date(utcFields - ms)) };

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

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  formatUtc,
  parseDateTime,
  planSchedule,
  siteInstant,
  siteZoneOf,
} from '../../src/publishing/sources/schedule.js';

/** `YYYY-MM-DDTHH:MM:SS` of an instant as a site in `timeZone` shows it. */
function siteLocal(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(at);
  return parts.replace(' ', 'T');
}

const now = new Date('2026-11-22T12:00:00.700Z');
const inSeconds = (s: number) => new Date(now.getTime() + s * 1000).toISOString();

describe('planSchedule', () => {
  let savedTz: string | undefined;
  beforeEach(() => {
    savedTz = process.env['TZ'];
    process.env['TZ'] = 'Europe/Berlin';
  });
  afterEach(() => {
    if (savedTz === undefined) delete process.env['TZ'];
    else process.env['TZ'] = savedTz;
  });

  it('converts an ISO date with an offset to UTC date_gmt', () => {
    expect(planSchedule({ status: 'draft', date: '2026-12-01T09:30:00+02:00', now })).toEqual({
      date_gmt: '2026-12-01T07:30:00',
      warnings: [],
    });
    expect(planSchedule({ status: 'draft', date: '2026-12-01T09:30:15.999Z', now }).date_gmt).toBe(
      '2026-12-01T09:30:15',
    );
    expect(planSchedule({ status: 'draft', date: '2026-12-01T09:30-0530', now }).date_gmt).toBe(
      '2026-12-01T15:00:00',
    );
  });

  it("keeps a date without offset as the site's local time (sent as date), and --date-gmt as UTC", () => {
    // This machine's zone (TZ=Europe/Berlin in this file) plays no part: the site's zone does.
    expect(planSchedule({ status: 'draft', date: '2026-12-01T09:30', now })).toEqual({
      date: '2026-12-01T09:30:00',
      needsZone: true,
      warnings: [],
    });
    expect(planSchedule({ status: 'draft', date: '2026-07-01 09:30:00.5', now }).date).toBe(
      '2026-07-01T09:30:00',
    );
    expect(planSchedule({ status: 'draft', dateGmt: '2026-12-01T09:30:00', now }).date_gmt).toBe(
      '2026-12-01T09:30:00',
    );
    expect(planSchedule({ status: 'draft', dateGmt: '2026-12-01T09:30:00+01:00', now }).date_gmt).toBe(
      '2026-12-01T08:30:00',
    );
  });

  it("checks a local date in the site's zone once it is known, whatever this machine's zone", () => {
    const berlin = { timeZone: 'Europe/Berlin' };
    // 09:00 in Berlin in January is 08:00 UTC; in July 07:00 UTC.
    expect(siteInstant('2027-01-15T09:00:00', berlin).toISOString()).toBe('2027-01-15T08:00:00.000Z');
    expect(siteInstant('2027-07-15T09:00:00', berlin).toISOString()).toBe('2027-07-15T07:00:00.000Z');
    expect(siteInstant('2027-01-15T09:00:00', { offsetHours: 5.5 }).toISOString()).toBe(
      '2027-01-15T03:30:00.000Z',
    );
    expect(
      siteInstant('2027-01-15T09:00:00', { timeZone: 'No/Such_Zone', offsetHours: -3 }).toISOString(),
    ).toBe('2027-01-15T12:00:00.000Z');
    // 30 s ahead in the site's zone: too close for "future", whatever the date looks like here.
    const soon = new Date(now.getTime() + 30_000);
    const local = siteLocal(soon, 'America/New_York');
    const plan = planSchedule({ status: 'future', date: local, now, zone: { timeZone: 'America/New_York' } });
    expect(plan.error).toMatch(/is only 30 s ahead/);
    const later = siteLocal(new Date(now.getTime() + 3_600_000), 'America/New_York');
    expect(
      planSchedule({ status: 'future', date: later, now, zone: { timeZone: 'America/New_York' } }),
    ).toEqual({
      date: later,
      expectedStatus: 'future',
      warnings: [],
    });
    expect(siteZoneOf({ timezone_string: 'Europe/Berlin', gmt_offset: 1 })).toEqual({
      timeZone: 'Europe/Berlin',
      offsetHours: 1,
    });
    expect(siteZoneOf({ timezone_string: '', gmt_offset: '5.5' })).toEqual({ offsetHours: 5.5 });
  });

  it('rejects invalid dates with a clear message', () => {
    for (const [date, pattern] of [
      ['tomorrow', /not an ISO 8601 date-time/],
      ['2026-02-30T10:00', /no such day/],
      ['2026-12-01T24:00', /no such time of day/],
      ['2026-12-01+02:00', /has no time of day/],
      ['2026-02-30', /no such day/],
      ['2026-12-01T10:00+25:00', /offset is not valid/],
    ] as const) {
      const plan = planSchedule({ status: 'draft', date, now });
      expect(plan.error).toMatch(new RegExp(`^--date: .*${pattern.source}`));
      expect(plan.date_gmt).toBeUndefined();
    }
    expect(
      planSchedule({ status: 'draft', date: 'x', now, names: { date: 'a.md: front matter "date"' } }).error,
    ).toMatch(/^a\.md: front matter "date": "x" is not/);
  });

  it("a date without a time is that day's 00:00 in the site's zone (or UTC for --date-gmt)", () => {
    expect(planSchedule({ status: 'draft', date: '2030-12-24', now })).toMatchObject({
      date: '2030-12-24T00:00:00',
      needsZone: true,
    });
    expect(
      planSchedule({ status: 'future', date: '2030-12-24', now, zone: { timeZone: 'Europe/Berlin' } }),
    ).toMatchObject({ date: '2030-12-24T00:00:00', expectedStatus: 'future' });
    expect(planSchedule({ status: 'draft', dateGmt: '2030-12-24', now }).date_gmt).toBe(
      '2030-12-24T00:00:00',
    );
  });

  it('refuses both --date and --date-gmt', () => {
    expect(planSchedule({ status: 'draft', date: inSeconds(100), dateGmt: inSeconds(100), now }).error).toBe(
      'give --date or --date-gmt, not both',
    );
  });

  it('future without a date is an error unless forced', () => {
    expect(planSchedule({ status: 'future', now }).error).toMatch(
      /--status future needs --date .*--allow-immediate/,
    );
    const forced = planSchedule({ status: 'future', now, allowImmediate: true });
    expect(forced.error).toBeUndefined();
    expect(forced.expectedStatus).toBe('publish');
    expect(forced.warnings[0]).toMatch(/publishes the post at once/);
  });

  it('future under 60 s ahead or in the past is not a usable date: an error, unless forced (then a warning)', () => {
    for (const s of [59, 30, 0, -3600]) {
      const refused = planSchedule({ status: 'future', date: inSeconds(s), now });
      expect(refused.error).toMatch(
        new RegExp(
          `^--status future needs a date at least 60 s ahead; --date .* UTC ${s < 0 ? 'is in the past' : `is only ${s} s ahead`}: WordPress publishes a "future" post less than 60 s ahead at once \\(status publish\\) \\(--allow-immediate publishes it now anyway\\)$`,
        ),
      );
      expect(refused.expectedStatus).toBeUndefined();
      const plan = planSchedule({ status: 'future', date: inSeconds(s), now, allowImmediate: true });
      expect(plan.error).toBeUndefined();
      expect(plan.expectedStatus).toBe('publish');
      expect(plan.warnings).toHaveLength(1);
      expect(plan.warnings[0]).toMatch(s < 0 ? /is in the past/ : /less than 60 s ahead at once/);
    }
    const ok = planSchedule({ status: 'future', date: inSeconds(61), now });
    expect(ok).toEqual({
      date_gmt: formatUtc(new Date(inSeconds(61))),
      expectedStatus: 'future',
      warnings: [],
    });
  });

  it('publish 60 s or more ahead becomes future: a warning', () => {
    const plan = planSchedule({ status: 'publish', date: inSeconds(3600), now });
    expect(plan.expectedStatus).toBe('future');
    expect(plan.warnings[0]).toMatch(/WordPress schedules the post \(status future\)/);
    expect(planSchedule({ status: 'publish', date: inSeconds(30), now }).warnings).toEqual([]);
    expect(planSchedule({ status: 'publish', date: inSeconds(-86400), now }).warnings).toEqual([]);
    expect(planSchedule({ status: 'draft', date: inSeconds(3600), now }).warnings).toEqual([]);
    expect(planSchedule({ status: 'publish', now })).toEqual({ warnings: [] });
  });

  it('compares whole seconds, as WordPress does', () => {
    // now is 12:00:00.700; a date at 12:01:00.000 is 60 whole seconds ahead for WordPress.
    expect(planSchedule({ status: 'future', date: '2026-11-22T12:01:00Z', now }).expectedStatus).toBe(
      'future',
    );
    expect(planSchedule({ status: 'future', date: '2026-11-22T12:00:59Z', now }).error).toMatch(
      /is only 59 s ahead/,
    );
  });
});

describe('parseDateTime', () => {
  it('accepts the ISO 8601 forms people type', () => {
    for (const text of [
      '2026-12-01T09:00:00Z',
      '2026-12-01t09:00z',
      '2026-12-01 09:00:00,5+00:00',
      ' 2026-12-01T09:00Z ',
    ]) {
      const parsed = parseDateTime(text, 'utc');
      expect('date' in parsed && formatUtc(parsed.date)).toBe('2026-12-01T09:00:00');
    }
  });
});

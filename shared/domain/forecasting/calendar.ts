/**
 * Calendar features shared by the forecasting members (ARCHITECTURE 7): local time of day, weekday and
 * public holidays in the site's zone, for series held on a regular UTC grid. Offsets come from luxon's
 * zone data; holidays from date-holidays, cached per country and year.
 */
import { IANAZone } from 'luxon';
import { DAY_MS, MINUTE_MS } from '../time';
import { holidayCalendar, knownHolidayRegion } from './holiday-calendars.cjs';

/** The time zone is not an IANA zone luxon knows. */
export class UnknownTimeZone extends Error {
  constructor(readonly timezone: string) {
    super(`Unknown time zone: ${timezone}`);
    this.name = 'UnknownTimeZone';
  }
}

export interface CalendarFeatures {
  /** Local hour of day, 0-23. */
  hour: number[];
  /** Local minutes since midnight, 0-1439. */
  minuteOfDay: number[];
  /** ISO weekday of the local date: 1 = Monday ... 7 = Sunday. */
  weekday: number[];
  /** Local date as days since 1970-01-01 (a key for "the same local day"). */
  localDay: number[];
  /** 1 on a public holiday of `country` (local date), else 0; all 0 without a country. */
  holiday: number[];
}

const zones = new Map<string, IANAZone>();

function zoneOf(timezone: string): IANAZone {
  let zone = zones.get(timezone);
  if (!zone) {
    zone = IANAZone.create(timezone);
    if (!zone.isValid) throw new UnknownTimeZone(timezone);
    zones.set(timezone, zone);
  }
  return zone;
}

/** UTC offset of `timezone` at instant `t` (epoch ms), in minutes east of UTC. */
export function utcOffsetMinutes(timezone: string, t: number): number {
  return timezone === 'UTC' ? 0 : zoneOf(timezone).offset(t);
}

const holidayCache = new Map<string, ReadonlySet<string>>();

/**
 * Local dates ('YYYY-MM-DD') of the public holidays of `country` in `year`. `country` is ISO 3166-1
 * ('GB') or a subdivision ('US-CA', 'DE-BY'). Only type 'public' counts: date-holidays also lists bank
 * half-days and observances (Christmas Eve afternoon in DE, Mother's Day) that do not empty offices.
 * An unknown country has no holidays.
 */
export function publicHolidays(country: string, year: number): ReadonlySet<string> {
  const key = `${country.toUpperCase()}:${year}`;
  let dates = holidayCache.get(key);
  if (!dates) {
    const [c, state] = country.toUpperCase().split('-');
    const calendar = holidayCalendar(c, state);
    const set = new Set<string>();
    for (const h of calendar.getHolidays(year) ?? []) {
      if (h.type === 'public') set.add(h.date.slice(0, 10));
    }
    dates = set;
    holidayCache.set(key, dates);
  }
  return dates;
}

/** Per country, local days (days since 1970-01-01) that are public holidays, 1 or 0, kept for the process like the zone offsets. */
const holidayDays = new Map<string, Map<number, number>>();

function holidayOn(country: string, localDay: number): number {
  let days = holidayDays.get(country);
  if (!days) holidayDays.set(country, (days = new Map()));
  let holiday = days.get(localDay);
  if (holiday === undefined) {
    holiday = isPublicHoliday(country, new Date(localDay * DAY_MS).toISOString().slice(0, 10)) ? 1 : 0;
    days.set(localDay, holiday);
  }
  return holiday;
}

/** Whether date-holidays knows `region`: an ISO 3166-1 country, optionally with its subdivision ('US-CA'). */
export function isHolidayRegion(region: string): boolean {
  const [country, state] = region.toUpperCase().split('-');
  return knownHolidayRegion(country, state);
}

/** Whether the local date `isoDate` ('YYYY-MM-DD') is a public holiday of `country`. */
export function isPublicHoliday(country: string, isoDate: string): boolean {
  return publicHolidays(country, Number(isoDate.slice(0, 4))).has(isoDate);
}

interface DayOffset {
  /** Minutes east of UTC at the start of the UTC day. */
  offset: number;
  /** Whether the offset changes during the day (a DST change): then points are looked up one by one. */
  changes: boolean;
}

/**
 * Each UTC day's offset, per zone, kept for the process: a zone look-up costs about 15 us, and a forecast asks for
 * the same days again in each validation fold (14 folds of 8 weeks repeated 1,500 look-ups, 1.7 ms a fit). At most
 * 40 bytes a day: a century in one zone is 1.5 MB.
 */
const dayOffsets = new Map<string, Map<number, DayOffset>>();

function dayOffset(timezone: string, utcDay: number): DayOffset {
  let days = dayOffsets.get(timezone);
  if (!days) dayOffsets.set(timezone, (days = new Map()));
  let day = days.get(utcDay);
  if (!day) {
    const offset = utcOffsetMinutes(timezone, utcDay * DAY_MS);
    day = { offset, changes: utcOffsetMinutes(timezone, (utcDay + 1) * DAY_MS - 1) !== offset };
    days.set(utcDay, day);
  }
  return day;
}

/**
 * Calendar features of each timestamp in `timezone` (default UTC). Zone offsets are looked up once per
 * UTC day (kept for the process) and per point only on a day where they differ (a DST change), so a year of
 * 5-minute steps costs a few hundred zone look-ups, not a hundred thousand.
 */
export function calendarFeatures(t: readonly number[], timezone = 'UTC', country?: string): CalendarFeatures {
  const n = t.length;
  const out: CalendarFeatures = {
    hour: new Array<number>(n),
    minuteOfDay: new Array<number>(n),
    weekday: new Array<number>(n),
    localDay: new Array<number>(n),
    holiday: new Array<number>(n),
  };
  const utc = timezone === 'UTC';
  if (!utc) zoneOf(timezone);
  let cachedDay = NaN;
  let today: DayOffset = { offset: 0, changes: false };
  let holidayDay = NaN;
  let holiday = 0;
  for (let i = 0; i < n; i++) {
    const ti = t[i];
    let offset = 0;
    if (!utc) {
      const utcDay = Math.floor(ti / DAY_MS);
      if (utcDay !== cachedDay) {
        cachedDay = utcDay;
        today = dayOffset(timezone, utcDay);
      }
      offset = today.changes ? utcOffsetMinutes(timezone, ti) : today.offset;
    }
    const wall = ti + offset * MINUTE_MS;
    const day = Math.floor(wall / DAY_MS);
    const minute = Math.floor((wall - day * DAY_MS) / MINUTE_MS);
    out.localDay[i] = day;
    out.minuteOfDay[i] = minute;
    out.hour[i] = Math.floor(minute / 60);
    // 1970-01-01 was a Thursday (ISO 4).
    out.weekday[i] = ((((day + 3) % 7) + 7) % 7) + 1;
    if (day !== holidayDay) {
      holidayDay = day;
      holiday = country ? holidayOn(country, day) : 0;
    }
    out.holiday[i] = holiday;
  }
  return out;
}

/** Day types for load shapes: a holiday behaves like a Sunday (the usual choice in load forecasting). */
export type DayType = 0 | 1 | 2;
export const WORKDAY: DayType = 0;
export const SATURDAY: DayType = 1;
export const SUNDAY_OR_HOLIDAY: DayType = 2;

export function dayType(weekday: number, holiday: number): DayType {
  if (holiday || weekday === 7) return SUNDAY_OR_HOLIDAY;
  return weekday === 6 ? SATURDAY : WORKDAY;
}

/** Timestamps of the `steps` intervals after the last one of a regular grid. */
export function futureTimes(lastT: number, stepMinutes: number, steps: number): number[] {
  return Array.from({ length: steps }, (_, k) => lastT + (k + 1) * stepMinutes * MINUTE_MS);
}

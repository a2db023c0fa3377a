/**
 * Maintenance schedules, Decide stage of the OODA loop (SPEC "Maintenance schedule", 4.3 /terminal/schedule):
 * the allowed values and the validation of a schedule's creation fields. Pure: the caller supplies `now`.
 */
import { isoUtc } from '../ingest/iso';

export const MAINTENANCE_TYPES = ['preventive', 'corrective', 'emergency'] as const;
export type MaintenanceType = (typeof MAINTENANCE_TYPES)[number];

export const PRIORITIES = ['high', 'medium', 'low'] as const;
export type WorkPriority = (typeof PRIORITIES)[number];

/** A schedule may be entered up to one day late (a visit logged the morning after), never further back. */
export const SCHEDULE_MAX_PAST_MS = 24 * 3_600_000;
/** Five calendar years ahead (UTC) covers multi-year inspection cycles (e.g. transformer overhauls). */
export const SCHEDULE_MAX_YEARS_AHEAD = 5;
/** Characters of `reason` after trimming. */
export const REASON_MAX_LENGTH = 1000;

/** One thing wrong with a request; `missing` problems map to the spec's "Missing required field". */
export interface Problem {
  field: string;
  code: 'missing' | 'invalid';
  message: string;
}

export type Validation<T> = { ok: true; value: T } | { ok: false; problems: Problem[] };

export interface ScheduleCreation {
  maintenance_type: MaintenanceType;
  /** The instant in UTC with `Z` (ARCHITECTURE 9), e.g. `2031-06-01T08:00:00Z`. */
  scheduled_date: string;
  priority: WorkPriority;
  reason: string;
}

export const missing = (field: string): Problem => ({ field, code: 'missing', message: `Missing required field: ${field}` });
export const invalid = (field: string, message: string): Problem => ({ field, code: 'invalid', message: `${field} ${message}` });

const isAbsent = (v: unknown) => v === undefined || v === null;

/** A value quoted for a message, cut to 60 characters: messages echo input, they must not carry a megabyte of it. */
export function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/**
 * One of `allowed`, matched case-insensitively after trimming ("Preventive " is `preventive`); a Problem
 * naming the allowed values otherwise.
 */
export function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T | Problem {
  if (isAbsent(value)) return missing(field);
  if (typeof value !== 'string') return invalid(field, `must be one of ${allowed.join(', ')} (a string)`);
  const v = value.trim().toLowerCase();
  if (v === '') return missing(field);
  const match = allowed.find((a) => a === v);
  return match ?? invalid(field, `must be one of ${allowed.join(', ')}; got ${shown(value)}`);
}

/** Non-blank text, trimmed, at most `max` characters. */
export function requiredText(field: string, value: unknown, max: number): string | Problem {
  if (isAbsent(value)) return missing(field);
  if (typeof value !== 'string') return invalid(field, 'must be a string');
  const v = value.trim();
  if (v === '') return missing(field);
  if (v.length > max) return invalid(field, `must be at most ${max} characters; got ${v.length}`);
  return v;
}

export const isProblem = (v: unknown): v is Problem => typeof v === 'object' && v !== null && 'code' in v && 'field' in v;

// YYYY-MM-DD, or YYYY-MM-DDThh:mm[:ss[.fff...]] with Z or ±hh[:]mm (extended format, RFC 3339 profile of ISO 8601).
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysInMonth = (year: number, month: number) => (month === 2 ? (isLeap(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31);

/**
 * Epoch milliseconds of an ISO 8601 date (`2031-06-01`, midnight UTC) or date-time with an offset
 * (`2031-06-01T10:00:00+02:00`, `...Z`); a string saying what is wrong otherwise. A date-time without an
 * offset is refused: assets carry no time zone, so its instant would be a guess. Digits beyond
 * milliseconds are dropped.
 */
export function parseIsoInstant(text: string): number | string {
  const s = text.trim();
  const dateOnly = DATE_ONLY.exec(s);
  const m = dateOnly ?? DATE_TIME.exec(s);
  if (!m) return 'must be an ISO 8601 date (2031-06-01) or date-time with an offset (2031-06-01T10:00:00Z, 2031-06-01T10:00:00+02:00)';
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return `is not a calendar date: ${s.slice(0, 10)}`;
  if (dateOnly) return utcMs(year, month, day, 0, 0, 0, 0);
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return `has no such time of day: ${m[4]}:${m[5]}${m[6] === undefined ? '' : `:${m[6]}`}`;
  const zone = m[8];
  if (zone === undefined) return 'needs a time zone: end it with Z or an offset such as +02:00';
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const [oh, om] = [Number(digits.slice(0, 2)), Number(digits.slice(2) || 0)];
    if (oh > 23 || om > 59) return `has an impossible offset: ${zone}`;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const ms = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
  return utcMs(year, month, day, hour, minute, second, ms) - offsetMinutes * 60_000;
}

// Not Date.UTC: it maps years 0-99 to 1900-1999, and ISO years are literal.
function utcMs(year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, ms);
  return d.getTime();
}

/** Latest schedulable instant: `now` plus SCHEDULE_MAX_YEARS_AHEAD calendar years (29 Feb rolls to 1 Mar). */
export function latestScheduleDate(now: Date): number {
  const limit = new Date(now.getTime());
  limit.setUTCFullYear(limit.getUTCFullYear() + SCHEDULE_MAX_YEARS_AHEAD);
  return limit.getTime();
}

function scheduledDate(value: unknown, now: Date): string | Problem {
  const field = 'scheduled_date';
  if (isAbsent(value)) return missing(field);
  if (typeof value !== 'string') return invalid(field, 'must be an ISO 8601 string, e.g. 2031-06-01T10:00:00Z');
  if (value.trim() === '') return missing(field);
  const t = parseIsoInstant(value);
  if (typeof t === 'string') return invalid(field, `${t}; got ${shown(value)}`);
  const earliest = now.getTime() - SCHEDULE_MAX_PAST_MS;
  if (t < earliest) return invalid(field, `is more than 1 day in the past; give a date from ${isoUtc(earliest)} on (got ${shown(value)})`);
  const latest = latestScheduleDate(now);
  if (t > latest) return invalid(field, `is more than ${SCHEDULE_MAX_YEARS_AHEAD} years ahead; give a date up to ${isoUtc(latest)} (got ${shown(value)})`);
  return isoUtc(t);
}

/**
 * Checks the creation fields of a schedule (SPEC 4.3 /terminal/schedule, action create) and normalises them:
 * - `maintenance_type`: one of MAINTENANCE_TYPES; `priority`: one of PRIORITIES (case-insensitive, stored lower case);
 * - `scheduled_date`: ISO 8601 date (midnight UTC) or date-time with Z or an offset, returned in UTC with `Z`;
 *   no earlier than `now` - 1 day (SCHEDULE_MAX_PAST_MS), no later than `now` + 5 years (SCHEDULE_MAX_YEARS_AHEAD);
 * - `reason`: trimmed, non-blank, at most REASON_MAX_LENGTH characters.
 * Every problem is reported, in field order, each message saying what to fix.
 */
export function validateScheduleCreation(input: Record<string, unknown>, now: Date = new Date()): Validation<ScheduleCreation> {
  const maintenance_type = oneOf('maintenance_type', input.maintenance_type, MAINTENANCE_TYPES);
  const scheduled_date = scheduledDate(input.scheduled_date, now);
  const priority = oneOf('priority', input.priority, PRIORITIES);
  const reason = requiredText('reason', input.reason, REASON_MAX_LENGTH);
  if (isProblem(maintenance_type) || isProblem(scheduled_date) || isProblem(priority) || isProblem(reason)) {
    return { ok: false, problems: [maintenance_type, scheduled_date, priority, reason].filter(isProblem) };
  }
  return { ok: true, value: { maintenance_type, scheduled_date, priority, reason } };
}

/** Durations in milliseconds, and instants as ISO 8601 text: defined once here (ARCHITECTURE 9: times are UTC). */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;

/** An instant as `Date#toISOString` writes it (UTC, milliseconds always shown); throws RangeError for a non-finite one. */
export const iso = (ms: number): string => new Date(ms).toISOString();

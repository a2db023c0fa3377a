/**
 * A site's coverage kept as one summary per stored month, so an upload recomputes only the months it
 * touches: the site's coverage is combined from the summaries, adding the gap that can open across each
 * month boundary (a month's first instant against the previous month's last). Combining gives exactly
 * `coverage(all rows)` at the same interval, because months are disjoint and each month's rows are distinct
 * instants (mergeSeries keeps one row per instant).
 */
import { isoUtc } from './iso';
import { MAX_LISTED_GAPS, coverage, type Coverage } from './series';
import type { StandardRow } from './types';

export interface MonthSummary {
  /** UTC month, "YYYY-MM". */
  month: string;
  /** Epoch ms of the month's first and last row (exact: ISO text would round off-grid instants). */
  first_ms: number;
  last_ms: number;
  rows: number;
  /** The interval the gaps below were counted at; a summary at another interval is rebuilt from its object. */
  interval_minutes: number;
  /** Gaps inside the month only; those across its boundaries are found when combining. */
  gap_count: number;
  /** The month's first MAX_LISTED_GAPS gaps, in time order: enough for the site's first MAX_LISTED_GAPS. */
  gaps: Coverage['gaps'];
}

/** The summary of one month's stored rows (undefined for a month without rows). */
export function summariseMonth(month: string, rows: StandardRow[], intervalMinutes: number): MonthSummary | undefined {
  const cov = coverage(rows, intervalMinutes);
  if (cov.rows === 0) return undefined;
  let first = Infinity;
  let last = -Infinity;
  for (const row of rows) {
    if (row.t < first) first = row.t;
    if (row.t > last) last = row.t;
  }
  return { month, first_ms: first, last_ms: last, rows: cov.rows, interval_minutes: intervalMinutes, gap_count: cov.gap_count, gaps: cov.gaps };
}

/**
 * The coverage of a whole series from its months' summaries, all at `intervalMinutes` (the same numbers
 * `coverage` gives over every row: gaps rounded to whole intervals, completeness to 6 decimals).
 */
export function combineSummaries(summaries: MonthSummary[], intervalMinutes: number): Coverage {
  if (!(intervalMinutes > 0)) throw new RangeError('intervalMinutes must be positive');
  const months = summaries.filter((s) => s.rows > 0).sort((a, b) => a.first_ms - b.first_ms);
  if (months.length === 0) return coverage([], intervalMinutes);
  const interval = intervalMinutes * 60_000;
  const gaps: Coverage['gaps'] = [];
  let gapCount = 0;
  let rows = 0;
  const list = (gap: Coverage['gaps'][number]) => {
    if (gaps.length < MAX_LISTED_GAPS) gaps.push(gap);
  };
  months.forEach((m, k) => {
    if (m.interval_minutes !== intervalMinutes) throw new RangeError(`summary of ${m.month} is at ${m.interval_minutes} minutes, not ${intervalMinutes}`);
    if (k > 0) {
      const before = months[k - 1].last_ms;
      // The same rounding as coverage(): a row a little off the grid does not open a gap of its own.
      const missing = Math.round((m.first_ms - before) / interval) - 1;
      if (missing >= 1) {
        gapCount++;
        list({ start: isoUtc(before + interval), end: isoUtc(m.first_ms - interval), missing_intervals: missing });
      }
    }
    gapCount += m.gap_count;
    for (const gap of m.gaps) list(gap);
    rows += m.rows;
  });
  const first = months[0].first_ms;
  const last = months[months.length - 1].last_ms;
  const expected = Math.round((last - first) / interval) + 1;
  return {
    first: isoUtc(first),
    last: isoUtc(last),
    rows,
    interval_minutes: intervalMinutes,
    gaps,
    gap_count: gapCount,
    completeness: Math.min(1, Math.round((rows / expected) * 1e6) / 1e6),
  };
}

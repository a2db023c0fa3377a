/**
 * Rolling-origin evaluation (Tashman 2000) needs origins spread over a data set's whole span, not one
 * window at its end: seasons, weekdays and regimes all take their turn.
 */
import { calendarFeatures } from '../../shared/domain/forecasting/calendar';
import type { RegularSeries } from '../../shared/domain/forecasting/types';

/**
 * `count` items picked evenly, by rank, from sorted candidate origins (all of them when there are fewer).
 * When the even spacing is a whole multiple of `cycle` ranks (7 for daily origins, 24 for hourly ones), every
 * pick would fall on the same weekday or hour: the i-th pick moves back by i mod cycle ranks, so successive
 * picks rotate through the cycle.
 */
export function spreadOrigins(candidates: readonly number[], count: number, cycle = 7): number[] {
  const n = candidates.length;
  if (count >= n) return [...candidates];
  if (count <= 0) return [];
  if (count === 1) return [candidates[Math.floor((n - 1) / 2)]];
  const spacing = (n - 1) / (count - 1);
  const aligned = cycle > 1 && Number.isInteger(spacing) && spacing % cycle === 0;
  const picked = new Set<number>();
  for (let i = 0; i < count; i++) picked.add(candidates[Math.round(i * spacing) - (aligned ? i % cycle : 0)]);
  return [...picked];
}

/** Indices of the series' steps that start a local day (context timezone), between `from` and `to` inclusive. */
export function localMidnights(series: RegularSeries, timezone: string, from: number, to: number): number[] {
  const { minuteOfDay } = calendarFeatures(series.t, timezone);
  const out: number[] = [];
  for (let i = Math.max(0, from); i <= Math.min(to, series.t.length - 1); i++) if (minuteOfDay[i] === 0) out.push(i);
  return out;
}

/** Indices of the series' steps that start a UTC hour, between `from` and `to` inclusive. */
export function hourStarts(series: RegularSeries, from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = Math.max(0, from); i <= Math.min(to, series.t.length - 1); i++) if (series.t[i] % 3_600_000 === 0) out.push(i);
  return out;
}

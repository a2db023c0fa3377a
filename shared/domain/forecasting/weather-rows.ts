/**
 * A caller's own weather rows on a forecast's grid (POST /forecast, ARCHITECTURE 9): each value belongs to the series
 * value with the same timestamp, so the rows follow whatever labelling the history uses. A coarser feed (hourly
 * weather for a 15-minute series) is interpolated linearly between its rows, never across a gap wider than the
 * feed's own spacing: a missing row stays missing, and a missing horizon row is the caller's to fix.
 */
import { clearSkyGhiAt } from '../weather/clear-sky';
import { kastenCzeplakClearSkyIndex } from '../weather/cloud-climatology';
import type { Exogenous } from './types';

/** The variables a row may carry, by the names the members read (solar: ghi_wm2, load: temperature_c, wind: wind_speed_ms). */
export const WEATHER_VARIABLES = ['ghi_wm2', 'temperature_c', 'wind_speed_ms', 'cloud_cover_pct'] as const;
export type WeatherVariable = (typeof WEATHER_VARIABLES)[number];

/** One row: epoch ms and the values it carries. */
export interface TimedWeatherRow {
  t: number;
  values: Partial<Record<WeatherVariable, number>>;
}

export interface RowsOnGrid {
  /** Per variable carried by any row, a value per history step (NaN where the rows do not reach). */
  history: Exogenous;
  /** The same over the horizon. */
  future: Exogenous;
  /** The first variable with horizon steps the rows do not cover: its first uncovered step and how many. */
  missing?: { variable: WeatherVariable; t: number; count: number };
}

/** The most common positive spacing of sorted times (ms); the smaller on a tie. */
export function feedSpacing(times: readonly number[]): number {
  const counts = new Map<number, number>();
  for (let i = 1; i < times.length; i++) {
    const d = times[i] - times[i - 1];
    if (d > 0) counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  let best = 0;
  let most = 0;
  for (const [d, n] of counts) if (n > most || (n === most && d < best)) [best, most] = [d, n];
  return best;
}

/** Values at `times` from sorted (t, value) pairs: the row at that instant, else linear between neighbours at most `maxGapMs` apart, else NaN. */
function pairsOnGrid(ts: readonly number[], vs: readonly number[], times: readonly number[], maxGapMs: number): number[] {
  let k = 0;
  return times.map((t) => {
    while (k < ts.length && ts[k] < t) k++;
    if (k < ts.length && ts[k] === t) return vs[k];
    if (k === 0 || k === ts.length) return NaN;
    const [ta, tb] = [ts[k - 1], ts[k]];
    if (tb - ta > maxGapMs) return NaN;
    return vs[k - 1] + ((vs[k] - vs[k - 1]) * (t - ta)) / (tb - ta);
  });
}

/**
 * Every variable the rows carry on the history's times and the horizon's (both ascending), with the first horizon
 * gap. Rows need not be sorted; a variable's spacing is that of the rows carrying it.
 */
export function weatherRowsOnGrid(rows: readonly TimedWeatherRow[], historyTimes: readonly number[], futureTimes: readonly number[]): RowsOnGrid {
  const sorted = [...rows].sort((a, b) => a.t - b.t);
  const out: RowsOnGrid = { history: {}, future: {} };
  for (const name of WEATHER_VARIABLES) {
    const carrying = sorted.filter((r) => Number.isFinite(r.values[name]));
    if (!carrying.length) continue;
    const ts = carrying.map((r) => r.t);
    const vs = carrying.map((r) => r.values[name] as number);
    const gap = Math.max(feedSpacing(ts), 1);
    out.history[name] = pairsOnGrid(ts, vs, historyTimes, gap);
    out.future[name] = pairsOnGrid(ts, vs, futureTimes, gap);
    const uncovered = out.future[name].flatMap((v, j) => (Number.isFinite(v) ? [] : [futureTimes[j]]));
    if (uncovered.length && !out.missing) out.missing = { variable: name, t: uncovered[0], count: uncovered.length };
  }
  return out;
}

/**
 * GHI from total cloud cover where a feed has no irradiance (Kasten & Czeplak 1980: GHI = GHI_clear (1 - 0.75 (N/8)^3.4),
 * with N/8 the cloud fraction), over the Ineichen-Perez clear sky at each instant; NaN where the cover is.
 */
export function ghiFromCloudCover(times: readonly number[], cloudCoverPct: readonly number[], site: { latitude: number; longitude: number }): number[] {
  return times.map((t, i) => (Number.isFinite(cloudCoverPct[i]) ? clearSkyGhiAt(new Date(t), site) * kastenCzeplakClearSkyIndex(cloudCoverPct[i] / 100) : NaN));
}

/** Share (0-1) of the values that are known. */
export const knownShare = (values: readonly number[]) => (values.length ? values.filter(Number.isFinite).length / values.length : 0);

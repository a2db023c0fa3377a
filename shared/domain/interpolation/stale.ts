/**
 * Stuck and stale values: a run over which the value repeats, or stays within a tolerance of the run's first
 * value, for at least STALE_MIN_MINUTES. This is pvanalytics' `quality.gaps.stale_values_diff` (Perry et al.,
 * pvanalytics, J. Open Source Software 8(81), 2023) with its `mark='tail'`: the run's first value is the last
 * genuine reading and is kept, the repeats after it are flagged. Departures, for series that are not irradiance:
 * - the tolerance is a share of the series' scale rather than of each value, so a value near zero is judged as
 *   strictly as one near the peak;
 * - a level the series holds in several separate runs is a set-point (curtailment, export limit), not a fault;
 * - a run near the series' floor or ceiling is judged by what the series shows as normal there. Solar at its
 *   floor is night, unless it stays there for an hour or more of times at which the neighbouring days (the
 *   median of NEIGHBOUR_DAYS either side) produced: then it is flagged over those times and the hour before (a
 *   flat morning after a producing week is a stuck logger or an outage; a flat night, or a dull dusk that lags
 *   the days around by less than an hour, is not). Solar's ceiling is clipping, which pvanalytics treats apart
 *   (`features.clipping`). Wind and other generation at the floor or ceiling value itself (calm, cut-out, rated
 *   power) is physical; any other level in those bands is stuck only where it outlasts LIMIT_RUN_FACTOR times
 *   the longest other run the series holds at that level.
 * Load has no physical floor or ceiling, so only the recurring-level rule applies to it.
 */
import { known } from './types';

/** Shortest run, in time, that counts as stale (each value standing for one step). */
export const STALE_MIN_MINUTES = 60;
/** Fewest values in a stale run, whatever the step (two equal hourly values are common in real data). */
export const STALE_MIN_VALUES = 3;
/** Values within this share of the series' scale of the run's first value count as unchanged. */
export const STALE_TOLERANCE_SHARE = 1e-4;
/** A run within this share of the scale from the series' floor or ceiling is judged as a physical limit. */
export const LIMIT_SHARE = 0.02;
/** A level held in at least this many separate runs is a set-point, not a stuck sensor. */
export const RECURRING_RUNS = 3;
/** A run in a limit band is normal while no longer than this many times the series' longest other run at its level (GEFCom2012 wind farms 1-3, TUNE: levels held once or twice in the floor band last 3 to 6 h alike). */
export const LIMIT_RUN_FACTOR = 2;
/** Days either side whose value at the same time says what solar should produce there (a week, as the seasonal profile). */
export const NEIGHBOUR_DAYS = 3;
/** Quantiles that stand for the floor and the ceiling (robust to a stray spike). */
const FLOOR_QUANTILE = 0.001;
const CEILING_QUANTILE = 0.999;

export interface StaleOptions {
  stepMinutes: number;
  kind: 'solar' | 'wind' | 'load' | 'generic';
}

interface Run {
  start: number;
  end: number;
  level: number;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))];
}

/** The lower median: with an even count, output is expected only where more than half the days produced. */
function lowerMedian(values: number[]): number {
  values.sort((p, q) => p - q);
  return values.length ? values[Math.floor((values.length - 1) / 2)] : NaN;
}

/** The runs of at least `minValues` known values within `tolerance` of their first. */
function flatRuns(y: readonly number[], tolerance: number, minValues: number): Run[] {
  const runs: Run[] = [];
  for (let i = 0; i < y.length; ) {
    if (!known(y[i])) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < y.length && known(y[j + 1]) && Math.abs(y[j + 1] - y[i]) <= tolerance) j++;
    if (j - i + 1 >= minValues) runs.push({ start: i, end: j, level: y[i] });
    i = j + 1;
  }
  return runs;
}

/** Indices of stale values (each run's repeats after its first value), ascending. */
export function staleIndices(y: readonly number[], options: StaleOptions): number[] {
  const sorted = y.filter(known).sort((a, b) => a - b);
  if (sorted.length < STALE_MIN_VALUES) return [];
  const floor = quantile(sorted, FLOOR_QUANTILE);
  const ceiling = quantile(sorted, CEILING_QUANTILE);
  const scale = ceiling - floor;
  if (!(scale > 0)) return [];
  const tolerance = STALE_TOLERANCE_SHARE * scale;
  const minValues = Math.max(STALE_MIN_VALUES, Math.ceil(STALE_MIN_MINUTES / options.stepMinutes));
  const runs = flatRuns(y, tolerance, minValues);
  const perDay = Math.round((24 * 60) / options.stepMinutes);
  const limits = options.kind !== 'load';
  const atFloor = (level: number) => limits && level <= floor + LIMIT_SHARE * scale;
  const atCeiling = (level: number) => limits && level >= ceiling - LIMIT_SHARE * scale;
  /** Whether the neighbouring days produced at the time of index i (solar's expectation from its own history). */
  const expectsOutput = (i: number) => {
    const around: number[] = [];
    for (let d = -NEIGHBOUR_DAYS; d <= NEIGHBOUR_DAYS; d++) if (d && known(y[i + d * perDay])) around.push(y[i + d * perDay]);
    return lowerMedian(around) > floor + LIMIT_SHARE * scale;
  };
  const out: number[] = [];
  for (const run of runs) {
    const repeats = Array.from({ length: run.end - run.start }, (_, k) => run.start + 1 + k);
    if (options.kind === 'solar' && atFloor(run.level)) {
      // An hour or more at the floor where the days around produced is stuck (a dull dawn or dusk lags them by less).
      // A logger frozen at the floor froze in the night before: the hour before the first expected output goes with it.
      const expected = repeats.map(expectsOutput);
      if (expected.filter(Boolean).length >= minValues) out.push(...repeats.slice(Math.max(0, expected.indexOf(true) - minValues), expected.lastIndexOf(true) + 1));
      continue;
    }
    const alike = runs.filter((r) => r !== run && Math.abs(r.level - run.level) <= tolerance);
    if (alike.length + 1 >= RECURRING_RUNS) continue;
    if (atFloor(run.level) || atCeiling(run.level)) {
      if (options.kind === 'solar' || Math.abs(run.level - floor) <= tolerance || Math.abs(run.level - ceiling) <= tolerance) continue;
      const longestOther = Math.max(0, ...alike.map((r) => r.end - r.start + 1));
      if (run.end - run.start + 1 <= LIMIT_RUN_FACTOR * longestOther) continue;
    }
    out.push(...repeats);
  }
  return out.sort((a, b) => a - b);
}

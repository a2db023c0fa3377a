/**
 * Stuck and stale values: a run over which the value repeats, or stays within a tolerance of the run's first
 * value, for at least STALE_MIN_MINUTES. This is pvanalytics' `quality.gaps.stale_values_diff` (Perry et al.,
 * pvanalytics, J. Open Source Software 8(81), 2023) with its `mark='tail'`: the run's first value is the last
 * genuine reading and is kept, the repeats after it are flagged. Two departures, for series that are not
 * irradiance: the tolerance is a share of the series' scale rather than of each value, so a value near zero is
 * judged as strictly as one near the peak; and a run held at the series' floor or ceiling is a physical state,
 * not a fault (night and calm at the floor, inverter clipping and rated power at the ceiling, which pvanalytics
 * treats apart in `features.clipping`), as is a level the series holds in several separate runs (a curtailment
 * or export set-point). Load has no physical floor or ceiling, so only the recurring-level rule applies to it.
 */
const known = (v: number) => Number.isFinite(v);

/** Shortest run, in time, that counts as stale (each value standing for one step). */
export const STALE_MIN_MINUTES = 60;
/** Fewest values in a stale run, whatever the step (two equal hourly values are common in real data). */
export const STALE_MIN_VALUES = 3;
/** Values within this share of the series' scale of the run's first value count as unchanged. */
export const STALE_TOLERANCE_SHARE = 1e-4;
/** A run within this share of the scale from the series' floor or ceiling is a physical limit. */
export const LIMIT_SHARE = 0.02;
/** A level held in at least this many separate runs is a set-point, not a stuck sensor. */
export const RECURRING_RUNS = 3;
/** Quantiles that stand for the floor and the ceiling (robust to a stray spike). */
const FLOOR_QUANTILE = 0.001;
const CEILING_QUANTILE = 0.999;

export interface StaleOptions {
  stepMinutes: number;
  kind: 'solar' | 'wind' | 'load' | 'generic';
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))];
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
  const runs: { start: number; end: number; level: number }[] = [];
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
  const limits = options.kind !== 'load';
  const out: number[] = [];
  for (const run of runs) {
    if (limits && (run.level <= floor + LIMIT_SHARE * scale || run.level >= ceiling - LIMIT_SHARE * scale)) continue;
    const alike = runs.filter((r) => Math.abs(r.level - run.level) <= tolerance).length;
    if (alike >= RECURRING_RUNS) continue;
    for (let i = run.start + 1; i <= run.end; i++) out.push(i);
  }
  return out;
}

/**
 * Data cleaning (ARCHITECTURE 7): stuck and stale runs (stale.ts) and outliers (outliers.ts) are removed, then
 * every gap up to `maxGapSteps` is filled by the chosen method (fill.ts) or by `adaptive` (adaptive.ts); the
 * replaced values are flagged, and each fill carries a confidence from hiding known runs of its length.
 */
import { adaptiveChooser, fallbackRmse, fillChosen } from './adaptive';
import { contextOf } from './context';
import { fillGap } from './fill';
import { flagValues } from './flags';
import { hiddenRunErrors, hiddenRuns } from './hidden-runs';
import { known, type CleanOptions, type CleanResult, type Concrete, type FillMethod, type Quality, type Series } from './types';

/** Known runs hidden to measure a result's accuracy (CleanResult.accuracy). */
export const ACCURACY_RUNS = 40;

/** Robust spread of the known values (1.4826 x MAD, or the standard deviation when the MAD is 0). */
function spreadOf(y: readonly number[]): number {
  const v = y.filter(known).sort((a, b) => a - b);
  if (!v.length) return 0;
  const median = v[Math.floor(v.length / 2)];
  const dev = v.map((x) => Math.abs(x - median)).sort((a, b) => a - b);
  const mad = 1.4826 * dev[Math.floor(dev.length / 2)];
  if (mad > 0) return mad;
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  return Math.sqrt(v.reduce((s, x) => s + (x - mean) ** 2, 0) / v.length);
}

/** Cleans a regular series; see the module comment. */
export function cleanSeries(series: Series, options: CleanOptions): CleanResult {
  const { y, staleIndices: staleAt, outlierIndices } = flagValues(series, options);
  const ctx = contextOf(series, options, y);
  const spread = spreadOf(y) || 1;
  const quality: Quality[] = series.y.map(() => 'original');
  const confidence = series.y.map(() => 1);
  const values = y.slice();
  const gaps: CleanResult['gaps'] = [];
  const chooseFor = adaptiveChooser(y, ctx, spread);
  for (let a = 0; a < y.length; a++) {
    if (known(y[a])) continue;
    let b = a;
    while (b + 1 < y.length && !known(y[b + 1])) b++;
    const steps = b - a + 1;
    let method: Concrete | 'combination' | 'unfilled' = 'unfilled';
    if (steps <= options.maxGapSteps) {
      const chosen = chooseFor(steps);
      const order = [chosen.method, ...(['linear', 'pchip'] as Concrete[]).filter((m) => m !== chosen.method)];
      for (const m of order) {
        const fill = m === chosen.method ? fillChosen(chosen, y, a, b, ctx) : fillGap(m as Concrete, y, a, b, ctx);
        if (!fill) continue;
        const conf = Math.max(0, Math.min(1, Number.isFinite(chosen.rmse) && m === chosen.method ? 1 - chosen.rmse / spread : 1 - (fallbackRmse(m as Concrete, y, steps, ctx, spread) / spread)));
        if (conf < (options.confidenceThreshold ?? 0)) break;
        fill.forEach((v, k) => {
          values[a + k] = v;
          quality[a + k] = 'interpolated';
          confidence[a + k] = Math.round(conf * 1e4) / 1e4;
        });
        method = m;
        break;
      }
    }
    if (method === 'unfilled') for (let i = a; i <= b; i++) confidence[i] = 0;
    gaps.push({ start: a, end: b, steps, method });
    a = b;
  }
  for (const i of staleAt) quality[i] = 'stale';
  const accuracy = options.accuracyGapSteps ? accuracyAt(options.accuracyGapSteps) : undefined;
  return { values, quality, confidence, outlierIndices, staleIndices: staleAt, gaps, ...(accuracy ? { accuracy } : {}) };

  /**
   * The fill's accuracy at a gap length: fresh known runs (another seed than the choice's) hidden one at a time
   * and filled as a gap of that length is, with the same context, so it costs one fill per run, not a cleaning.
   */
  function accuracyAt(length: number): NonNullable<CleanResult['accuracy']> {
    const chosen = chooseFor(length);
    const daylight = ctx.clearSky?.map((c) => c > 0);
    const starts = hiddenRuns(y, length, ACCURACY_RUNS, 1 + length, daylight && daylight.some(Boolean) ? daylight : undefined);
    const { se, ae, n } = hiddenRunErrors(y, starts, length, (a, b) => fillChosen(chosen, y, a, b, ctx) ?? fillGap('linear', y, a, b, ctx));
    return { rmse: n ? Math.sqrt(se / n) : NaN, mae: n ? ae / n : NaN, runs: starts.length };
  }
}

/** Hides known runs of `gapSteps` at seeded positions, fills them with `method`, and scores the fills against the hidden truth. */
export function evaluateByHiding(
  series: Series,
  options: CleanOptions & { method: FillMethod },
  hide: { gapSteps: number; count: number; seed: number; daylightOnly?: boolean; /** Days either side each trial's series keeps. @default 8 */ windowDays?: number },
): {
  rmse: number;
  mae: number;
  gaps: number;
  levelRmse: number;
  shapeRmse: number;
  /** Each hidden run's first index and squared error summed over its filled values (for paired resampling). */
  perGap: { start: number; se: number }[];
} {
  const y = series.y.map((v) => (known(v) ? v : NaN));
  const ctx = contextOf(series, options, y);
  const daylight = hide.daylightOnly ? (ctx.clearSky ?? y.map((v) => v)).map((c) => c > 0) : undefined;
  const starts = hiddenRuns(y, hide.gapSteps, hide.count, hide.seed, daylight);
  let se = 0;
  let ae = 0;
  let n = 0;
  let levelSe = 0;
  const perGap: { start: number; se: number }[] = [];
  for (const a of starts) {
    const b = a + hide.gapSteps - 1;
    const truth = y.slice(a, b + 1);
    const hidden = y.slice();
    for (let i = a; i <= b; i++) hidden[i] = NaN;
    // A window of days either side keeps each trial's cost small; the exogenous series are cut alike.
    const days = hide.windowDays ?? 8;
    const from = Math.max(0, a - days * ctx.perDay);
    const to = Math.min(y.length, b + days * ctx.perDay + 1);
    const exogenous = options.exogenous && Object.fromEntries(Object.entries(options.exogenous).map(([k, v]) => [k, v?.slice(from, to)]));
    const filled = cleanSeries({ ...series, t: series.t.slice(from, to), y: hidden.slice(from, to) }, { ...options, exogenous, detectOutliers: false, detectStale: false, accuracyGapSteps: undefined, maxGapSteps: hide.gapSteps, confidenceThreshold: 0 });
    const errors = truth.map((v, k) => filled.values[a - from + k] - v).filter(known);
    const level = errors.reduce((s, e) => s + e, 0) / (errors.length || 1);
    const gapSe = errors.reduce((s, e) => s + e ** 2, 0);
    perGap.push({ start: a, se: gapSe });
    se += gapSe;
    ae += errors.reduce((s, e) => s + Math.abs(e), 0);
    levelSe += errors.length * level ** 2;
    n += errors.length;
  }
  const rms = (sum: number) => (n ? Math.sqrt(sum / n) : NaN);
  // Per gap, error = its mean (the level) + the rest (the shape), so rmse^2 = levelRmse^2 + shapeRmse^2.
  return { rmse: rms(se), mae: n ? ae / n : NaN, gaps: starts.length, levelRmse: rms(levelSe), shapeRmse: rms(Math.max(0, se - levelSe)), perGap };
}

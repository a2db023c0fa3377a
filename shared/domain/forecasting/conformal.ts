/**
 * Prediction intervals by split conformal prediction per lead time (Vovk et al. 2005; Lei et al. 2018,
 * split conformal): the empirical quantiles of out-of-sample residuals at each lead, with the finite-sample
 * correction, added to the point forecast. Neighbouring leads are pooled when a lead has few residuals.
 *
 * The exchangeable units are the validation folds (days), not the points: a day's errors at neighbouring
 * leads move together (a level error lasts the day), so pooling 5 leads of 3 days gives 3 samples, not 15.
 * The finite-sample correction therefore counts folds: the quantile level is ceil((F + 1)(1 - alpha/2)) / F
 * of the pooled residuals for F folds (Taylor demand, Holt-Winters, 28 days: coverage of a 90% interval
 * 0.76 when points were counted, 0.86 to 0.9 when folds are).
 */

/** Residuals a lead's interval is computed from at least; neighbouring leads are pooled until there are this many. */
export const MIN_RESIDUALS_PER_LEAD = 30;

export interface ConformalOptions {
  /** Clip the lower bound at 0 (solar, wind, any series that cannot go negative). */
  nonNegative?: boolean;
  /** Where the point is exactly 0 (solar at night), the interval is [0, 0]. */
  zeroWherePointZero?: boolean;
  /** @default MIN_RESIDUALS_PER_LEAD */
  minResiduals?: number;
}

export interface Intervals {
  lower: number[];
  upper: number[];
}

// 1 - 0.9 is 0.0999...98 in binary: the epsilon keeps (u + 1) alpha/2 = 2 from flooring to 1.
const EPSILON = 1e-9;

function checkCoverage(coverage: number): void {
  if (!(coverage > 0 && coverage < 1)) throw new RangeError(`coverage must be strictly between 0 and 1, got ${coverage}`);
}

/** The k-th smallest of a sorted sample for a level (inverse empirical distribution), k clamped to 1..n. */
const orderStatistic = (sorted: ArrayLike<number>, level: number) => sorted[Math.min(sorted.length, Math.max(1, Math.ceil(level * sorted.length - EPSILON))) - 1];

/**
 * Conformal quantiles of residuals (actual - forecast) for a central interval of `coverage`, with the
 * finite-sample correction for `units` exchangeable units (default: every residual is one): the lower at
 * level floor((u + 1) alpha/2) / u and the upper at ceil((u + 1)(1 - alpha/2)) / u of the sorted residuals
 * (clamped to the sample, which with very few units makes the interval the sample's range).
 */
export function residualQuantiles(residuals: readonly number[], coverage: number, units = residuals.length): { lo: number; hi: number } {
  checkCoverage(coverage);
  if (residuals.length === 0) return { lo: NaN, hi: NaN };
  const sorted = Float64Array.from(residuals).sort();
  const u = Math.max(1, units);
  const alpha = 1 - coverage;
  return { lo: orderStatistic(sorted, Math.floor((u + 1) * (alpha / 2) + EPSILON) / u), hi: orderStatistic(sorted, Math.ceil((u + 1) * (1 - alpha / 2) - EPSILON) / u) };
}

/**
 * The conformal quantile of the absolute residuals for a central interval of `coverage` (split conformal prediction's
 * textbook score, Lei et al. 2018), with the same finite-sample correction for `units`: level ceil((u + 1) coverage)
 * / u of the sorted |residuals|, as the symmetric { lo: -q, hi: q }.
 */
export function absoluteQuantile(residuals: readonly number[], coverage: number, units = residuals.length): { lo: number; hi: number } {
  checkCoverage(coverage);
  if (residuals.length === 0) return { lo: NaN, hi: NaN };
  const u = Math.max(1, units);
  const q = orderStatistic(Float64Array.from(residuals, Math.abs).sort(), Math.ceil((u + 1) * coverage - EPSILON) / u);
  return { lo: -q, hi: q };
}

/**
 * The residuals of lead j pooled with its neighbours (j +- w, w growing) until there are enough, and the
 * number of folds they come from (the most residuals any one pooled lead has).
 */
export function pooledResiduals(residualsByLead: readonly (readonly number[])[], lead: number, minResiduals: number): { residuals: number[]; folds: number } {
  const pooled = [...(residualsByLead[lead] ?? [])];
  let folds = pooled.length;
  for (let w = 1; pooled.length < minResiduals && (lead - w >= 0 || lead + w < residualsByLead.length); w++) {
    for (const j of [lead - w, lead + w]) {
      if (j < 0 || j >= residualsByLead.length) continue;
      pooled.push(...residualsByLead[j]);
      folds = Math.max(folds, residualsByLead[j].length);
    }
  }
  return { residuals: pooled, folds };
}

/** Fold forecasts and actuals (per fold, per lead) the intervals are calibrated on. */
export interface Calibration {
  predictions: readonly (readonly number[])[];
  actuals: readonly (readonly number[])[];
}

/**
 * How errors scale with the regime (normalised conformal prediction: Papadopoulos, Vovk & Gammerman 2011; Lei et
 * al. 2018's locally weighted form): the score is the residual over a scale, the interval the score's quantiles
 * times the scale at the lead.
 * - `additive`: scale 1 (prices, generic series);
 * - `relative`: the forecast's own magnitude (load: errors grow with the level);
 * - `profile`: a given scale per lead (solar: the recent clear-sky envelope at that time of day, so dawn, noon
 *   and winter's short days each get errors of their size; 0 where the envelope is dark);
 * - `level`: the mean absolute error of the calibration forecasts in the same tercile of forecast level (wind:
 *   near 0 and near rated power the output barely moves, on the power curve's slope it swings).
 */
export type Regime = { kind: 'additive' } | { kind: 'relative' } | { kind: 'profile'; scale: readonly number[] } | { kind: 'level' };

export interface RegimeOptions extends ConformalOptions {
  regime: Regime;
  /** Upper physical bound of the values (wind: rated power). */
  upperBound?: number;
  /**
   * Where `nonNegative` clips the lower bound: 0 by default, lower where the series itself recurs below 0 (an
   * inverter's draw at dawn and dusk, -6 W on SERF East, on days the forecast calls for production).
   */
  lowerBound?: number;
  /** Scores a lead's quantiles come from at least; neighbouring leads are pooled until there are this many. @default MIN_SCORES */
  minScores?: number;
  /**
   * One quantile of the absolute scores, applied on both sides (absoluteQuantile), instead of a quantile per tail.
   * Prices: a fortnight of folds holds a few days whose level moved, up on some and down on others; each tail alone
   * rests on the handful of them on its side, the absolute score on all of them (SYMMETRIC_INTERVAL_KINDS, engine.ts).
   */
  symmetric?: boolean;
}

/** Scores pooled per lead at least: quantiles at 5% and 95% need some tens of points beyond them to be stable. */
export const MIN_SCORES = 120;

/**
 * Intervals of each lead from regime-normalised scores, pooled over neighbouring leads (a lead's own folds are
 * too few for a 5% tail). The finite-sample correction counts points, except for solar (`profile`), whose errors
 * are mostly the day's clouds: a day's neighbouring leads are neither one draw nor independent ones, so the
 * effective number of units is taken between the two, as the geometric mean of the folds (days) and the pooled
 * points (see profileUnits).
 */
export function regimeIntervals(point: readonly number[], calibration: Calibration, coverage: number, options: RegimeOptions): Intervals {
  const { regime } = options;
  const minScores = options.minScores ?? MIN_SCORES;
  const horizon = point.length;
  const floor = relativeFloor(calibration);
  const byLevel = regime.kind === 'level' ? levelScales(calibration) : undefined;
  const scaleAt = (forecast: number, lead: number) =>
    regime.kind === 'additive' ? 1 : regime.kind === 'relative' ? Math.max(Math.abs(forecast), floor) : regime.kind === 'level' ? byLevel!(forecast) : (regime.scale[lead] ?? 0);
  const scores: number[][] = Array.from({ length: horizon }, () => []);
  calibration.predictions.forEach((fold, f) =>
    fold.forEach((p, j) => {
      if (j >= horizon) return;
      const s = scaleAt(p, j);
      const score = (calibration.actuals[f][j] - p) / s;
      if (s > 0 && Number.isFinite(score)) scores[j].push(score);
    }),
  );
  const lower: number[] = [];
  const upper: number[] = [];
  point.forEach((p, j) => {
    const s = scaleAt(p, j);
    if ((options.zeroWherePointZero && p === 0) || !(s > 0)) {
      lower.push(options.zeroWherePointZero && p === 0 ? 0 : p);
      upper.push(options.zeroWherePointZero && p === 0 ? 0 : p);
      return;
    }
    const pooled = [...scores[j]];
    for (let w = 1; pooled.length < minScores && (j - w >= 0 || j + w < horizon); w++) {
      if (j - w >= 0) pooled.push(...scores[j - w]);
      if (j + w < horizon) pooled.push(...scores[j + w]);
    }
    const units = regime.kind === 'profile' ? profileUnits(calibration.predictions.length, pooled.length) : pooled.length;
    const { lo, hi } = (options.symmetric ? absoluteQuantile : residualQuantiles)(pooled, coverage, units);
    let l = Number.isFinite(lo) ? Math.min(p, p + lo * s) : p;
    let u = Number.isFinite(hi) ? Math.max(p, p + hi * s) : p;
    if (options.nonNegative) l = Math.min(p, Math.max(Math.min(0, options.lowerBound ?? 0), l));
    if (options.upperBound !== undefined) u = Math.max(p, Math.min(options.upperBound, u));
    lower.push(l);
    upper.push(u);
  });
  return { lower, upper };
}

/**
 * Exchangeable units of solar's pooled scores: sqrt(folds x points). Counted as folds, 28 days made the upper bound
 * the largest pooled score; counted as points, the days' correlated leads passed for independent ones. Coverage of
 * the 90% intervals over daylight on the accuracy bench (with the inverter's draw inside the bounds, lowerBound),
 * folds / points / this: SERF East (TUNE) from the history 0.930 / 0.858 / 0.890, with irradiance 0.946 / 0.893 /
 * 0.918; PVOD (REPORT) 0.924 / 0.860 / 0.887, with NWP 0.914 / 0.862 / 0.880. Season and third-of-day cells outside
 * 0.87-0.93, of 24: 14 / 11 / 6 (12 with the draw outside and days counted, as before).
 */
export const profileUnits = (folds: number, points: number) => Math.sqrt(Math.max(1, folds) * Math.max(1, points));

/** The smallest scale a relative score divides by: 1% of the mean absolute actual (a forecast near 0 would blow a score up). */
function relativeFloor(calibration: Calibration): number {
  let sum = 0;
  let count = 0;
  for (const fold of calibration.actuals)
    for (const a of fold)
      if (Number.isFinite(a)) {
        sum += Math.abs(a);
        count++;
      }
  return count ? Math.max(1e-9, (0.01 * sum) / count) : 1;
}

/**
 * The `level` regime's scale of a forecast: the mean absolute error of the calibration forecasts in its tercile of
 * level (cut at the calibration forecasts' terciles), at least 1% of the overall one; 1 without calibration.
 */
function levelScales(calibration: Calibration): (forecast: number) => number {
  const pairs: [number, number][] = [];
  calibration.predictions.forEach((fold, f) =>
    fold.forEach((p, j) => {
      const a = calibration.actuals[f]?.[j];
      if (Number.isFinite(p) && a !== undefined && Number.isFinite(a)) pairs.push([p, Math.abs(a - p)]);
    }),
  );
  if (!pairs.length) return () => 1;
  const levels = pairs.map(([p]) => p).sort((a, b) => a - b);
  const cuts = [levels[Math.floor(levels.length / 3)], levels[Math.floor((2 * levels.length) / 3)]];
  const bin = (v: number) => (v < cuts[0] ? 0 : v < cuts[1] ? 1 : 2);
  const sums = [0, 0, 0];
  const counts = [0, 0, 0];
  for (const [p, e] of pairs) {
    sums[bin(p)] += e;
    counts[bin(p)]++;
  }
  const overall = sums.reduce((a, b) => a + b, 0) / pairs.length;
  const scale = sums.map((total, b) => (counts[b] ? Math.max(total / counts[b], 0.01 * overall) : overall));
  return (forecast) => (overall > 0 ? scale[bin(forecast)] : 1);
}

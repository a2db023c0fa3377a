/**
 * Clear skies found in a PV system's own power, for spec inference: first whole days whose profile is the smooth
 * single hump of a fixed array on a sunny day, then, once a clear-sky power curve has been fitted, the periods
 * that follow that curve closely.
 */
import { DAY_MS, HOUR_MS } from '../time';

/** Minimum r² of a quadratic fit for a day to look like a fixed array on a sunny day (pvanalytics fixed_nrel default). */
export const SUNNY_DAY_MIN_R2 = 0.94;
/** A sunny day's peak is at least this share of the period's high daily peak (the 90th percentile), so smooth overcast days drop out. */
export const SUNNY_DAY_MIN_PEAK_SHARE = 0.6;
/** Hours of daylight data a day needs for its profile to be judged (pvanalytics fixed_nrel min_hours)... */
export const SUNNY_DAY_MIN_HOURS = 5;
/** ...or this share of its daylight steps, when winter or high latitude makes the day shorter than that. */
export const SUNNY_DAY_MIN_COVERAGE = 0.8;

/** The steps of one day: indices into the caller's arrays, in time order. */
export type DaySteps = number[];

/** The day (since the epoch) in local mean solar time: midnight falls in the night anywhere, so a day is one whole daylight period. */
export const solarDay = (t: number, longitude: number): number => Math.floor((t + (longitude / 15) * HOUR_MS) / DAY_MS);

/** Coefficient of determination of the least-squares quadratic y = a + b x + c x² (x centred for conditioning). */
export function quadraticR2(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  if (n < 4) return 0;
  const mx = x.reduce((s, v) => s + v, 0) / n;
  const my = y.reduce((s, v) => s + v, 0) / n;
  // Normal equations in the centred variable u = x - mx.
  let s1 = 0, s2 = 0, s3 = 0, s4 = 0, t0 = 0, t1 = 0, t2 = 0;
  for (let i = 0; i < n; i++) {
    const u = x[i] - mx;
    const u2 = u * u;
    s1 += u;
    s2 += u2;
    s3 += u2 * u;
    s4 += u2 * u2;
    t0 += y[i];
    t1 += y[i] * u;
    t2 += y[i] * u2;
  }
  const coefficients = solve3([[n, s1, s2], [s1, s2, s3], [s2, s3, s4]], [t0, t1, t2]);
  if (!coefficients) return 0;
  const [a, b, c] = coefficients;
  let ssRes = 0, ssTot = 0;
  for (let i = 0; i < n; i++) {
    const u = x[i] - mx;
    ssRes += (y[i] - (a + b * u + c * u * u)) ** 2;
    ssTot += (y[i] - my) ** 2;
  }
  return ssTot > 0 ? 1 - ssRes / ssTot : 0;
}

/** Cramer's rule for a 3x3 system; undefined when singular. */
function solve3(m: number[][], v: number[]): [number, number, number] | undefined {
  const det = (a: number[][]) =>
    a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
  const d = det(m);
  if (!(Math.abs(d) > 1e-12 * Math.max(1, Math.abs(m[2][2]) ** 1.5))) return undefined;
  const column = (k: number) => m.map((row, i) => row.map((x, j) => (j === k ? v[i] : x)));
  return [det(column(0)) / d, det(column(1)) / d, det(column(2)) / d];
}

/** The q-quantile (0-1) of values, linear between order statistics; NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = q * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

export interface SunnyDayInput {
  /** Step starts, epoch ms. */
  t: readonly number[];
  /** Measured power, kW (finite, at least 0). */
  kw: readonly number[];
  stepMinutes: number;
  /** Each day's daylight steps (sun high enough to judge the profile). */
  days: readonly DaySteps[];
  /** Daylight steps each day would have with no gaps, same order as `days`. */
  expectedSteps: readonly number[];
}

/**
 * The days (indices into `days`) whose power is the profile of a fixed array on a sunny day: a quadratic in time of
 * day fits it with r² above SUNNY_DAY_MIN_R2 (pvanalytics `features.orientation.fixed_nrel`, after the PVFleets QA
 * project, NREL 2020), the day has enough data, and its peak is near the period's high peaks.
 */
export function sunnyFixedDays(input: SunnyDayInput): number[] {
  const { t, kw, stepMinutes, days, expectedSteps } = input;
  const peaks = days.map((steps) => steps.reduce((max, i) => Math.max(max, kw[i]), 0));
  const highPeak = quantile(peaks.filter((p) => p > 0), 0.9);
  if (!(highPeak > 0)) return [];
  const sunny: number[] = [];
  days.forEach((steps, d) => {
    const hours = (steps.length * stepMinutes) / 60;
    const enough = hours >= SUNNY_DAY_MIN_HOURS || steps.length >= SUNNY_DAY_MIN_COVERAGE * expectedSteps[d];
    if (!enough || steps.length < 4 || peaks[d] < SUNNY_DAY_MIN_PEAK_SHARE * highPeak) return;
    const minutes = steps.map((i) => (t[i] - t[steps[0]]) / 60_000);
    if (quadraticR2(minutes, steps.map((i) => kw[i])) > SUNNY_DAY_MIN_R2) sunny.push(d);
  });
  return sunny;
}

/**
 * Thresholds of the clear-period test, as shares of the clear-sky peak power. Reno & Hansen (2016) test GHI against
 * clear-sky GHI with absolute limits (75 W/m² on the mean and the maximum difference, -5 to +10 on line length,
 * about 1000 W/m² at peak); here the same tests run on power against fitted clear-sky power, so they scale with it.
 */
export const CLEAR_PERIOD_LIMITS = {
  meanDiff: 0.075,
  maxDiff: 0.1,
  /** Total variation of measured minus modelled over the window: clouds add variation, a clear window adds none. */
  variationLower: -0.05,
  variationUpper: 0.1,
  /** Largest difference between a measured and a modelled step-to-step change. */
  maxSlopeDiff: 0.06,
  /**
   * Added to Reno & Hansen's tests: the window's mean power within this share of the clear-sky mean. At low sun the
   * absolute limits pass anything, even a thick overcast; this keeps such windows out.
   */
  meanRatio: 0.2,
} as const;

/** Steps per window: an hour at 15 minutes and finer, three steps (three hours) for hourly data. */
export const clearWindowSteps = (stepMinutes: number) => Math.max(3, Math.round(60 / stepMinutes));

/**
 * Which steps are clear: a step is clear when some window of consecutive steps containing it passes every test of
 * Reno & Hansen (2016, "Identification of periods of clear sky irradiance in time series of GHI measurements",
 * Renewable Energy 90) against `clearKw`, with limits from CLEAR_PERIOD_LIMITS times `peakKw`. Steps must be in
 * time order; a gap breaks a window.
 */
export function clearPeriods(t: readonly number[], kw: readonly number[], clearKw: readonly number[], stepMinutes: number, peakKw: number): boolean[] {
  const n = t.length;
  const w = clearWindowSteps(stepMinutes);
  const stepMs = stepMinutes * 60_000;
  const clear = new Array<boolean>(n).fill(false);
  const L = CLEAR_PERIOD_LIMITS;
  for (let start = 0; start + w <= n; start++) {
    let contiguous = true;
    for (let i = start + 1; i < start + w && contiguous; i++) contiguous = t[i] - t[i - 1] === stepMs;
    if (!contiguous) continue;
    let sumDiff = 0, sumClear = 0, maxDiff = 0, tvMeasured = 0, tvClear = 0, maxSlopeDiff = 0;
    for (let i = start; i < start + w; i++) {
      const diff = kw[i] - clearKw[i];
      sumDiff += diff;
      sumClear += clearKw[i];
      maxDiff = Math.max(maxDiff, Math.abs(diff));
      if (i > start) {
        const dm = kw[i] - kw[i - 1];
        const dc = clearKw[i] - clearKw[i - 1];
        tvMeasured += Math.abs(dm);
        tvClear += Math.abs(dc);
        maxSlopeDiff = Math.max(maxSlopeDiff, Math.abs(dm - dc));
      }
    }
    const variation = tvMeasured - tvClear;
    const passes =
      Math.abs(sumDiff / w) <= L.meanDiff * peakKw &&
      Math.abs(sumDiff) <= L.meanRatio * sumClear &&
      maxDiff <= L.maxDiff * peakKw &&
      variation >= L.variationLower * peakKw &&
      variation <= L.variationUpper * peakKw &&
      maxSlopeDiff <= L.maxSlopeDiff * peakKw;
    if (passes) for (let i = start; i < start + w; i++) clear[i] = true;
  }
  return clear;
}

/**
 * Wind power (ARCHITECTURE 7): an empirical power curve fitted from the history's wind speeds and output,
 * applied to forecast wind speeds and blended with persistence of the last observation. The persistence
 * weight of each lead is the least-squares weight on the history (persistenceWeight), so it follows how
 * fast this site's output decorrelates and how good its speed forecast is, rather than a fixed half-life
 * (a 3-hour half-life toward a time-of-day mean lost to persistence on a 10-minute turbine). With the
 * curve's present error known (the speed at the last observation), three more terms of each lead join the
 * blend (curveCorrection): that error and its mean over the last 3 hours carried forward (an NWP running low
 * now runs low for some hours; the error correction of model output statistics, at a fast and a slow scale as
 * wind_ar's NWP terms), and the output's trend over the last hour (hourTrend), which the NWP's hourly steps
 * and the persistence of a level both miss. On GEFCom's farms, 120 origins, the member's first-hour skill over
 * persistence went from a mean of 0.046 to 0.101 (TUNE farms 1-3 0.006 / -0.028 / 0.075 -> 0.026 / 0.025 /
 * 0.135, REPORT farms 4-7 0.023 / 0.048 / 0.091 / 0.108 -> 0.066 / 0.130 / 0.173 / 0.153), the second hour's
 * 0.129 -> 0.155, the sixth's 0.291 -> 0.293. Added one at a time, the first hour's mean went 0.046 -> 0.064
 * (present error) -> 0.093 (trend) -> 0.101 (recent error; a 6-hour mean instead, 0.096). Without
 * speeds over the horizon, or at a lead whose forecast speed is missing, it is Nielsen's blend
 * (wind-nielsen.ts). Forecasts lie within 0 and the rated power (wind-bounds.ts).
 *
 * The curve is the binned median (robust to curtailment and outages) made non-decreasing by weighted
 * isotonic regression (pool-adjacent-violators, Barlow et al. 1972), as binned power curves are read in
 * IEC 61400-12-1. It is flat past the fastest bin, so high-wind cut-out is not modelled.
 */
import { CholeskyDecomposition, Matrix } from 'ml-matrix';
import { type FitContext, type FittedModel, type ForecastMember, type RegularSeries, stepsPerDay } from './types';
import { clampPower, ratedPower } from './wind-bounds';
import { leadGrid, trailingMean } from './wind-direct';
import { fitNielsen } from './wind-nielsen';

/** Power curve bin width (m/s), as IEC 61400-12-1 bins. */
export const POWER_CURVE_BIN_MS = 0.5;
/** A bin needs this many pairs to count; the curve needs this many pairs in all. */
export const MIN_PAIRS_PER_BIN = 3;
export const MIN_CURVE_PAIRS = 48;

const WIND_SPEED = 'wind_speed_ms';

export interface PowerCurve {
  /** Knots: mean speed of each bin (m/s), increasing. */
  speeds: number[];
  /** Non-decreasing power at each knot. */
  power: number[];
  /** Power at a speed: linear between knots, flat beyond the end knots. */
  evaluate(speed: number): number;
}

/** Weighted least-squares non-decreasing fit (pool adjacent violators). */
export function isotonicIncreasing(values: readonly number[], weights: readonly number[]): number[] {
  const level: number[] = [];
  const weight: number[] = [];
  const size: number[] = [];
  for (let i = 0; i < values.length; i++) {
    level.push(values[i]);
    weight.push(weights[i]);
    size.push(1);
    while (level.length > 1 && level[level.length - 2] > level[level.length - 1]) {
      const w = weight[weight.length - 2] + weight[weight.length - 1];
      const v = (level[level.length - 2] * weight[weight.length - 2] + level[level.length - 1] * weight[weight.length - 1]) / w;
      const s = size[size.length - 2] + size[size.length - 1];
      level.length -= 1;
      weight.length -= 1;
      size.length -= 1;
      level[level.length - 1] = v;
      weight[weight.length - 1] = w;
      size[size.length - 1] = s;
    }
  }
  const out: number[] = [];
  level.forEach((v, b) => {
    for (let k = 0; k < size[b]; k++) out.push(v);
  });
  return out;
}

const median = (xs: number[]) => {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** The binned, monotone power curve of paired speeds and outputs, or null with too few pairs. */
export function fitPowerCurve(speed: readonly number[], power: readonly number[]): PowerCurve | null {
  const bins = new Map<number, { speeds: number[]; power: number[] }>();
  let pairs = 0;
  for (let i = 0; i < Math.min(speed.length, power.length); i++) {
    const v = speed[i];
    const p = power[i];
    if (!Number.isFinite(v) || !Number.isFinite(p) || v < 0) continue;
    const b = Math.floor(v / POWER_CURVE_BIN_MS);
    let bin = bins.get(b);
    if (!bin) {
      bin = { speeds: [], power: [] };
      bins.set(b, bin);
    }
    bin.speeds.push(v);
    bin.power.push(p);
    pairs++;
  }
  if (pairs < MIN_CURVE_PAIRS) return null;
  const kept = [...bins.entries()].filter(([, bin]) => bin.power.length >= MIN_PAIRS_PER_BIN).sort((a, b) => a[0] - b[0]);
  if (kept.length < 2) return null;
  const speeds = kept.map(([, bin]) => bin.speeds.reduce((s, v) => s + v, 0) / bin.speeds.length);
  const monotone = isotonicIncreasing(
    kept.map(([, bin]) => median(bin.power)),
    kept.map(([, bin]) => bin.power.length),
  );
  return {
    speeds,
    power: monotone,
    evaluate(v: number): number {
      if (v <= speeds[0]) return monotone[0];
      const last = speeds.length - 1;
      if (v >= speeds[last]) return monotone[last];
      let lo = 0;
      let hi = last;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (speeds[mid] <= v) lo = mid;
        else hi = mid;
      }
      const f = (v - speeds[lo]) / (speeds[hi] - speeds[lo]);
      return monotone[lo] + f * (monotone[hi] - monotone[lo]);
    },
  };
}

/**
 * Least-squares weight of persistence against the curve at lead k over the history:
 * argmin_w sum (y[i+k] - w y[i] - (1 - w) c[i+k])^2 = sum (y[i+k] - c[i+k])(y[i] - c[i+k]) / sum (y[i] - c[i+k])^2,
 * clipped to [0, 1].
 */
export function persistenceWeight(y: readonly number[], onCurve: readonly number[], k: number): number {
  let cross = 0;
  let square = 0;
  for (let i = 0; i + k < y.length; i++) {
    const gap = y[i] - onCurve[i + k];
    const miss = y[i + k] - onCurve[i + k];
    if (!Number.isFinite(gap) || !Number.isFinite(miss)) continue;
    cross += miss * gap;
    square += gap * gap;
  }
  return square > 0 ? Math.min(1, Math.max(0, cross / square)) : 0;
}

/** Window of the curve's recent error: the slower part of a weather forecast's miss (as wind_ar's NWP_WINDOWS_MINUTES). */
export const RECENT_ERROR_MINUTES = 180;

/** What the curve's corrections regress on at each step of the history (correctionTerms). */
export interface CorrectionTerms {
  /** The curve of the history's speeds. */
  onCurve: readonly number[];
  /** The output's trend over the last hour (hourTrend). */
  trend: ArrayLike<number>;
  /** The mean of output less curve over the last RECENT_ERROR_MINUTES. */
  recentError: ArrayLike<number>;
}

/** Coefficients at one lead of the curve's corrections (curveCorrection). */
export interface CurveCorrection {
  /** Weight of the curve's present error, y[i] - c[i]. */
  error: number;
  /** Weight of the gap from the present output, y[i] - c[i+k]: the persistence blend's weight. */
  persistence: number;
  /** Weight of the output's trend over the last hour. */
  trend: number;
  /** Weight of the curve's error over the last hours. */
  recentError: number;
}

/** The mean output of the hour ending at each step less that of the hour before it (NaN where either is unknown). */
export function hourTrend(y: readonly number[], stepMinutes: number): Float64Array {
  const hour = Math.max(1, Math.round(60 / stepMinutes));
  const mean = trailingMean(y, hour);
  const out = new Float64Array(y.length).fill(NaN);
  for (let i = hour; i < y.length; i++) out[i] = mean[i] - mean[i - hour];
  return out;
}

/** The regressors of the corrections over a history whose speeds lie on the curve at `onCurve`. */
export function correctionTerms(y: readonly number[], onCurve: readonly number[], stepMinutes: number): CorrectionTerms {
  const window = Math.max(1, Math.round(RECENT_ERROR_MINUTES / stepMinutes));
  return { onCurve, trend: hourTrend(y, stepMinutes), recentError: trailingMean(y.map((v, i) => v - onCurve[i]), window) };
}

/**
 * Least-squares coefficients at lead k of
 * y[i+k] - c[i+k] = error (y[i] - c[i]) + persistence (y[i] - c[i+k]) + trend trend[i] + recentError recentError[i];
 * with only persistence it is the persistence blend (persistenceWeight, unclipped). Null where the system is singular.
 */
export function curveCorrection(y: readonly number[], terms: CorrectionTerms, k: number): CurveCorrection | null {
  const { onCurve, trend, recentError } = terms;
  // The upper triangle of the 4 x 4 Gram matrix and the cross-products, accumulated without allocating per row:
  // a 48-hour horizon at 10 minutes solves 288 leads over 8,064 rows in every validation fold.
  let g00 = 0, g01 = 0, g02 = 0, g03 = 0, g11 = 0, g12 = 0, g13 = 0, g22 = 0, g23 = 0, g33 = 0;
  let c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  for (let i = 0; i + k < y.length; i++) {
    const x0 = y[i] - onCurve[i];
    const x1 = y[i] - onCurve[i + k];
    const x2 = trend[i];
    const x3 = recentError[i];
    const r = y[i + k] - onCurve[i + k];
    // NaN-safe: a sum that is finite only when all five are.
    if (!Number.isFinite(x0 + x1 + x2 + x3 + r)) continue;
    g00 += x0 * x0; g01 += x0 * x1; g02 += x0 * x2; g03 += x0 * x3;
    g11 += x1 * x1; g12 += x1 * x2; g13 += x1 * x3;
    g22 += x2 * x2; g23 += x2 * x3;
    g33 += x3 * x3;
    c0 += x0 * r; c1 += x1 * r; c2 += x2 * r; c3 += x3 * r;
  }
  const gram = [
    [g00, g01, g02, g03],
    [g01, g11, g12, g13],
    [g02, g12, g22, g23],
    [g03, g13, g23, g33],
  ];
  const cholesky = new CholeskyDecomposition(new Matrix(gram));
  const scale = Math.sqrt(g00 + g11 + g22 + g33);
  if (!cholesky.isPositiveDefinite() || cholesky.lowerTriangularMatrix.diag().some((d) => !(d > 1e-9 * scale))) return null;
  const [error, persistence, trendWeight, recentWeight] = cholesky.solve(Matrix.columnVector([c0, c1, c2, c3])).getColumn(0);
  return { error, persistence, trend: trendWeight, recentError: recentWeight };
}

export interface WindModel extends FittedModel {
  /** The fitted power curve, or null when the member is Nielsen's blend (no speeds). */
  curve: PowerCurve | null;
}

/** Power curve on forecast wind speed, blended with persistence by lead; see the module comment. */
export function fitWind(history: RegularSeries, context: FitContext): WindModel {
  const { y } = history;
  const pastSpeed = context.history?.[WIND_SPEED];
  const futureSpeed = context.future?.[WIND_SPEED];
  const curve = pastSpeed && futureSpeed && pastSpeed.length === y.length ? fitPowerCurve(pastSpeed, y) : null;
  const reference = fitNielsen(history, context);
  if (!curve) return { curve, predict: reference.predict };
  const onCurve = pastSpeed!.map((v) => (Number.isFinite(v) ? curve.evaluate(v) : NaN));
  const rated = ratedPower(y, context, curve.power[curve.power.length - 1]);
  let lastIndex = y.length - 1;
  while (lastIndex >= 0 && !Number.isFinite(y[lastIndex])) lastIndex--;
  const terms = correctionTerms(y, onCurve, history.stepMinutes);
  // The terms at the last observation: a lead without them all takes the persistence blend.
  const present = lastIndex >= 0 ? [y[lastIndex] - onCurve[lastIndex], terms.trend[lastIndex], terms.recentError[lastIndex]] : [NaN];
  const [presentError, presentTrend, presentRecentError] = present;
  const fitted = new Map<number, CurveCorrection | null>();
  const blendWeights = new Map<number, number>();
  const fittedAt = (k: number) => {
    if (!fitted.has(k)) fitted.set(k, curveCorrection(y, terms, k));
    return fitted.get(k)!;
  };
  // Leads between those of the lead grid (wind-direct.ts) interpolate their coefficients: a 48-hour horizon at
  // 10 minutes fits 26 leads, not 288, in every validation fold.
  const correctionAt = (lag: number, grid: readonly number[]): CurveCorrection | null => {
    const hi = grid.findIndex((g) => g >= lag);
    if (hi <= 0 || grid[hi] === lag) return fittedAt(grid[Math.max(0, hi)]);
    const [a, b] = [fittedAt(grid[hi - 1]), fittedAt(grid[hi])];
    if (!a || !b) return null;
    const f = (lag - grid[hi - 1]) / (grid[hi] - grid[hi - 1]);
    const mix = (key: keyof CurveCorrection) => a[key] + f * (b[key] - a[key]);
    return { error: mix('error'), persistence: mix('persistence'), trend: mix('trend'), recentError: mix('recentError') };
  };
  return {
    curve,
    predict(steps: number): number[] {
      const fallback = reference.predict(steps);
      const grid = leadGrid(Math.max(1, y.length + steps - 1 - lastIndex));
      return fallback.map((nielsen, j) => {
        const speed = futureSpeed?.[j];
        if (lastIndex < 0 || speed === undefined || !Number.isFinite(speed)) return nielsen;
        // The lead counts from the last observation, which may be older than the last step.
        const lag = y.length + j - lastIndex;
        const ahead = curve.evaluate(speed);
        const c = present.every(Number.isFinite) ? correctionAt(lag, grid) : null;
        if (c) return clampPower(ahead + c.error * presentError + c.persistence * (y[lastIndex] - ahead) + c.trend * presentTrend + c.recentError * presentRecentError, rated);
        if (!blendWeights.has(lag)) blendWeights.set(lag, persistenceWeight(y, onCurve, lag));
        const w = blendWeights.get(lag)!;
        return clampPower(w * y[lastIndex] + (1 - w) * ahead, rated);
      });
    },
  };
}

/** Wind power curve blended with persistence (ARCHITECTURE 7). */
export const windMember: ForecastMember = {
  name: 'wind_power_curve',
  supports: (kind) => kind === 'wind',
  minHistory: (stepMinutes) => stepsPerDay(stepMinutes),
  fit: fitWind,
};

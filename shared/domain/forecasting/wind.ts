/**
 * Wind power (ARCHITECTURE 7): an empirical power curve fitted from the history's wind speeds and output,
 * applied to forecast wind speeds and blended with persistence of the last observation. The persistence
 * weight of each lead is the least-squares weight on the history (persistenceWeight), so it follows how
 * fast this site's output decorrelates and how good its speed forecast is, rather than a fixed half-life
 * (a 3-hour half-life toward a time-of-day mean lost to persistence on a 10-minute turbine). With the
 * curve's present error known (the speed at the last observation), the blend also carries that error
 * forward with a weight of each lead (curveCorrection): an NWP running low now runs low for some hours, the
 * error correction of model output statistics. On GEFCom's farms that lifted the first hour's skill over
 * persistence by 0.01-0.03 on every farm, TUNE 1-3 and REPORT 4-7, and the engine's, which shrinks toward this
 * member, from a mean of 0.049 to 0.066; past three hours within 0.01, farm 7 (REPORT) down 0.01-0.02 at 2-4 h. Without
 * speeds over the horizon, or at a lead whose forecast speed is missing, it is Nielsen's blend
 * (wind-nielsen.ts). Forecasts lie within 0 and the rated power (wind-bounds.ts).
 *
 * The curve is the binned median (robust to curtailment and outages) made non-decreasing by weighted
 * isotonic regression (pool-adjacent-violators, Barlow et al. 1972), as binned power curves are read in
 * IEC 61400-12-1. It is flat past the fastest bin, so high-wind cut-out is not modelled.
 */
import { type FitContext, type FittedModel, type ForecastMember, type RegularSeries, stepsPerDay } from './types';
import { clampPower, ratedPower } from './wind-bounds';
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

/** Coefficients at one lead of the curve's corrections (curveCorrection). */
export interface CurveCorrection {
  /** Weight of the curve's present error, y[i] - c[i]. */
  error: number;
  /** Weight of the gap from the present output, y[i] - c[i+k]: the persistence blend's weight. */
  persistence: number;
}

/**
 * Least-squares coefficients at lead k of y[i+k] - c[i+k] = error (y[i] - c[i]) + persistence (y[i] - c[i+k]);
 * with error = 0 it is the persistence blend (persistenceWeight, unclipped). Null where the system is singular.
 */
export function curveCorrection(y: readonly number[], onCurve: readonly number[], k: number): CurveCorrection | null {
  let uu = 0;
  let uv = 0;
  let vv = 0;
  let ur = 0;
  let vr = 0;
  for (let i = 0; i + k < y.length; i++) {
    const u = y[i] - onCurve[i];
    const v = y[i] - onCurve[i + k];
    const r = y[i + k] - onCurve[i + k];
    if (!Number.isFinite(u) || !Number.isFinite(v) || !Number.isFinite(r)) continue;
    uu += u * u;
    uv += u * v;
    vv += v * v;
    ur += u * r;
    vr += v * r;
  }
  const det = uu * vv - uv * uv;
  if (!(det > 1e-12 * uu * vv)) return null;
  return { error: (ur * vv - vr * uv) / det, persistence: (vr * uu - ur * uv) / det };
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
  const presentError = lastIndex >= 0 ? y[lastIndex] - onCurve[lastIndex] : NaN;
  const corrections = new Map<number, CurveCorrection | null>();
  return {
    curve,
    predict(steps: number): number[] {
      const fallback = reference.predict(steps);
      return fallback.map((nielsen, j) => {
        const speed = futureSpeed?.[j];
        if (lastIndex < 0 || speed === undefined || !Number.isFinite(speed)) return nielsen;
        // The lead counts from the last observation, which may be older than the last step.
        const lag = y.length + j - lastIndex;
        const ahead = curve.evaluate(speed);
        if (!corrections.has(lag)) corrections.set(lag, Number.isFinite(presentError) ? curveCorrection(y, onCurve, lag) : null);
        const correction = corrections.get(lag);
        if (correction) return clampPower(ahead + correction.error * presentError + correction.persistence * (y[lastIndex] - ahead), rated);
        const w = persistenceWeight(y, onCurve, lag);
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

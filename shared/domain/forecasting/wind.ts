/**
 * Wind power (ARCHITECTURE 7): an empirical power curve fitted from the history's wind speeds and
 * output, applied to forecast wind speeds, and blended with persistence of the last observation for the
 * first hours (the persistence weight halves every `WIND_PERSISTENCE_HALF_LIFE_HOURS`). Without wind
 * speeds, persistence decays toward the time-of-day mean of the last days instead.
 *
 * The curve is the binned median (robust to curtailment and outages) made non-decreasing by weighted
 * isotonic regression (pool-adjacent-violators, Barlow et al. 1972), as binned power curves are read in
 * IEC 61400-12-1. It is flat past the fastest bin, so high-wind cut-out is not modelled.
 */
import { calendarFeatures, futureTimes } from './calendar';
import { type FitContext, type FittedModel, type ForecastMember, HOUR_MS, type RegularSeries, stepsPerDay } from './types';

/** Persistence weight half-life (hours of lead); `options.persistenceHalfLifeHours` overrides it. */
export const WIND_PERSISTENCE_HALF_LIFE_HOURS = 3;
/** Power curve bin width (m/s), as IEC 61400-12-1 bins. */
export const POWER_CURVE_BIN_MS = 0.5;
/** A bin needs this many pairs to count; the curve needs this many pairs in all. */
export const MIN_PAIRS_PER_BIN = 3;
export const MIN_CURVE_PAIRS = 48;
/** Days of history in the time-of-day mean that persistence decays toward. */
export const CLIMATOLOGY_DAYS = 7;

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

/** Mean output by local step of the day over the last `CLIMATOLOGY_DAYS` (the overall mean where a step has none). */
function timeOfDayMean(history: RegularSeries, timezone: string): (times: number[]) => number[] {
  const sd = stepsPerDay(history.stepMinutes);
  const from = Math.max(0, history.y.length - CLIMATOLOGY_DAYS * sd);
  const t = history.t.slice(from);
  const y = history.y.slice(from);
  const slotOf = (minuteOfDay: number) => Math.min(sd - 1, Math.floor(minuteOfDay / history.stepMinutes));
  const cal = calendarFeatures(t, timezone);
  const sums = new Float64Array(sd);
  const counts = new Float64Array(sd);
  let total = 0;
  let count = 0;
  y.forEach((v, i) => {
    if (!Number.isFinite(v)) return;
    sums[slotOf(cal.minuteOfDay[i])] += v;
    counts[slotOf(cal.minuteOfDay[i])]++;
    total += v;
    count++;
  });
  const overall = count ? total / count : 0;
  return (times) =>
    calendarFeatures(times, timezone).minuteOfDay.map((minute) => {
      const s = slotOf(minute);
      return counts[s] ? sums[s] / counts[s] : overall;
    });
}

export interface WindModel extends FittedModel {
  /** The fitted power curve, or null when persistence decays toward the time-of-day mean. */
  curve: PowerCurve | null;
}

/** Power curve on forecast wind speed, blended with persistence for the first hours; see the module comment. */
export function fitWind(history: RegularSeries, context: FitContext): WindModel {
  const { t, y, stepMinutes } = history;
  const timezone = context.timezone ?? 'UTC';
  const option = context.options?.persistenceHalfLifeHours;
  const halfLife = typeof option === 'number' && option > 0 ? option : WIND_PERSISTENCE_HALF_LIFE_HOURS;
  let lastIndex = y.length - 1;
  while (lastIndex >= 0 && !Number.isFinite(y[lastIndex])) lastIndex--;
  const maxObserved = y.reduce((m, v) => (Number.isFinite(v) && v > m ? v : m), 0);
  const persisted = lastIndex >= 0 ? y[lastIndex] : NaN;

  const pastSpeed = context.history?.[WIND_SPEED];
  const futureSpeed = context.future?.[WIND_SPEED];
  const curve = pastSpeed && futureSpeed && pastSpeed.length === y.length ? fitPowerCurve(pastSpeed, y) : null;
  const climatology = timeOfDayMean(history, timezone);
  const lastT = t[t.length - 1];

  return {
    curve,
    predict(steps: number): number[] {
      const times = futureTimes(lastT, stepMinutes, steps);
      const usual = climatology(times);
      const out = new Array<number>(steps);
      for (let k = 0; k < steps; k++) {
        const time = times[k];
        const speed = futureSpeed?.[k];
        const target = curve && speed !== undefined && Number.isFinite(speed) ? curve.evaluate(speed) : usual[k];
        // Lead counts from the last observation, which may be older than the last step.
        const leadHours = lastIndex >= 0 ? (time - t[lastIndex]) / HOUR_MS : Infinity;
        const w = Number.isFinite(persisted) ? 0.5 ** (leadHours / halfLife) : 0;
        const value = w * (Number.isFinite(persisted) ? persisted : 0) + (1 - w) * target;
        out[k] = Math.min(maxObserved, Math.max(0, value));
      }
      return out;
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

/**
 * Double-seasonal exponential smoothing for load (ARCHITECTURE 7): Taylor, J.W. (2003) "Short-term
 * electricity demand forecasting using double seasonal exponential smoothing", J. Oper. Res. Soc. 54,
 * 799-805, in its additive form, with a daily and a weekly season and Taylor's AR(1) adjustment of the
 * forecast by the last one-step error (his eq. 5). No trend term: over days to weeks the level absorbs
 * drift, and Taylor (2010) drops the trend for the same reason.
 *
 * Seasonal indices are kept per local slot of the day and of the week (in the site's zone), not at fixed
 * lags: on a DST day a skipped local half-hour is simply not updated and a repeated one is updated twice,
 * so the seasons stay aligned with local time. In a zone without DST this is exactly Taylor's recursion.
 */
import { calendarFeatures, futureTimes } from './calendar';
import { type FitContext, type FittedModel, type ForecastMember, type RegularSeries, type SeriesKind, stepsPerDay } from './types';

/** The member needs two whole weeks: one to initialise the weekly season, one to choose parameters. */
export const HW_MIN_WEEKS = 2;
/** The daily-only variant needs three days. */
export const HW_DAILY_MIN_DAYS = 3;
/** Only the last 12 weeks are smoothed: older data only shapes the (since-forgotten) initial state. */
export const HW_MAX_HISTORY_WEEKS = 12;
/** Parameters are chosen on one-step errors of the last three weeks at most (Taylor 2003 fits all one-step errors). */
export const HW_SCORE_WEEKS = 3;

const ALPHAS = [0.001, 0.005, 0.02, 0.05, 0.1, 0.2, 0.4];
const DELTAS = [0.01, 0.05, 0.1, 0.2, 0.35, 0.5];
const OMEGAS = [0.01, 0.05, 0.1, 0.2, 0.35, 0.5];
const PHIS = [0, 0.5, 0.8, 0.9, 0.95, 0.98];

/** The history is shorter than the member's minimum. */
export class InsufficientHistory extends Error {
  constructor(readonly member: string, readonly needed: number, readonly got: number) {
    super(`${member} needs ${needed} steps of history, got ${got}`);
    this.name = 'InsufficientHistory';
  }
}

export interface HoltWintersParams {
  /** Level smoothing. */
  alpha: number;
  /** Daily season smoothing. */
  delta: number;
  /** Weekly season smoothing (unused in the daily-only variant). */
  omega: number;
  /** AR(1) coefficient of the one-step error adjustment (0 = none). */
  phi: number;
}

interface Slots {
  day: Int32Array;
  week: Int32Array;
}

interface State {
  level: number;
  daily: Float64Array;
  weekly: Float64Array;
  /** The last one-step error before the AR adjustment. */
  error: number;
}

function slotsOf(t: readonly number[], stepMinutes: number, timezone: string | undefined): Slots {
  const cal = calendarFeatures(t, timezone ?? 'UTC');
  const sd = stepsPerDay(stepMinutes);
  const day = new Int32Array(t.length);
  const week = new Int32Array(t.length);
  for (let i = 0; i < t.length; i++) {
    day[i] = Math.min(sd - 1, Math.floor(cal.minuteOfDay[i] / stepMinutes));
    week[i] = (cal.weekday[i] - 1) * sd + day[i];
  }
  return { day, week };
}

/** Initial level and seasons from the means of the first `span` points by local slot (Taylor 2003, sec. 3). */
function initialState(y: readonly number[], slots: Slots, sd: number, weekly: boolean, span: number): State {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < span; i++) {
    if (Number.isNaN(y[i])) continue;
    sum += y[i];
    count++;
  }
  const level = count ? sum / count : 0;
  const daily = slotMeans(y, slots.day, sd, span, (i) => y[i] - level);
  const weeklySeason = weekly ? slotMeans(y, slots.week, 7 * sd, span, (i) => y[i] - level - daily[slots.day[i]]) : new Float64Array(7 * sd);
  return { level, daily, weekly: weeklySeason, error: 0 };
}

function slotMeans(y: readonly number[], slot: Int32Array, size: number, span: number, value: (i: number) => number): Float64Array {
  const sums = new Float64Array(size);
  const counts = new Float64Array(size);
  for (let i = 0; i < span; i++) {
    if (Number.isNaN(y[i])) continue;
    sums[slot[i]] += value(i);
    counts[slot[i]]++;
  }
  for (let j = 0; j < size; j++) sums[j] = counts[j] ? sums[j] / counts[j] : 0;
  return sums;
}

/**
 * Runs the smoothing recursion over `y` from `init`, returning the final state and the sum of squared
 * AR-adjusted one-step errors from index `scoreFrom` on. A missing value leaves the state as it was.
 */
function smooth(y: readonly number[], slots: Slots, init: State, p: HoltWintersParams, weekly: boolean, scoreFrom: number): { state: State; sse: number } {
  const daily = Float64Array.from(init.daily);
  const weeklySeason = Float64Array.from(init.weekly);
  let level = init.level;
  let error = 0;
  let sse = 0;
  const { alpha, delta, omega, phi } = p;
  const days = slots.day;
  const weeks = slots.week;
  const n = y.length;
  for (let i = 0; i < n; i++) {
    const d = days[i];
    const w = weeks[i];
    const season = daily[d] + weeklySeason[w];
    const yi = y[i];
    // A NaN check without a call: this loop runs a few million times per fit.
    if (yi !== yi) {
      error *= phi;
      continue;
    }
    const base = level + season;
    const e = yi - base;
    if (i >= scoreFrom) {
      const adjusted = e - phi * error;
      sse += adjusted * adjusted;
    }
    const newLevel = alpha * (yi - season) + (1 - alpha) * level;
    const oldDaily = daily[d];
    daily[d] = delta * (yi - newLevel - weeklySeason[w]) + (1 - delta) * oldDaily;
    if (weekly) weeklySeason[w] = omega * (yi - newLevel - oldDaily) + (1 - omega) * weeklySeason[w];
    level = newLevel;
    error = e;
  }
  return { state: { level, daily, weekly: weeklySeason, error }, sse };
}

export interface HoltWintersModel extends FittedModel {
  params: HoltWintersParams;
  /** Root mean square of the AR-adjusted one-step errors over the scoring window. */
  oneStepRmse: number;
}

/**
 * Fits additive double-seasonal (or, with `weekly` false, daily-only) Holt-Winters: parameters by grid
 * search (coordinate descent over per-parameter grids) on the in-sample one-step SSE of the last weeks, as
 * Taylor (2003) estimates them.
 */
export function fitHoltWinters(history: RegularSeries, context: FitContext, weekly = true): HoltWintersModel {
  const { stepMinutes } = history;
  const sd = stepsPerDay(stepMinutes);
  const season = weekly ? 7 * sd : sd;
  const keep = Math.min(history.y.length, HW_MAX_HISTORY_WEEKS * 7 * sd);
  const y = history.y.slice(history.y.length - keep);
  const t = history.t.slice(history.t.length - keep);
  const needed = weekly ? HW_MIN_WEEKS * 7 * sd : HW_DAILY_MIN_DAYS * sd;
  const name = weekly ? holtWintersMember.name : holtWintersDailyMember.name;
  if (y.length < needed) throw new InsufficientHistory(name, needed, y.length);

  const slots = slotsOf(t, stepMinutes, context.timezone);
  // Initialise from the first season (weekly) or the first two days (daily), score after it.
  const initSpan = weekly ? season : 2 * sd;
  const init = initialState(y, slots, sd, weekly, initSpan);
  const scoreFrom = Math.max(initSpan, y.length - HW_SCORE_WEEKS * 7 * sd);

  // Coordinate descent over the grids (each parameter in turn, the others held) until a full cycle changes
  // nothing: about 60 smoothing passes instead of the full grid's 1,512, to the same optimum on the bench.
  const grids: Record<keyof HoltWintersParams, number[]> = { alpha: ALPHAS, delta: DELTAS, omega: weekly ? OMEGAS : [0], phi: PHIS };
  const scores = new Map<string, number>();
  const sseOf = (p: HoltWintersParams) => {
    const key = `${p.alpha},${p.delta},${p.omega},${p.phi}`;
    let sse = scores.get(key);
    if (sse === undefined) {
      sse = smooth(y, slots, init, p, weekly, scoreFrom).sse;
      scores.set(key, sse);
    }
    return sse;
  };
  let best: HoltWintersParams = { alpha: 0.05, delta: 0.1, omega: weekly ? 0.1 : 0, phi: 0.9 };
  let bestSse = sseOf(best);
  for (let cycle = 0; cycle < 6; cycle++) {
    const before = best;
    for (const name of Object.keys(grids) as (keyof HoltWintersParams)[]) {
      for (const value of grids[name]) {
        const candidate = { ...best, [name]: value };
        const sse = sseOf(candidate);
        if (sse < bestSse) [best, bestSse] = [candidate, sse];
      }
    }
    if (best === before) break;
  }
  const { state } = smooth(y, slots, init, best, weekly, scoreFrom);
  const lastT = t[t.length - 1];
  const scored = y.slice(scoreFrom).filter((v) => !Number.isNaN(v)).length;
  return {
    params: best,
    oneStepRmse: Math.sqrt(bestSse / Math.max(1, scored)),
    predict(steps: number): number[] {
      const ahead = slotsOf(futureTimes(lastT, stepMinutes, steps), stepMinutes, context.timezone);
      const out = new Array<number>(steps);
      let ar = state.error;
      for (let k = 0; k < steps; k++) {
        ar *= best.phi;
        out[k] = state.level + state.daily[ahead.day[k]] + state.weekly[ahead.week[k]] + ar;
      }
      return out;
    },
  };
}

const LOAD_LIKE = (kind: SeriesKind) => kind === 'load' || kind === 'generic';

/** Taylor's (2003) double-seasonal Holt-Winters, daily and weekly additive seasons. */
export const holtWintersMember: ForecastMember = {
  name: 'double_seasonal_holt_winters',
  supports: LOAD_LIKE,
  minHistory: (stepMinutes) => HW_MIN_WEEKS * 7 * stepsPerDay(stepMinutes),
  fit: (history, context) => fitHoltWinters(history, context, true),
};

/** The daily-season-only fallback for histories shorter than two weeks; reported under its own name. */
export const holtWintersDailyMember: ForecastMember = {
  name: 'holt_winters_daily',
  supports: LOAD_LIKE,
  minHistory: (stepMinutes) => HW_DAILY_MIN_DAYS * stepsPerDay(stepMinutes),
  fit: (history, context) => fitHoltWinters(history, context, false),
};

/**
 * The expected clear-sky index of the solar member: a climatology (the index per time of day over recent days)
 * corrected by two persistence terms, the index anomaly of the last daylight hours and that of the last 24 hours, with
 * one weight pair per block of lead hours. Nielsen et al. (1998) blend persistence and climatology with the
 * lag-k autocorrelation as the weight; here the weights are that regression's least-squares estimate on the
 * history's own past days (pseudo-origins at the forecast's time of day, each with the climatology of the days
 * before it, so a seasonal drift does not pass for persistence), shrunk toward climatology. Working in clear-sky index (Lorenz et al. 2009) takes the sun's geometry out
 * of what is averaged and persisted. Rows are weighted by the squared expected production, so the fit
 * minimises the error in power, not in index.
 */
import { HOUR_MS, stepsPerDay } from './types';

/**
 * Climatology windows, days, averaged (an ensemble over windows, as LEAR averages calibration windows): on
 * SERF East a choice among them by the pseudo-origins' error picked 30 days and lost 0.02 skill out of sample,
 * while the average was within 0.002 of the best single window. Day-ahead skill of the member from the history
 * alone on SERF East (TUNE, 28 origins) by windows: 7/14/30 0.218, 14/30/60 0.222, 7/30/60 0.217, 14/45/90 0.218,
 * 30/60/90 0.214 (on PVOD, REPORT: 0.216, 0.230, 0.229, 0.234, 0.235): a week is too short a climate.
 */
export const CLIMATOLOGY_WINDOW_DAYS = [14, 30, 60] as const;
/** Pseudo-origins need at least this many days of climatology before them (fewer when the history is shorter). */
const MIN_CLIMATOLOGY_DAYS = 7;
/** Lead blocks, upper bounds in hours: each has its own persistence weights. */
export const LEAD_BLOCK_HOURS = [1, 3, 6, 12, 24, 48] as const;
/** Expected production below this share of its maximum carries no index (low sun: a ratio of small numbers). */
const MIN_EXPECTED_SHARE = 0.05;
/** Strength of the shrinkage of the persistence weights toward 0 (pure climatology), in days of evidence. */
const PRIOR_DAYS = 7;
/**
 * Hours of daylight before the origin whose index anomaly is the recent term. Counted in daylight, not on the
 * clock: a day-ahead forecast made at night then reads the evening before (where the weather is heading), not
 * dark hours that hold nothing. Day-ahead skill from the history alone, SERF East (TUNE) / PVOD (REPORT), with the
 * bench's midnight origins | with its origins moved to noon: the last clock hour 0.223 / 0.231 | 0.251 / 0.391;
 * the last 1 daylight hour 0.276 / 0.247 | the same as the clock hour; 2 hours 0.279 / 0.254 | 0.248 / 0.378;
 * 3 hours 0.275 / 0.251; 4 hours 0.249 / 0.241; as much expected energy as half an hour at the peak 0.277 / 0.255
 * | 0.246 / 0.394. One hour ties the best on SERF East over both and changes nothing for a forecast made by day.
 */
const RECENT_DAYLIGHT_HOURS = 1;

export interface IndexBlend {
  /** Per lead block (LEAD_BLOCK_HOURS, then beyond), the weights of the recent and the 24-hour anomaly. */
  weights: { recent: number; day: number }[];
  /** Index per future step: climatology plus the weighted anomalies, in [0, maxIndex]. */
  index: number[];
}

/**
 * Per day (aligned so the last day ends at the origin) and slot, the sums of production and expected production,
 * and their running totals over days (a window's sum is a difference of two totals).
 */
interface DaySums {
  days: number;
  p: Float64Array;
  e: Float64Array;
  /** Totals over days [0, d) at index d x perDay + slot, for d in 0..days. */
  pTotal: Float64Array;
  eTotal: Float64Array;
}

function daySums(production: readonly number[], expected: readonly number[], perDay: number): DaySums {
  const n = production.length;
  const days = Math.floor(n / perDay);
  const p = new Float64Array(days * perDay);
  const e = new Float64Array(days * perDay);
  const offset = n - days * perDay;
  for (let k = 0; k < days * perDay; k++) {
    const i = offset + k;
    if (!Number.isFinite(production[i]) || !(expected[i] > 0)) continue;
    p[k] = Math.max(0, production[i]);
    e[k] = expected[i];
  }
  const pTotal = new Float64Array((days + 1) * perDay);
  const eTotal = new Float64Array((days + 1) * perDay);
  for (let k = 0; k < days * perDay; k++) {
    pTotal[k + perDay] = pTotal[k] + p[k];
    eTotal[k + perDay] = eTotal[k] + e[k];
  }
  return { days, p, e, pTotal, eTotal };
}

/** Per slot, the ratio of sums over days [from, to) and the slot's neighbours; NaN where nothing was expected. */
function windowClimatology(sums: DaySums, perDay: number, from: number, to: number): number[] {
  const out = new Array<number>(perDay);
  for (let s = 0; s < perDay; s++) {
    let a = 0;
    let b = 0;
    for (const k of [s - 1, s, s + 1]) {
      const w = (k + perDay) % perDay;
      a += sums.pTotal[to * perDay + w] - sums.pTotal[from * perDay + w];
      b += sums.eTotal[to * perDay + w] - sums.eTotal[from * perDay + w];
    }
    out[s] = b > 0 ? a / b : NaN;
  }
  return out;
}

/** Mean of the windows' climatologies at a day boundary (each window cut at the start of the history). */
function climatology(sums: DaySums, perDay: number, origin: number): number[] {
  const parts = CLIMATOLOGY_WINDOW_DAYS.map((d) => windowClimatology(sums, perDay, Math.max(0, origin - d), origin));
  return Array.from({ length: perDay }, (_, s) => {
    let sum = 0;
    let count = 0;
    for (const part of parts) {
      if (Number.isFinite(part[s])) {
        sum += part[s];
        count++;
      }
    }
    return count ? sum / count : NaN;
  });
}

/** Index over a range of days and slots, minus the climatology there; 0 when nothing was expected. */
function anomaly(sums: DaySums, perDay: number, clim: readonly number[], day: number, fromSlot: number): number {
  let p = 0;
  let e = 0;
  let c = 0;
  for (let s = fromSlot; s < perDay; s++) {
    const k = day * perDay + s;
    p += sums.p[k];
    e += sums.e[k];
    if (sums.e[k] > 0) c += sums.e[k] * (Number.isFinite(clim[s]) ? clim[s] : 1);
  }
  return e > 0 ? (p - c) / e : 0;
}

/** First slot of a day's last `slots` daylight slots (expected production above `lit`); 0 when the day has fewer. */
function recentStart(sums: DaySums, perDay: number, day: number, slots: number, lit: number): number {
  let seen = 0;
  for (let s = perDay - 1; s > 0; s--) {
    if (sums.e[day * perDay + s] > lit && ++seen >= slots) return s;
  }
  return 0;
}

const leadBlock = (j: number, stepMinutes: number) => {
  const hours = ((j + 1) * stepMinutes * 60_000) / HOUR_MS;
  const block = LEAD_BLOCK_HOURS.findIndex((bound) => hours <= bound);
  return block < 0 ? LEAD_BLOCK_HOURS.length : block;
};

/** Least squares of t on (x1, x2) through the origin, weights kept in [0, 1] (a blend weight, not a free coefficient). */
function blendWeights(s: { x1x1: number; x1x2: number; x2x2: number; x1t: number; x2t: number }): { recent: number; day: number } {
  const clamp = (w: number) => (Number.isFinite(w) ? Math.min(1, Math.max(0, w)) : 0);
  const single = (sxt: number, sxx: number) => (sxx > 0 ? clamp(sxt / sxx) : 0);
  const det = s.x1x1 * s.x2x2 - s.x1x2 ** 2;
  if (det > 1e-12 * Math.max(1e-300, s.x1x1 * s.x2x2)) {
    const recent = (s.x2x2 * s.x1t - s.x1x2 * s.x2t) / det;
    const day = (s.x1x1 * s.x2t - s.x1x2 * s.x1t) / det;
    if (recent >= 0 && recent <= 1 && day >= 0 && day <= 1) return { recent, day };
  }
  // On a bound: the better of the two one-term fits (the other weight at 0).
  const r = single(s.x1t, s.x1x1);
  const d = single(s.x2t, s.x2x2);
  const gain = (w: number, sxt: number, sxx: number) => 2 * w * sxt - w * w * sxx;
  return gain(r, s.x1t, s.x1x1) >= gain(d, s.x2t, s.x2x2) ? { recent: r, day: 0 } : { recent: 0, day: d };
}

/**
 * Fits the blend on the history (production and expected clear-sky production, aligned; the origin is the end)
 * and returns the expected index of the `futureExpected.length` steps after it.
 */
export function fitIndexBlend(production: readonly number[], expected: readonly number[], futureExpected: readonly number[], stepMinutes: number, maxIndex: number): IndexBlend {
  const perDay = stepsPerDay(stepMinutes);
  const horizon = futureExpected.length;
  const sums = daySums(production, expected, perDay);
  const maxExpected = expected.reduce((max, e) => (e > max ? e : max), 0);
  const lit = MIN_EXPECTED_SHARE * maxExpected;
  const recentSlots = Math.max(1, Math.round((RECENT_DAYLIGHT_HOURS * 60) / stepMinutes));
  const recentFrom = (day: number) => recentStart(sums, perDay, day, recentSlots, lit);
  const clip = (k: number) => Math.min(maxIndex, Math.max(0, k));

  // Pseudo-origins at the history's day boundaries (the forecast's time of day), each with the climatology of
  // the days before it: from the longest window on when the history allows, else from a week in.
  const longest = Math.max(...CLIMATOLOGY_WINDOW_DAYS);
  const firstOrigin = Math.min(sums.days - 1, Math.max(MIN_CLIMATOLOGY_DAYS, Math.min(longest, sums.days - longest)));
  const stats = Array.from({ length: LEAD_BLOCK_HOURS.length + 1 }, () => ({ x1x1: 0, x1x2: 0, x2x2: 0, x1t: 0, x2t: 0 }));
  for (let origin = Math.max(1, firstOrigin); origin < sums.days; origin++) {
    const clim = climatology(sums, perDay, origin);
    const x1 = anomaly(sums, perDay, clim, origin - 1, recentFrom(origin - 1));
    const x2 = anomaly(sums, perDay, clim, origin - 1, 0);
    for (let j = 0; j < horizon && origin * perDay + j < sums.days * perDay; j++) {
      const k = origin * perDay + j;
      const e = sums.e[k];
      const c = clim[j % perDay];
      if (!(e > MIN_EXPECTED_SHARE * maxExpected) || !Number.isFinite(c)) continue;
      const w = e * e;
      const t = sums.p[k] / e - c;
      const s = stats[leadBlock(j, stepMinutes)];
      s.x1x1 += w * x1 * x1;
      s.x1x2 += w * x1 * x2;
      s.x2x2 += w * x2 * x2;
      s.x1t += w * x1 * t;
      s.x2t += w * x2 * t;
    }
  }
  // Ridge toward climatology: PRIOR_DAYS days' worth of each regressor's variance on the diagonal, so a weight
  // estimated on few days shrinks by about days / (days + PRIOR_DAYS).
  const origins = Math.max(1, sums.days - firstOrigin);
  const weights = stats.map((s) => blendWeights({ ...s, x1x1: s.x1x1 * (1 + PRIOR_DAYS / origins), x2x2: s.x2x2 * (1 + PRIOR_DAYS / origins) }));

  const clim = climatology(sums, perDay, sums.days);
  const recent = sums.days > 0 ? anomaly(sums, perDay, clim, sums.days - 1, recentFrom(sums.days - 1)) : 0;
  const day = sums.days > 0 ? anomaly(sums, perDay, clim, sums.days - 1, 0) : 0;
  const index = futureExpected.map((_, j) => {
    const c = clim[j % perDay];
    const w = weights[leadBlock(j, stepMinutes)];
    return clip((Number.isFinite(c) ? c : 1) + w.recent * recent + w.day * day);
  });
  return { weights, index };
}

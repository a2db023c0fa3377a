/**
 * The scoring pieces of the PV bench, pure: day-ahead origins at local midnights, the daylight mask, smart
 * persistence on the clear-sky index, and per-origin sums that the paired bootstrap resamples (Efron & Tibshirani
 * 1993; bench/accuracy/bootstrap.ts).
 */
import { DAY_MS, HOUR_MS } from '../../shared/domain/time';
import { stepMiddles, sunPath } from '../../shared/domain/pv/solar-geometry';

/**
 * Indices of the day-ahead origins: for each local midnight (UTC offset in hours, standard time), the step whose
 * middle is the first at or after it, so that a grid offset from the hour (PVOD's steps start at 23:52:30) still
 * gets one origin a day.
 */
export function localMidnightOrigins(t: readonly number[], stepMinutes: number, utcOffsetHours: number): number[] {
  const stepMs = stepMinutes * 60_000;
  const out: number[] = [];
  for (let i = 0; i < t.length; i++) {
    const sinceMidnight = (((t[i] + stepMs / 2 + utcOffsetHours * HOUR_MS) % DAY_MS) + DAY_MS) % DAY_MS;
    if (sinceMidnight < stepMs) out.push(i);
  }
  return out;
}

/**
 * The TUNE/REPORT split of a set's origins (local midnights, one a day, in order): the first `tuneDays` are TUNE,
 * and REPORT starts at the step of the next one (the grid's end when there is none).
 */
export function reportStart(origins: readonly number[], tuneDays: number, length: number): number {
  return origins[tuneDays] ?? length;
}

/** Daylight steps: the sun above the horizon at the step's middle, or power measured (the daylight RMSE). */
export function daylightMask(t: readonly number[], stepMinutes: number, measuredKw: readonly number[], place: { latitude: number; longitude: number }): boolean[] {
  const zenith = sunPath(stepMiddles(t, stepMinutes), place.latitude, place.longitude).zenithDeg;
  return t.map((_, i) => zenith[i] < 90 || measuredKw[i] > 0);
}

/**
 * Below this share of the previous day's clear-sky peak, a step's own clear-sky index is noise (dawn, dusk): the
 * day's energy index is used there instead. Fixed before any scoring, not tuned.
 */
export const PERSISTENCE_MIN_CLEAR_SHARE = 0.1;
/** Indices above this are measurement or clear-sky-model noise (cloud enhancement stays well under it for 15-minute means). */
export const PERSISTENCE_MAX_INDEX = 2;

/**
 * Smart persistence (Pedro & Coimbra 2012; Lorenz et al. 2009): the clear-sky index of the same step the day
 * before, measured power over the modelled clear-sky output, times today's clear-sky output. Steps where yesterday's
 * clear-sky output was small, or the measurement missing, take yesterday's energy-weighted index.
 * `clearKw` and `measuredKw` are aligned arrays; the forecast covers [origin, origin + steps).
 */
export function smartPersistence(measuredKw: readonly number[], clearKw: readonly number[], origin: number, steps: number, stepsPerDay: number): number[] {
  const from = origin - stepsPerDay;
  if (from < 0) return new Array<number>(steps).fill(NaN);
  let produced = 0;
  let possible = 0;
  let peak = 0;
  for (let j = 0; j < stepsPerDay; j++) {
    const c = clearKw[from + j];
    peak = Math.max(peak, c);
    if (c > 0 && Number.isFinite(measuredKw[from + j])) {
      produced += Math.max(0, measuredKw[from + j]);
      possible += c;
    }
  }
  const dayIndex = possible > 0 ? Math.min(PERSISTENCE_MAX_INDEX, produced / possible) : NaN;
  return Array.from({ length: steps }, (_, j) => {
    const today = clearKw[origin + j];
    if (!(today > 0)) return 0;
    const k = j % stepsPerDay;
    const c = clearKw[from + k];
    const m = measuredKw[from + k];
    const index = c >= PERSISTENCE_MIN_CLEAR_SHARE * peak && c > 0 && Number.isFinite(m) ? Math.min(PERSISTENCE_MAX_INDEX, Math.max(0, m) / c) : dayIndex;
    return index * today;
  });
}

/** Squared error and count over the steps a mask keeps where forecast and measurement are both finite. */
export function squaredErrors(forecast: readonly number[], measured: readonly number[], keep: readonly boolean[]): { sse: number; n: number } {
  let sse = 0;
  let n = 0;
  for (let j = 0; j < forecast.length; j++) {
    if (!keep[j] || !Number.isFinite(forecast[j]) || !Number.isFinite(measured[j])) continue;
    sse += (forecast[j] - measured[j]) ** 2;
    n++;
  }
  return { sse, n };
}

/** Root of the pooled mean squared error over origins. */
export function pooledRmse(sums: readonly { sse: number; n: number }[]): number {
  const sse = sums.reduce((s, x) => s + x.sse, 0);
  const n = sums.reduce((s, x) => s + x.n, 0);
  return n > 0 ? Math.sqrt(sse / n) : NaN;
}

/** Share of the kept steps whose measurement lies in [lower, upper]. */
export function intervalHits(lower: readonly number[], upper: readonly number[], measured: readonly number[], keep: readonly boolean[]): { inside: number; n: number } {
  let inside = 0;
  let n = 0;
  for (let j = 0; j < measured.length; j++) {
    if (!keep[j] || !Number.isFinite(measured[j]) || !Number.isFinite(lower[j]) || !Number.isFinite(upper[j])) continue;
    n++;
    if (measured[j] >= lower[j] - 1e-9 && measured[j] <= upper[j] + 1e-9) inside++;
  }
  return { inside, n };
}

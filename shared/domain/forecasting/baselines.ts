/**
 * The baselines every result is compared with (ARCHITECTURE 7): persistence (the last value held), the 7-day
 * mean profile, seasonal naive (same time yesterday) and smart persistence. They apply to every kind of series
 * and need no exogenous data. Being members, the engine's selection can never do worse than them on validation.
 */
import { knownSiteProfile } from './solar';
import { fitClearSkyIndexPersistence } from './solar-persistence';
import { stepsPerDay, type FitContext, type FittedModel, type ForecastMember, type RegularSeries } from './types';

/** Days of history the time-of-day profile of smart persistence is averaged over. */
export const PROFILE_DAYS = 7;
/** Weeks back seasonal naive looks when yesterday's value is missing. */
const WEEKLY_LOOKBACK = 7;

/** Mean of the finite values (NaN when there are none). */
export const finiteMean = (values: readonly number[]) => {
  let sum = 0;
  let count = 0;
  for (const v of values) {
    if (Number.isFinite(v)) {
      sum += v;
      count++;
    }
  }
  return count === 0 ? NaN : sum / count;
};

/** Mean of each time-of-day slot (slot i is i steps after the start of a day-long block ending at `end`), over the last `days` days. */
function slotMeans(y: readonly number[], perDay: number, end: number, days: number): number[] {
  const sums = new Array<number>(perDay).fill(0);
  const counts = new Array<number>(perDay).fill(0);
  for (let i = Math.max(0, end - days * perDay); i < end; i++) {
    if (!Number.isFinite(y[i])) continue;
    const slot = (((i - end) % perDay) + perDay) % perDay;
    sums[slot] += y[i];
    counts[slot]++;
  }
  return sums.map((s, slot) => (counts[slot] > 0 ? s / counts[slot] : NaN));
}

/**
 * Seasonal naive: each step takes the value one day earlier (the last observed day repeated beyond a day's
 * horizon). A missing value falls back to a week earlier, then to the mean of that time of day, then to
 * the series' mean.
 */
export function fitSeasonalNaive(history: RegularSeries): FittedModel {
  const { y } = history;
  const n = y.length;
  const perDay = stepsPerDay(history.stepMinutes);
  let profile: number[] | null = null;
  let overall: number | null = null;
  return {
    predict(steps) {
      return Array.from({ length: steps }, (_, j) => {
        const target = n + j;
        const yesterday = target - perDay * Math.ceil((j + 1) / perDay);
        if (Number.isFinite(y[yesterday])) return y[yesterday];
        const weekAgo = target - WEEKLY_LOOKBACK * perDay * Math.ceil((j + 1) / (WEEKLY_LOOKBACK * perDay));
        if (weekAgo >= 0 && Number.isFinite(y[weekAgo])) return y[weekAgo];
        profile ??= slotMeans(y, perDay, n, Math.ceil(n / perDay));
        const slotMean = profile[j % perDay];
        if (Number.isFinite(slotMean)) return slotMean;
        overall ??= finiteMean(y);
        return Number.isFinite(overall) ? overall : 0;
      });
    },
  };
}

/** Lag-1 autocorrelation of a series' deviations from its slot means over the profile window, in [0, 0.999]. */
function anomalyPersistence(y: readonly number[], profile: readonly number[], perDay: number): number {
  const n = y.length;
  const start = Math.max(1, n - PROFILE_DAYS * perDay);
  const anomaly = (i: number) => y[i] - profile[(((i - n) % perDay) + perDay) % perDay];
  let sxy = 0;
  let sxx = 0;
  for (let i = start; i < n; i++) {
    const a = anomaly(i - 1);
    const b = anomaly(i);
    if (Number.isFinite(a) && Number.isFinite(b)) {
      sxy += a * b;
      sxx += a * a;
    }
  }
  return sxx > 0 ? Math.min(0.999, Math.max(0, sxy / sxx)) : 0;
}

/**
 * Smart persistence.
 * Solar: with the site's coordinates, the last day's clear-sky index (energy over clear-sky energy) times
 * the clear-sky profile of the horizon; without them, the mean daily profile of the last 7 days scaled by
 * the last day's energy over that mean day's energy.
 * Other kinds: the last value's departure from its time-of-day mean, decaying toward the time-of-day mean
 * with the horizon as rho^h (rho the lag-1 autocorrelation of those departures: an AR(1) on the anomaly).
 */
export function fitSmartPersistence(history: RegularSeries, context: FitContext): FittedModel {
  const { y } = history;
  const n = y.length;
  const perDay = stepsPerDay(history.stepMinutes);
  const profile = slotMeans(y, perDay, n, PROFILE_DAYS);
  const profileAt = (j: number) => profile[j % perDay];
  const lastDay = y.slice(n - perDay);

  if (context.kind === 'solar') {
    if (knownSiteProfile(history, context)) return fitClearSkyIndexPersistence(history, context);
    const meanDay = profile.reduce((s, v) => s + (Number.isFinite(v) ? Math.max(0, v) : 0), 0);
    // The last day's energy over the slots it has values for, compared with the mean day over the same slots.
    let lastEnergy = 0;
    let comparable = 0;
    lastDay.forEach((v, i) => {
      if (Number.isFinite(v) && Number.isFinite(profile[i])) {
        lastEnergy += Math.max(0, v);
        comparable += Math.max(0, profile[i]);
      }
    });
    const ratio = comparable > 0 ? lastEnergy / comparable : meanDay > 0 ? 0 : 1;
    return { predict: (steps) => Array.from({ length: steps }, (_, j) => Math.max(0, ratio * (Number.isFinite(profileAt(j)) ? profileAt(j) : 0))) };
  }

  const rho = anomalyPersistence(y, profile, perDay);
  let lastIndex = n - 1;
  while (lastIndex >= 0 && !Number.isFinite(y[lastIndex])) lastIndex--;
  const overall = finiteMean(y.slice(Math.max(0, n - PROFILE_DAYS * perDay)));
  const meanAt = (slot: number) => (Number.isFinite(profile[slot]) ? profile[slot] : overall);
  const lastSlot = (((lastIndex - n) % perDay) + perDay) % perDay;
  const lastAnomaly = lastIndex >= 0 ? y[lastIndex] - meanAt(lastSlot) : 0;
  return {
    predict: (steps) =>
      Array.from({ length: steps }, (_, j) => {
        const mean = meanAt(j % perDay);
        const decay = rho ** (n + j - lastIndex);
        return (Number.isFinite(mean) ? mean : 0) + (Number.isFinite(lastAnomaly) ? lastAnomaly * decay : 0);
      }),
  };
}

/** Persistence: the last observed value, held over the whole horizon (the reference of short-horizon wind). */
export function fitPersistence(history: RegularSeries): FittedModel {
  let last = history.y.length - 1;
  while (last >= 0 && !Number.isFinite(history.y[last])) last--;
  const value = last >= 0 ? history.y[last] : 0;
  return { predict: (steps) => new Array<number>(steps).fill(value) };
}

/** The mean of each time of day over the last 7 days (the series' mean where a slot has no value). */
export function fitMeanProfile(history: RegularSeries): FittedModel {
  const { y } = history;
  const perDay = stepsPerDay(history.stepMinutes);
  const profile = slotMeans(y, perDay, y.length, PROFILE_DAYS);
  const overall = finiteMean(y.slice(Math.max(0, y.length - PROFILE_DAYS * perDay)));
  return { predict: (steps) => Array.from({ length: steps }, (_, j) => (Number.isFinite(profile[j % perDay]) ? profile[j % perDay] : Number.isFinite(overall) ? overall : 0)) };
}

export const persistenceMember: ForecastMember = {
  name: 'persistence',
  supports: () => true,
  minHistory: () => 1,
  fit: (history) => fitPersistence(history),
};

export const meanProfileMember: ForecastMember = {
  name: 'mean_profile_7d',
  supports: () => true,
  minHistory: (stepMinutes) => stepsPerDay(stepMinutes),
  fit: (history) => fitMeanProfile(history),
};

export const seasonalNaiveMember: ForecastMember = {
  name: 'seasonal_naive',
  supports: () => true,
  minHistory: (stepMinutes) => stepsPerDay(stepMinutes),
  fit: (history) => fitSeasonalNaive(history),
};

export const smartPersistenceMember: ForecastMember = {
  name: 'smart_persistence',
  supports: () => true,
  minHistory: (stepMinutes) => stepsPerDay(stepMinutes),
  fit: fitSmartPersistence,
};

/**
 * Short-lead solar nowcast: the clear-sky index of the last hour of measurements (its production over the
 * site's clear-sky production, as energies) persisted over the clear-sky profile ahead, blended into a forecast
 * with a weight that halves every `halfLifeMinutes` of lead. Clear-sky-index persistence is the reference
 * intra-hour forecast (Pedro & Coimbra 2012; Lorenz et al. 2009); the fading weight hands the later leads back
 * to the forecast, whose skill over persistence grows with the lead.
 */
import { futureTimes } from './calendar';
import { fitSystemScale, MAX_CLEAR_SKY_INDEX, siteProfile, SOLAR_FIT_DAYS } from './solar';
import { stepsPerDay, type FitContext, type RegularSeries } from './types';

/** Measurements the index is taken over: the last hour (shorter windows follow single passing clouds). */
export const NOWCAST_WINDOW_MINUTES = 60;
/**
 * Below this mean clear-sky production over the window, as a share of the fit window's clear-sky peak, there is
 * no nowcast: at sunrise the index is a ratio of small numbers.
 */
export const NOWCAST_MIN_CLEAR_SKY_SHARE = 0.1;

export interface ClearSkyNowcast {
  /** Clear-sky index of the window, in [0, MAX_CLEAR_SKY_INDEX]. */
  index: number;
  /** The site's clear-sky production (the history's units) over each step after the history. */
  clearSky: number[];
}

/**
 * The last hour's clear-sky index and the clear-sky production of the `steps` intervals after the history; null
 * when the site is unknown, the system scale cannot be fitted, or the sun is too low over the window.
 */
export function clearSkyIndexNow(history: RegularSeries, context: FitContext, steps: number): ClearSkyNowcast | null {
  const profile = siteProfile(history, context);
  const n = history.y.length;
  if (!profile || n === 0) return null;
  // The system scale as the solar member fits it: production per unit clear-sky GHI over the last days.
  const from = Math.max(0, n - SOLAR_FIT_DAYS * stepsPerDay(history.stepMinutes));
  const sky = profile(history.t.slice(from));
  const scale = fitSystemScale(history.y.slice(from), sky);
  if (!(scale > 0)) return null;
  const window = Math.max(1, Math.round(NOWCAST_WINDOW_MINUTES / history.stepMinutes));
  let produced = 0;
  let possible = 0;
  let counted = 0;
  for (let i = Math.max(0, n - window); i < n; i++) {
    const v = history.y[i];
    if (!Number.isFinite(v)) continue;
    produced += Math.max(0, v);
    possible += scale * sky[i - from];
    counted++;
  }
  const peak = scale * Math.max(0, ...sky);
  if (counted === 0 || possible < NOWCAST_MIN_CLEAR_SKY_SHARE * peak * counted) return null;
  const clearSky = profile(futureTimes(history.t[n - 1], history.stepMinutes, steps)).map((c) => scale * c);
  return { index: Math.min(MAX_CLEAR_SKY_INDEX, produced / possible), clearSky };
}

/** The nowcast's weight at a lead (minutes from the last measurement to the end of the interval). */
export function nowcastWeight(leadMinutes: number, halfLifeMinutes: number): number {
  return halfLifeMinutes > 0 ? 0.5 ** (leadMinutes / halfLifeMinutes) : 0;
}

/**
 * The forecast of the intervals after the history with the nowcast blended in: w x index x clear sky +
 * (1 - w) x forecast, w halving every `halfLifeMinutes` of lead; the forecast unchanged without a nowcast.
 */
export function blendNowcast(forecast: readonly number[], nowcast: ClearSkyNowcast | null, stepMinutes: number, halfLifeMinutes: number): number[] {
  if (!nowcast || !(halfLifeMinutes > 0)) return [...forecast];
  return forecast.map((f, j) => {
    const w = nowcastWeight((j + 1) * stepMinutes, halfLifeMinutes);
    return w * nowcast.index * (nowcast.clearSky[j] ?? 0) + (1 - w) * f;
  });
}

/** The solar forecast after `history` (`forecast`, its first value the next interval's) sharpened by the nowcast. */
export function solarNowcast(history: RegularSeries, context: FitContext, forecast: readonly number[], halfLifeMinutes: number): number[] {
  return blendNowcast(forecast, halfLifeMinutes > 0 ? clearSkyIndexNow(history, context, forecast.length) : null, history.stepMinutes, halfLifeMinutes);
}

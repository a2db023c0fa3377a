/**
 * Clear-sky-index persistence, the reference of solar forecasting beside 24-hour persistence ("smart
 * persistence"; Pedro & Coimbra 2012, Lorenz et al. 2009): the last day's clear-sky index (its production over
 * its clear-sky profile, as energies) times the clear-sky profile of the horizon. Unlike 24-hour persistence it
 * follows the sun's seasonal shift and does not repeat yesterday's passing clouds at the same minute.
 */
import { futureTimes } from './calendar';
import { siteProfile } from './solar';
import { stepsPerDay, type FitContext, type FittedModel, type ForecastMember, type RegularSeries } from './types';

export function fitClearSkyIndexPersistence(history: RegularSeries, context: FitContext): FittedModel {
  const profile = siteProfile(history, context);
  if (!profile) return { predict: (steps) => new Array<number>(steps).fill(0) };
  const n = history.y.length;
  const from = Math.max(0, n - stepsPerDay(history.stepMinutes));
  const sky = profile(history.t.slice(from));
  let produced = 0;
  let possible = 0;
  sky.forEach((c, k) => {
    const v = history.y[from + k];
    if (Number.isFinite(v) && c > 0) {
      produced += Math.max(0, v);
      possible += c;
    }
  });
  const index = possible > 0 ? produced / possible : 0;
  return { predict: (steps) => profile(futureTimes(history.t[n - 1], history.stepMinutes, steps)).map((c) => index * c) };
}

export const clearSkyIndexPersistenceMember: ForecastMember = {
  name: 'clear_sky_index_persistence',
  supports: (kind) => kind === 'solar',
  minHistory: (stepMinutes) => stepsPerDay(stepMinutes),
  fit: fitClearSkyIndexPersistence,
};

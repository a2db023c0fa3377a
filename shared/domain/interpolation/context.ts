/** What the fills read besides the series (types.ts Context), built once per series, only as far as the method can use it. */
import { stepsPerDay } from '../forecasting/types';
import { clearSkyOutput } from './clear-sky-ratio';
import { irradianceModel } from './irradiance-reference';
import { MIN_PROFILE_DAYS, seasonalProfile } from './seasonal-profile';
import type { CleanOptions, Context, Series } from './types';

export function contextOf(series: Series, options: CleanOptions, y: number[]): Context {
  const perDay = stepsPerDay(series.stepMinutes);
  const ctx: Context = { series: { ...series, y }, options, perDay };
  // The clear sky also places solar's hidden runs in daylight, so even the edge-only methods need it.
  if (options.kind === 'solar' && y.length >= 2 * perDay) ctx.clearSky = clearSkyOutput({ ...series, y }, options);
  if (options.method === 'linear' || options.method === 'pchip') return ctx;
  if (options.seasonalAdjustment && y.length >= MIN_PROFILE_DAYS * perDay) ctx.profile = seasonalProfile(y, perDay);
  const ghi = options.exogenous?.ghi_wm2;
  if (ctx.clearSky && y.length >= 3 * perDay) ctx.envelope = irradianceModel(y, ctx.clearSky, ctx.clearSky, perDay, series.stepMinutes);
  if (ctx.clearSky && ghi?.length === y.length && y.length >= 3 * perDay) ctx.irradiance = irradianceModel(y, ctx.clearSky, ghi, perDay, series.stepMinutes);
  return ctx;
}

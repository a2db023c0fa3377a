/**
 * `irradiance` (solar, with irradiance from the weather feed, `weather_correlation`): the array's own clear-sky
 * envelope times the feed's clear-sky index, the one signal that sees the clouds inside a gap
 * (irradiance-reference.ts).
 */
import { irradianceFill } from './irradiance-reference';
import { edgesKnown, type Context } from './types';

export function irradianceGapFill(y: readonly number[], a: number, b: number, ctx: Context): number[] | null {
  if (!edgesKnown(y, a, b)) return null;
  return ctx.irradiance ? irradianceFill(ctx.irradiance, y, a - 1, b + 1, ctx.perDay) : null;
}

/**
 * `envelope_kriging` (solar): the array's clear-sky envelope plus the day's residual level, the edges' deviations
 * kriged into the gap (irradiance-reference.ts with a constant clear-sky index), from the history alone.
 */
import { irradianceFill } from './irradiance-reference';
import { edgesKnown, type Context } from './types';

export function envelopeKrigingFill(y: readonly number[], a: number, b: number, ctx: Context): number[] | null {
  if (!edgesKnown(y, a, b)) return null;
  return ctx.envelope ? irradianceFill(ctx.envelope, y, a - 1, b + 1, ctx.perDay) : null;
}

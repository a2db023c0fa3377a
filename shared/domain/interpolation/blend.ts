/**
 * `blend`: the mean of the seasonal profile and the clear-sky ratio (PCHIP where there is no clear sky): the two
 * err differently, so their mean errs less on the bench's long gaps.
 */
import { clearSkyRatioFill } from './clear-sky-ratio';
import { pchipFill } from './pchip';
import { seasonalProfileFill } from './seasonal-profile';
import type { Context } from './types';

export function blendFill(y: readonly number[], a: number, b: number, ctx: Context): number[] | null {
  const parts = [seasonalProfileFill(y, a, b, ctx), (ctx.clearSky ? clearSkyRatioFill : pchipFill)(y, a, b, ctx)];
  if (parts.some((p) => !p)) return null;
  return parts[0]!.map((v, k) => (v + parts[1]![k]) / 2);
}

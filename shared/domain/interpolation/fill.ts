/** One gap filled by one method: each method lives in its own module, named after it. */
import { analogFill } from './analog-days';
import { blendFill } from './blend';
import { clearSkyRatioFill } from './clear-sky-ratio';
import { dayRegressionFill } from './day-regression';
import { envelopeKrigingFill } from './envelope-kriging';
import { irradianceGapFill } from './irradiance';
import { linearFill } from './linear';
import { pchipFill } from './pchip';
import { seasonalProfileFill } from './seasonal-profile';
import type { Concrete, Context } from './types';

/** Fills the gap [a, b] of `y`, or null when the method cannot (an unknown edge, no clear sky, no profile). */
type GapFill = (y: readonly number[], a: number, b: number, ctx: Context) => number[] | null;

const FILLS: Record<Concrete, GapFill> = {
  linear: linearFill,
  pchip: pchipFill,
  seasonal_profile: seasonalProfileFill,
  clear_sky_ratio: clearSkyRatioFill,
  blend: blendFill,
  analog_days: analogFill,
  day_regression: dayRegressionFill,
  envelope_kriging: envelopeKrigingFill,
  irradiance: irradianceGapFill,
};

export function fillGap(method: Concrete, y: readonly number[], a: number, b: number, ctx: Context): number[] | null {
  return FILLS[method](y, a, b, ctx);
}

/**
 * `seasonal_profile`: the mean of the same times of the neighbouring days, shifted to the gap's edges (the
 * residual at the two edges interpolated linearly across the gap).
 */
import { edgesKnown, known, type Context } from './types';

/** Days either side whose same time of day forms the seasonal profile. */
export const PROFILE_DAYS = 7;
/** Days of series a daily (seasonal) profile needs: fewer and `seasonalAdjustment` has no effect. */
export const MIN_PROFILE_DAYS = 3;

/** Mean of the same time of day on up to PROFILE_DAYS days either side (excluding the index itself). */
export function seasonalProfile(y: readonly number[], perDay: number): number[] {
  return y.map((_, i) => {
    let sum = 0;
    let count = 0;
    for (let k = 1; k <= PROFILE_DAYS; k++) {
      for (const j of [i - k * perDay, i + k * perDay]) {
        if (j >= 0 && j < y.length && known(y[j])) {
          sum += y[j];
          count++;
        }
      }
    }
    return count ? sum / count : NaN;
  });
}

export function seasonalProfileFill(y: readonly number[], a: number, b: number, ctx: Context): number[] | null {
  const left = a - 1;
  const right = b + 1;
  if (!edgesKnown(y, a, b)) return null;
  const span = right - left;
  const out: number[] = [];
  const p = ctx.profile;
  if (!p || !known(p[left]) || !known(p[right])) return null;
  const r0 = y[left] - p[left];
  const r1 = y[right] - p[right];
  for (let i = a; i <= b; i++) {
    if (!known(p[i])) return null;
    out.push(p[i] + r0 + ((r1 - r0) * (i - left)) / span);
  }
  return out;
}

/**
 * Far-horizon shading from a profile of horizon elevation by azimuth (hills, buildings, trees far from the array
 * compared with its size, so that the whole array sees the same horizon).
 *
 * - Beam: blocked entirely while the sun is below the profile at its azimuth (and the circumsolar diffuse with
 *   it, which comes from the same direction).
 * - Sky diffuse: an isotropic sky loses, on a horizontal surface, the share sin^2(h) of the light from each
 *   azimuth whose horizon is at elevation h (the integral of cos(zenith) sin(zenith) from 90 - h to 90 degrees,
 *   over its value across the whole hemisphere); the mean of sin^2(h) over azimuth is the lost share. It is
 *   applied to the tilted plane's isotropic and horizon-band diffuse alike: an approximation, exact for a level
 *   array, that ignores which part of the sky a tilted plane faces.
 * - Ground-reflected light is left as it is.
 */
import type { HorizonPoint } from './types';
import { DEG } from '../angles';

/** Azimuth samples for the sky-view integral: a quarter degree, finer than any surveyed horizon. */
const SKY_VIEW_SAMPLES = 1440;

/** A horizon profile ready for lookups: sorted, in [0, 360), with its sky-view share. */
export interface HorizonProfile {
  azimuthsDeg: Float64Array;
  elevationsDeg: Float64Array;
  /** Share of isotropic sky diffuse (on a level surface) the profile leaves visible, 0-1. */
  visibleSkyShare: number;
}

/** Sorts and wraps a profile's points (elevations below 0 count as 0); null for an empty profile. */
export function prepareHorizon(points: readonly HorizonPoint[] | undefined): HorizonProfile | null {
  const usable = (points ?? []).filter((p) => Number.isFinite(p.azimuthDeg) && Number.isFinite(p.elevationDeg));
  if (usable.length === 0) return null;
  const sorted = usable.map((p) => ({ azimuth: ((p.azimuthDeg % 360) + 360) % 360, elevation: Math.min(90, Math.max(0, p.elevationDeg)) })).sort((a, b) => a.azimuth - b.azimuth);
  const profile: HorizonProfile = {
    azimuthsDeg: Float64Array.from(sorted, (p) => p.azimuth),
    elevationsDeg: Float64Array.from(sorted, (p) => p.elevation),
    visibleSkyShare: 1,
  };
  let lost = 0;
  for (let k = 0; k < SKY_VIEW_SAMPLES; k++) lost += Math.sin(horizonElevationAt(profile, ((k + 0.5) * 360) / SKY_VIEW_SAMPLES) * DEG) ** 2;
  profile.visibleSkyShare = 1 - lost / SKY_VIEW_SAMPLES;
  return profile;
}

/** Horizon elevation towards an azimuth, degrees: linear in azimuth between the profile's points, wrapping at 360. */
export function horizonElevationAt(profile: HorizonProfile, azimuthDeg: number): number {
  const { azimuthsDeg: az, elevationsDeg: el } = profile;
  const n = az.length;
  if (n === 1) return el[0];
  const a = ((azimuthDeg % 360) + 360) % 360;
  // The last point before `a` (binary search), wrapping to the last point when `a` is before the first.
  let lo = 0;
  let hi = n - 1;
  if (a < az[0] || a >= az[n - 1]) {
    const [from, to] = [az[n - 1], az[0] + 360];
    const x = a < az[0] ? a + 360 : a;
    return to === from ? el[0] : el[n - 1] + ((x - from) / (to - from)) * (el[0] - el[n - 1]);
  }
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (az[mid] <= a) lo = mid;
    else hi = mid;
  }
  const span = az[hi] - az[lo];
  return span === 0 ? el[hi] : el[lo] + ((a - az[lo]) / span) * (el[hi] - el[lo]);
}

/** Whether the sun (apparent elevation and azimuth, degrees) is hidden behind the horizon profile. */
export function isSunBehindHorizon(profile: HorizonProfile | null, sunElevationDeg: number, sunAzimuthDeg: number): boolean {
  return profile !== null && sunElevationDeg < horizonElevationAt(profile, sunAzimuthDeg);
}

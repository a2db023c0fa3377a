/**
 * Splitting global horizontal irradiance into its beam (DNI) and diffuse (DHI) parts, where a weather feed gives
 * only GHI, or completing the pair from closure (GHI = DNI cos z + DHI) where it gives one of them.
 * Conventions follow pvlib (pvlib.irradiance.clearness_index, erbs and dni), so its test values apply.
 */
import { DEG } from '../angles';

/** Smallest cos(zenith) the clearness index divides by: keeps it finite near the horizon (pvlib's default). */
export const MIN_COS_ZENITH = 0.065;
/** Beyond this true zenith, degrees, Erbs puts all the light in the diffuse part (pvlib's default). */
export const ERBS_MAX_ZENITH_DEG = 87;
/** Beyond this zenith, degrees, a DNI derived from GHI - DHI is set to 0 (pvlib.irradiance.dni's default). */
export const CLOSURE_MAX_ZENITH_DEG = 88;

/**
 * Clearness index kt: GHI over extraterrestrial horizontal irradiance, with cos z floored at `minCosZenith`,
 * and kt bounded to [0, maxClearnessIndex] (pvlib.irradiance.clearness_index).
 */
export function clearnessIndex(ghi: number, zenithDeg: number, dniExtra: number, minCosZenith = MIN_COS_ZENITH, maxClearnessIndex = 2): number {
  const horizontalExtra = dniExtra * Math.max(Math.cos(zenithDeg * DEG), minCosZenith);
  return Math.min(maxClearnessIndex, Math.max(0, ghi / horizontalExtra));
}

/** Beam and diffuse parts of GHI, W/m2. */
export interface BeamDiffuse {
  dni: number;
  dhi: number;
}

/**
 * Erbs, Klein & Duffie (1982), eq. 1: the diffuse fraction as a piecewise polynomial of kt (kt capped at 1),
 * DHI = fraction x GHI, DNI = (GHI - DHI) / cos z. Beyond ERBS_MAX_ZENITH_DEG, or for a negative GHI, DNI = 0
 * and DHI = GHI, as pvlib.irradiance.erbs does.
 * @param zenithDeg true (unrefracted) solar zenith, degrees
 * @param dniExtra extraterrestrial normal irradiance on the day, W/m2
 */
export function erbs(ghi: number, zenithDeg: number, dniExtra: number): BeamDiffuse & { kt: number } {
  const kt = clearnessIndex(ghi, zenithDeg, dniExtra, MIN_COS_ZENITH, 1);
  const fraction = kt <= 0.22 ? 1 - 0.09 * kt : kt <= 0.8 ? 0.9511 - 0.1604 * kt + 4.388 * kt ** 2 - 16.638 * kt ** 3 + 12.336 * kt ** 4 : 0.165;
  const dhi = fraction * ghi;
  const dni = (ghi - dhi) / Math.cos(zenithDeg * DEG);
  if (zenithDeg > ERBS_MAX_ZENITH_DEG || ghi < 0 || !(dni >= 0)) return { dni: 0, dhi: ghi, kt };
  return { dni, dhi, kt };
}

/**
 * The missing member of (GHI, DNI, DHI) from closure, GHI = DNI cos z + DHI. With DHI: DNI = (GHI - DHI) / cos z
 * as pvlib.irradiance.dni computes it, except that where pvlib answers NaN (a negative DNI, or a non-zero one
 * beyond CLOSURE_MAX_ZENITH_DEG) this answers DNI = 0 and DHI = GHI, and the DNI is capped at the
 * extraterrestrial value (GHI - DHI over a small cos z amplifies sensor mismatch). With DNI: DHI = GHI - DNI cos z,
 * at least 0.
 * @param zenithDeg the zenith the beam arrives from: the apparent one, as for transposition and clear sky
 */
export function closeComponents(ghi: number, zenithDeg: number, dniExtra: number, given: { dni?: number; dhi?: number }): BeamDiffuse {
  const cosZ = Math.cos(zenithDeg * DEG);
  if (given.dhi !== undefined && Number.isFinite(given.dhi)) {
    const dni = (ghi - given.dhi) / cosZ;
    if (!(dni >= 0) || (zenithDeg >= CLOSURE_MAX_ZENITH_DEG && dni !== 0)) return { dni: 0, dhi: Math.max(0, ghi) };
    return { dni: Math.min(dni, dniExtra), dhi: given.dhi };
  }
  const dni = Math.max(0, given.dni ?? 0);
  return { dni, dhi: Math.max(0, ghi - dni * Math.max(0, cosZ)) };
}

/**
 * Transposition: irradiance on the plane of the array from its horizontal components. Beam by geometry, sky
 * diffuse by an anisotropic sky model (Perez et al. 1990, or Hay & Davies 1980), ground-reflected by an
 * isotropic ground. The forms and guards are pvlib's (pvlib.irradiance.perez, haydavies, get_ground_diffuse,
 * beam_component), so its test values apply.
 */
import { relativeAirmass } from '../weather/clear-sky';
import { cosAngleOfIncidence } from './solar-geometry';
import { DEG } from '../angles';

/** Ground reflectance: grass, pvlib's 'grass' surface type and a common default (Duffie & Beckman 2013). */
export const DEFAULT_ALBEDO = 0.2;

/** Beam irradiance on the plane, W/m2: DNI cos(AOI), 0 when the sun is behind the plane. */
export function beamOnPlane(dni: number, cosAoi: number): number {
  return Math.max(0, dni * cosAoi);
}

/** Ground-reflected irradiance on the plane, W/m2: GHI x albedo x (1 - cos tilt) / 2 (isotropic ground). */
export function groundDiffuse(tiltDeg: number, ghi: number, albedo = DEFAULT_ALBEDO): number {
  return ghi * albedo * (1 - Math.cos(tiltDeg * DEG)) * 0.5;
}

/** Sky diffuse on the plane, W/m2, split as the anisotropic models split it. */
export interface SkyDiffuse {
  total: number;
  /** The uniform background: what an overcast sky gives. */
  isotropic: number;
  /** The disc around the sun, which arrives along the beam's direction. */
  circumsolar: number;
  /** The band along the horizon (Perez only; may be negative). */
  horizon: number;
}

const NO_DIFFUSE: SkyDiffuse = { total: 0, isotropic: 0, circumsolar: 0, horizon: 0 };

/** Isotropic sky (Liu & Jordan 1963): DHI (1 + cos tilt) / 2. */
export function isotropicSkyDiffuse(tiltDeg: number, dhi: number): SkyDiffuse {
  const isotropic = Math.max(0, dhi * (1 + Math.cos(tiltDeg * DEG)) * 0.5);
  return { total: isotropic, isotropic, circumsolar: 0, horizon: 0 };
}

/**
 * Hay & Davies (1980): a share A = DNI / DNI_extra of the diffuse (the anisotropy index) comes from the sun's
 * direction, projected by Rb = cos(AOI) / cos z (cos z floored at cos 89 degrees, pvlib's guard), the rest
 * from an isotropic sky.
 * @param cosAoi cosine of the angle of incidence on the plane (negative behind it)
 */
export function hayDaviesSkyDiffuse(tiltDeg: number, dhi: number, dni: number, dniExtra: number, zenithDeg: number, cosAoi: number): SkyDiffuse {
  if (!(dhi > 0)) return NO_DIFFUSE;
  const rb = Math.max(0, cosAoi) / Math.max(Math.cos(zenithDeg * DEG), 0.01745);
  const anisotropy = dni / dniExtra;
  const isotropic = Math.max(0, dhi * (1 - anisotropy) * (1 + Math.cos(tiltDeg * DEG)) * 0.5);
  const circumsolar = Math.max(0, dhi * anisotropy * rb);
  return { total: isotropic + circumsolar, isotropic, circumsolar, horizon: 0 };
}

/** Upper bounds of the sky-clearness bins 1 (overcast) to 7; bin 8 is everything clearer (Perez et al. 1990, Table 1). */
const EPSILON_BINS = [1.065, 1.23, 1.5, 1.95, 2.8, 4.5, 6.2];

/**
 * Perez et al. (1990) 'allsitescomposite1990' coefficients, per clearness bin: f11, f12, f13, f21, f22, f23
 * (Table 6 of the paper, as pvlib carries them).
 */
const PEREZ_1990: readonly (readonly number[])[] = [
  [-0.008, 0.588, -0.062, -0.06, 0.072, -0.022],
  [0.13, 0.683, -0.151, -0.019, 0.066, -0.029],
  [0.33, 0.487, -0.221, 0.055, -0.064, -0.026],
  [0.568, 0.187, -0.295, 0.109, -0.152, -0.014],
  [0.873, -0.392, -0.362, 0.226, -0.462, 0.001],
  [1.132, -1.237, -0.412, 0.288, -0.823, 0.056],
  [1.06, -1.6, -0.359, 0.264, -1.127, 0.131],
  [0.678, -0.327, -0.25, 0.156, -1.377, 0.251],
];

/** kappa of the clearness formula for the zenith in radians (Perez et al. 1990, eq. 1). */
const PEREZ_KAPPA = 1.041;

/**
 * Perez et al. (1990) sky diffuse on a tilted plane: clearness epsilon and brightness delta of the sky select
 * and weight the circumsolar (F1) and horizon (F2) brightening; DHI [(1 - F1)(1 + cos tilt)/2 + F1 a/b +
 * F2 sin tilt], a = max(0, cos AOI), b = max(cos 85 degrees, cos z). As pvlib.irradiance.perez: F1 floored at 0,
 * the total at 0, and every component 0 when the total is.
 * @param zenithDeg apparent solar zenith, degrees
 * @param cosAoi cosine of the angle of incidence on the plane (negative behind it)
 * @param airmass relative optical air mass (Kasten & Young 1989)
 */
export function perezSkyDiffuse(tiltDeg: number, dhi: number, dni: number, dniExtra: number, zenithDeg: number, cosAoi: number, airmass: number): SkyDiffuse {
  if (!(dhi > 0) || !Number.isFinite(airmass)) return NO_DIFFUSE;
  const z = zenithDeg * DEG;
  const z3 = PEREZ_KAPPA * z ** 3;
  const epsilon = ((dhi + dni) / dhi + z3) / (1 + z3);
  const delta = (dhi * airmass) / dniExtra;
  let bin = 0;
  while (bin < EPSILON_BINS.length && epsilon >= EPSILON_BINS[bin]) bin++;
  const [f11, f12, f13, f21, f22, f23] = PEREZ_1990[bin];
  const f1 = Math.max(0, f11 + f12 * delta + f13 * z);
  const f2 = f21 + f22 * delta + f23 * z;
  const a = Math.max(0, cosAoi);
  const b = Math.max(Math.cos(85 * DEG), Math.cos(z));
  const isotropic = dhi * 0.5 * (1 - f1) * (1 + Math.cos(tiltDeg * DEG));
  const circumsolar = (dhi * f1 * a) / b;
  const horizon = dhi * f2 * Math.sin(tiltDeg * DEG);
  const total = isotropic + circumsolar + horizon;
  if (!(total > 0)) return NO_DIFFUSE;
  return { total, isotropic: Math.max(0, isotropic), circumsolar: Math.max(0, circumsolar), horizon };
}

/** Sky-diffuse models `planeOfArray` offers. */
export type TranspositionModel = 'perez' | 'haydavies' | 'isotropic';

/** The sun and the horizontal irradiance at one step, as transposition needs them. */
export interface SunAndSky {
  ghi: number;
  dni: number;
  dhi: number;
  /** Apparent solar zenith and azimuth, degrees. */
  zenithDeg: number;
  solarAzimuthDeg: number;
  /** Extraterrestrial normal irradiance on the day, W/m2. */
  dniExtra: number;
}

/** Irradiance on a plane, W/m2, by where it comes from. */
export interface PlaneOfArray {
  total: number;
  /** DNI cos(AOI). */
  beam: number;
  /** Circumsolar sky diffuse: it arrives along the beam. */
  circumsolar: number;
  /** The rest of the sky diffuse (isotropic background and horizon band). */
  skyDiffuse: number;
  ground: number;
  /** Cosine of the beam's angle of incidence (negative behind the plane). */
  cosAoi: number;
}

/**
 * Plane-of-array irradiance: beam by geometry (Duffie & Beckman 2013, eq. 1.6.3), sky diffuse by `model`
 * (Perez et al. 1990 by default; its air mass Kasten & Young 1989), ground-reflected with `albedo`.
 */
export function planeOfArray(tiltDeg: number, surfaceAzimuthDeg: number, sun: SunAndSky, model: TranspositionModel = 'perez', albedo = DEFAULT_ALBEDO): PlaneOfArray {
  const cosAoi = cosAngleOfIncidence(tiltDeg, surfaceAzimuthDeg, sun.zenithDeg, sun.solarAzimuthDeg);
  const sky =
    model === 'perez'
      ? perezSkyDiffuse(tiltDeg, sun.dhi, sun.dni, sun.dniExtra, sun.zenithDeg, cosAoi, relativeAirmass(sun.zenithDeg))
      : model === 'haydavies'
        ? hayDaviesSkyDiffuse(tiltDeg, sun.dhi, sun.dni, sun.dniExtra, sun.zenithDeg, cosAoi)
        : isotropicSkyDiffuse(tiltDeg, sun.dhi);
  const beam = beamOnPlane(sun.dni, cosAoi);
  const ground = groundDiffuse(tiltDeg, sun.ghi, albedo);
  const skyDiffuse = Math.max(0, sky.total - sky.circumsolar);
  return { total: beam + sky.circumsolar + skyDiffuse + ground, beam, circumsolar: sky.circumsolar, skyDiffuse, ground, cosAoi };
}

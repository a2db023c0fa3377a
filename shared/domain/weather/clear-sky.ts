/**
 * Clear-sky irradiance: what a cloudless sky delivers for a given sun angle, site altitude and turbidity.
 * Every function answers exactly 0 when the sun is at or below the horizon.
 */
import { apparentZeniths, solarPosition } from './solar-position';
import { DEG } from '../angles';

/** Total solar irradiance at 1 AU, W/m2 (ASTM E-490, 2000; pvlib's default). */
export const SOLAR_CONSTANT_WM2 = 1366.1;

/** A mid-latitude, rural, climatological Linke turbidity (Ineichen & Perez 2002 use 2-7; 3 is typical of Europe). */
export const DEFAULT_LINKE_TURBIDITY = 3;

/** Day of the year in UTC, 1 on 1 January. */
export function dayOfYear(at: Date): number {
  return Math.floor((at.getTime() - Date.UTC(at.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
}

/**
 * Extraterrestrial normal irradiance on a day of the year, W/m2: the solar constant times the
 * eccentricity correction (Rb/R)^2 of Spencer (1971), eq. 2.
 */
export function extraterrestrialIrradiance(day: number, solarConstant = SOLAR_CONSTANT_WM2): number {
  const g = (2 * Math.PI * (day - 1)) / 365;
  const e0 = 1.00011 + 0.034221 * Math.cos(g) + 0.00128 * Math.sin(g) + 0.000719 * Math.cos(2 * g) + 0.000077 * Math.sin(2 * g);
  return solarConstant * e0;
}

/** Haurwitz (1945) clear-sky GHI, W/m2: 1098 cos z exp(-0.057 / cos z), as given by Reno, Hansen & Stein (2012). */
export function haurwitzGhi(apparentZenithDeg: number): number {
  const cosZ = Math.cos(apparentZenithDeg * DEG);
  if (!(cosZ > 0)) return 0;
  return 1098 * cosZ * Math.exp(-0.057 / cosZ);
}

/** Relative optical air mass at an apparent zenith angle (Kasten & Young 1989); Infinity below the horizon. */
export function relativeAirmass(apparentZenithDeg: number): number {
  if (apparentZenithDeg > 90) return Infinity;
  return 1 / (Math.cos(apparentZenithDeg * DEG) + 0.50572 * (96.07995 - apparentZenithDeg) ** -1.6364);
}

/** Standard-atmosphere pressure at an altitude, Pa (the inverse used by pvlib's alt2pres, after the ICAO atmosphere). */
export function pressureAtAltitudePa(altitudeM: number): number {
  return 100 * ((44331.514 - altitudeM) / 11880.516) ** (1 / 0.1902632);
}

export interface ClearSkyIrradiance {
  /** Global horizontal, W/m2. */
  ghi: number;
  /** Direct normal, W/m2. */
  dni: number;
  /** Diffuse horizontal, W/m2. */
  dhi: number;
}

export interface IneichenOptions {
  /** Linke turbidity at air mass 2. @default DEFAULT_LINKE_TURBIDITY */
  linkeTurbidity?: number;
  /** Site altitude above sea level, metres. @default 0 */
  altitudeM?: number;
  /** Extraterrestrial normal irradiance, W/m2. @default the solar constant at mean distance */
  dniExtra?: number;
  /** Pressure-corrected air mass; by default Kasten & Young's relative air mass times p(altitude)/101325. */
  airmassAbsolute?: number;
}

const NO_SUN: ClearSkyIrradiance = { ghi: 0, dni: 0, dhi: 0 };

/**
 * Ineichen & Perez (2002) clear-sky model: the altitude-dependent coefficients cg1, cg2, fh1, fh2 and the
 * paper's empirical cap on the beam component, in the form pvlib implements (without the optional Perez
 * enhancement factor).
 */
export function ineichenPerez(apparentZenithDeg: number, options: IneichenOptions = {}): ClearSkyIrradiance {
  const cosZ = Math.cos(apparentZenithDeg * DEG);
  if (!(cosZ > 0) || apparentZenithDeg >= 90) return NO_SUN;
  const tl = options.linkeTurbidity ?? DEFAULT_LINKE_TURBIDITY;
  const altitude = options.altitudeM ?? 0;
  const dniExtra = options.dniExtra ?? SOLAR_CONSTANT_WM2;
  const airmass = options.airmassAbsolute ?? relativeAirmass(apparentZenithDeg) * (pressureAtAltitudePa(altitude) / 101_325);

  const fh1 = Math.exp(-altitude / 8000);
  const fh2 = Math.exp(-altitude / 1250);
  const cg1 = 5.09e-5 * altitude + 0.868;
  const cg2 = 3.92e-5 * altitude + 0.0387;
  const ghi = cg1 * dniExtra * cosZ * Math.max(Math.exp(-cg2 * airmass * (fh1 + fh2 * (tl - 1))), 0);
  const b = 0.664 + 0.163 / fh1;
  const beam = dniExtra * Math.max(b * Math.exp(-0.09 * airmass * (tl - 1)), 0);
  const beamCap = ghi * Math.min(Math.max((1 - (0.1 - 0.2 * Math.exp(-tl)) / (0.1 + 0.882 / fh1)) / cosZ, 0), 1e20);
  const dni = Math.min(beam, beamCap);
  return { ghi, dni, dhi: ghi - dni * cosZ };
}

export interface ClearSkySite {
  latitude: number;
  longitude: number;
  /** metres above sea level. @default 0 */
  elevationM?: number;
  /** @default DEFAULT_LINKE_TURBIDITY */
  linkeTurbidity?: number;
}

/** Ineichen-Perez clear-sky GHI at an instant, W/m2, with the day's extraterrestrial irradiance. */
export function clearSkyGhiAt(at: Date, site: ClearSkySite): number {
  const sun = solarPosition(at, site.latitude, site.longitude, site.elevationM ?? 0);
  return ineichenPerez(sun.zenithDeg, { linkeTurbidity: site.linkeTurbidity, altitudeM: site.elevationM ?? 0, dniExtra: extraterrestrialIrradiance(dayOfYear(at)) }).ghi;
}

/** Sub-samples per interval for interval means: the midpoints of equal parts (midpoint rule). */
const INTERVAL_SAMPLES = 4;

/**
 * Mean clear-sky GHI over the interval that ends at `end` and lasts `stepMinutes`, W/m2: the convention of
 * hourly irradiance from Open-Meteo and the offline model (an hour's value is the mean of the hour before it).
 */
export function meanClearSkyGhi(end: Date, stepMinutes: number, site: ClearSkySite): number {
  return meanClearSky(end, stepMinutes, site).ghi;
}

/** Mean Ineichen-Perez GHI, DNI and DHI over the interval that ends at `end` and lasts `stepMinutes`, W/m2 (as meanClearSkyGhi). */
export function meanClearSky(end: Date, stepMinutes: number, site: ClearSkySite): ClearSkyIrradiance {
  const stepMs = stepMinutes * 60_000;
  const instants = Array.from({ length: INTERVAL_SAMPLES }, (_, i) => new Date(end.getTime() - stepMs + ((i + 0.5) * stepMs) / INTERVAL_SAMPLES));
  const dniExtra = extraterrestrialIrradiance(dayOfYear(instants[0]));
  const options = { linkeTurbidity: site.linkeTurbidity, altitudeM: site.elevationM ?? 0, dniExtra };
  const zeniths = stepMinutes <= 60 ? apparentZeniths(instants, site.latitude, site.longitude, site.elevationM ?? 0) : instants.map((at) => solarPosition(at, site.latitude, site.longitude, site.elevationM ?? 0).zenithDeg);
  const sum = { ghi: 0, dni: 0, dhi: 0 };
  for (const z of zeniths) {
    const sky = ineichenPerez(z, options);
    sum.ghi += sky.ghi;
    sum.dni += sky.dni;
    sum.dhi += sky.dhi;
  }
  return { ghi: sum.ghi / INTERVAL_SAMPLES, dni: sum.dni / INTERVAL_SAMPLES, dhi: sum.dhi / INTERVAL_SAMPLES };
}

/**
 * Where the sun is, seen from a PV site, over many steps: the step's middle instant, the sun's apparent zenith
 * and azimuth, and the angle at which its beam meets a tilted plane.
 *
 * Speed. astronomy-engine's full ephemeris (`solarPosition` in weather/solar-position.ts) costs tens of
 * microseconds an instant: a year of 15-minute steps would take over a second before any irradiance is
 * modelled. The sun's geocentric apparent right ascension and declination move slowly and smoothly (under 1.1
 * and 0.4 degrees a day), so they are taken from the same ephemeris once per UTC day and interpolated linearly
 * (the curvature over a day leaves under 0.001 degree); the hour angle (Greenwich apparent sidereal time
 * advancing at its constant rate), the local horizon transform and the parallax are computed per step. The
 * test holds it within 0.002 degrees of `solarPosition`.
 */
import { Body, EquatorFromVector, GeoVector, MakeTime, Refraction, RotateVector, Rotation_EQJ_EQD, SiderealTime } from 'astronomy-engine';
import { DAY_MS } from '../time';
import { DEG } from '../angles';

/** Earth's rotation relative to the equinox: sidereal degrees per solar day (Aoki et al. 1982; IERS). */
const SIDEREAL_DEG_PER_DAY = 360.98564736629;

/** The sun's position at each of many instants. */
export interface SunPath {
  /** Apparent zenith angle, degrees (with standard atmospheric refraction). */
  zenithDeg: Float64Array;
  /** Geometric (true) zenith angle, degrees, without refraction: Erbs and the clearness index want this one. */
  trueZenithDeg: Float64Array;
  /** Azimuth, degrees clockwise from true north. */
  azimuthDeg: Float64Array;
}

/** The instant in the middle of each step, epoch ms: interval means are best matched by the sun there. */
export function stepMiddles(starts: ArrayLike<number>, stepMinutes: number): Float64Array {
  const half = (stepMinutes * 60_000) / 2;
  return Float64Array.from(starts, (t) => t + half);
}

/** Geocentric apparent right ascension (hours), declination (degrees), distance (AU) and sidereal time (hours). */
interface EphemerisNode {
  raHours: number;
  decDeg: number;
  distanceAu: number;
  gastHours: number;
}

function ephemerisNode(tMs: number): EphemerisNode {
  const time = MakeTime(new Date(tMs));
  // Equator of date, with light-time and aberration: the apparent place solarPosition uses, seen from the
  // Earth's centre (the observer's parallax turns with the Earth, so it is applied per step instead).
  const sun = EquatorFromVector(RotateVector(Rotation_EQJ_EQD(time), GeoVector(Body.Sun, time, true)));
  return { raHours: sun.ra, decDeg: sun.dec, distanceAu: sun.dist, gastHours: SiderealTime(time) };
}

/** The sun's equatorial horizontal parallax at 1 AU, degrees (8.794 arcseconds; IAU 1976). */
const PARALLAX_1AU_DEG = 8.794 / 3600;

/**
 * Sun position at each instant (epoch ms, UTC) for an observer; the instants need not be sorted nor evenly spaced.
 * Apparent zenith uses astronomy-engine's 'normal' refraction (Saemundsson 1986 form), as `solarPosition` does.
 */
export function sunPath(instants: ArrayLike<number>, latitude: number, longitude: number): SunPath {
  const n = instants.length;
  const path: SunPath = { zenithDeg: new Float64Array(n), trueZenithDeg: new Float64Array(n), azimuthDeg: new Float64Array(n) };
  if (n === 0) return path;
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < n; i++) {
    first = Math.min(first, instants[i]);
    last = Math.max(last, instants[i]);
  }
  const day0 = Math.floor(first / DAY_MS);
  const nodes: EphemerisNode[] = [];
  for (let d = day0; d <= Math.floor(last / DAY_MS) + 1; d++) nodes.push(ephemerisNode(d * DAY_MS));
  const [sinPhi, cosPhi] = [Math.sin(latitude * DEG), Math.cos(latitude * DEG)];
  for (let i = 0; i < n; i++) {
    const days = instants[i] / DAY_MS - day0;
    const k = Math.min(nodes.length - 2, Math.max(0, Math.floor(days)));
    const w = days - k;
    const [a, b] = [nodes[k], nodes[k + 1]];
    // Right ascension wraps at 24 h once a year (the March equinox): unwrap before interpolating.
    let raStep = b.raHours - a.raHours;
    if (raStep < -12) raStep += 24;
    const raDeg = (a.raHours + w * raStep) * 15;
    const dec = (a.decDeg + w * (b.decDeg - a.decDeg)) * DEG;
    const gastDeg = a.gastHours * 15 + SIDEREAL_DEG_PER_DAY * w;
    const hourAngle = (gastDeg + longitude - raDeg) * DEG;
    const [sinDec, cosDec, cosH] = [Math.sin(dec), Math.cos(dec), Math.cos(hourAngle)];
    const up = sinPhi * sinDec + cosPhi * cosDec * cosH;
    const east = -cosDec * Math.sin(hourAngle);
    const north = cosPhi * sinDec - sinPhi * cosDec * cosH;
    const geocentric = Math.asin(Math.max(-1, Math.min(1, up))) / DEG;
    // Topocentric: parallax lowers the sun by p cos(altitude) (a spherical Earth; the site's height adds nothing visible).
    const altitude = geocentric - (PARALLAX_1AU_DEG / a.distanceAu) * Math.cos(geocentric * DEG);
    const azimuth = Math.atan2(east, north) / DEG;
    path.trueZenithDeg[i] = 90 - altitude;
    path.zenithDeg[i] = 90 - altitude - Refraction('normal', altitude);
    path.azimuthDeg[i] = azimuth < 0 ? azimuth + 360 : azimuth;
  }
  return path;
}

/**
 * Cosine of the angle of incidence of the beam on a plane of tilt beta and azimuth gamma (degrees, azimuths
 * clockwise from north): cos z cos beta + sin z sin beta cos(gamma_s - gamma) (Duffie & Beckman 2013, eq. 1.6.3).
 * Negative when the sun is behind the plane; clamped to [-1, 1] against rounding.
 */
export function cosAngleOfIncidence(tiltDeg: number, surfaceAzimuthDeg: number, zenithDeg: number, solarAzimuthDeg: number): number {
  const z = zenithDeg * DEG;
  const beta = tiltDeg * DEG;
  const c = Math.cos(z) * Math.cos(beta) + Math.sin(z) * Math.sin(beta) * Math.cos((solarAzimuthDeg - surfaceAzimuthDeg) * DEG);
  return Math.max(-1, Math.min(1, c));
}

/** Angle of incidence of the beam on a tilted plane, degrees, 0-180 (Duffie & Beckman 2013, eq. 1.6.3). */
export function angleOfIncidenceDeg(tiltDeg: number, surfaceAzimuthDeg: number, zenithDeg: number, solarAzimuthDeg: number): number {
  return Math.acos(cosAngleOfIncidence(tiltDeg, surfaceAzimuthDeg, zenithDeg, solarAzimuthDeg)) / DEG;
}

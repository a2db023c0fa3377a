/**
 * Topocentric position of the Sun from astronomy-engine (VSOP87 Earth, IAU 2000B nutation, aberration;
 * Cross 2019). Agrees with NREL's SPA (Reda & Andreas 2004) to about 0.001 degrees today; see the tests.
 */
import { Body, Equator, Horizon, MakeTime, Observer } from 'astronomy-engine';

export interface SolarPosition {
  /** Apparent zenith angle, degrees: 90 - elevationDeg. */
  zenithDeg: number;
  /** Apparent elevation above the horizon, degrees, with standard atmospheric refraction. */
  elevationDeg: number;
  /** Geometric (true) topocentric elevation, degrees, without refraction. */
  trueElevationDeg: number;
  /** Azimuth, degrees clockwise from true north (90 = east). */
  azimuthDeg: number;
}

/**
 * Where the Sun is seen from a place at an instant.
 * @param elevationM observer height above sea level, metres (topocentric parallax)
 */
export function solarPosition(at: Date, latitude: number, longitude: number, elevationM = 0): SolarPosition {
  const time = MakeTime(at);
  const observer = new Observer(latitude, longitude, elevationM);
  // Apparent place: equator of date, corrected for light-time and aberration, seen from the observer.
  const sun = Equator(Body.Sun, time, observer, true, true);
  const geometric = Horizon(time, observer, sun.ra, sun.dec);
  // 'normal': astronomy-engine's refraction at standard pressure and temperature (Saemundsson 1986 form).
  const apparent = Horizon(time, observer, sun.ra, sun.dec, 'normal');
  return {
    zenithDeg: 90 - apparent.altitude,
    elevationDeg: apparent.altitude,
    trueElevationDeg: geometric.altitude,
    azimuthDeg: apparent.azimuth,
  };
}

/**
 * Apparent zenith angles at several instants close together (within an hour), for interval means: the
 * Sun's equatorial place is computed once at their middle, since it moves under 0.05 degrees an hour
 * (right ascension about 1 degree a day), and only the local horizon transform is repeated.
 */
export function apparentZeniths(instants: Date[], latitude: number, longitude: number, elevationM = 0): number[] {
  const observer = new Observer(latitude, longitude, elevationM);
  const middle = MakeTime(new Date((instants[0].getTime() + instants[instants.length - 1].getTime()) / 2));
  const sun = Equator(Body.Sun, middle, observer, true, true);
  return instants.map((at) => 90 - Horizon(MakeTime(at), observer, sun.ra, sun.dec, 'normal').altitude);
}

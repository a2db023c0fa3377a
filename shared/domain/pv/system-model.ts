/**
 * The PV model chain (issue 19): from a system's specs and the weather of each step to its AC output.
 *
 *   sun at the step's middle (solar-geometry) -> DNI and DHI where only GHI is known (Erbs 1982, decomposition)
 *   -> plane of array: beam, sky diffuse (Perez 1990 or Hay-Davies 1980) and ground (transposition)
 *   -> far-horizon shading (horizon-shading) -> incidence-angle losses (incidence-angle)
 *   -> cell temperature (Faiman 2008) -> DC (PVWatts, Dobos 2014) less system losses -> inverter, clipped at its
 *   AC rating (dc-ac).
 *
 * Every output is exactly 0 while the sun is at or below the horizon at the step's middle. A daylight step whose
 * GHI is missing (not finite) gives NaN irradiance and power, so that a gap is not read as darkness.
 */
import { DAY_MS } from '../time';
import { dayOfYear, DEFAULT_LINKE_TURBIDITY, extraterrestrialIrradiance, ineichenPerez } from '../weather/clear-sky';
import { afterSystemLosses, DEFAULT_GAMMA_PDC, inverterAcKw, pvwattsDc } from './dc-ac';
import { closeComponents, erbs } from './decomposition';
import { faimanCellTemperature, FAIMAN_U0, FAIMAN_U1 } from './cell-temperature';
import { isSunBehindHorizon, prepareHorizon } from './horizon-shading';
import { diffuseIam, iamFunction, type IamModel } from './incidence-angle';
import { stepMiddles, sunPath, type SunPath } from './solar-geometry';
import { DEFAULT_ALBEDO, planeOfArray, type TranspositionModel } from './transposition';
import type { PvStepResult, PvSystem, PvWeatherStep } from './types';
import { DEG } from '../angles';

/** Air temperature and wind assumed where a step carries none (types.ts: PvWeatherStep). */
export const DEFAULT_TEMP_AIR_C = 20;
export const DEFAULT_WIND_SPEED_MS = 1;
/** Clear-sky interval means use one sample per this many minutes of the step (midpoint rule). */
const CLEAR_SKY_SAMPLE_MINUTES = 15;

/** Choices of the model chain beyond the system's specs; every one has a default. */
export interface PvModelOptions {
  /** Sky-diffuse transposition. @default 'perez' */
  transposition?: TranspositionModel;
  /** Incidence-angle modifier. @default 'physical' */
  iam?: IamModel;
  /** Ground reflectance. @default DEFAULT_ALBEDO (0.2) */
  albedo?: number;
  /** Temperature coefficient of DC power, 1/degree C. @default DEFAULT_GAMMA_PDC (-0.0037) */
  gammaPdc?: number;
  /** Linke turbidity of the clear-sky reference. @default DEFAULT_LINKE_TURBIDITY (3) */
  linkeTurbidity?: number;
  /** Faiman heat-loss factors. @default FAIMAN_U0, FAIMAN_U1 (25, 6.84) */
  faimanU0?: number;
  faimanU1?: number;
}

/** Extraterrestrial normal irradiance (Spencer 1971) by instant, computed once per UTC day: the day of the year is. */
function dniExtraByDay(): (tMs: number) => number {
  let day = NaN;
  let value = 0;
  return (tMs) => {
    const d = Math.floor(tMs / DAY_MS);
    if (d !== day) [day, value] = [d, extraterrestrialIrradiance(dayOfYear(new Date(tMs)))];
    return value;
  };
}

/**
 * Ineichen-Perez clear-sky GHI, DNI and DHI over each step (W/m2): the mean of one sample per
 * CLEAR_SKY_SAMPLE_MINUTES, at the middles of equal parts of the step (one sample, the middle, for 15 minutes).
 * `middlePath`, the sun at the steps' middles, is reused when one sample suffices.
 */
function clearSkyMeans(system: PvSystem, starts: ArrayLike<number>, stepMinutes: number, linkeTurbidity: number, middlePath?: SunPath) {
  const n = starts.length;
  const samples = Math.max(1, Math.round(stepMinutes / CLEAR_SKY_SAMPLE_MINUTES));
  const stepMs = stepMinutes * 60_000;
  const instants = new Float64Array(n * samples);
  for (let i = 0; i < n; i++) for (let s = 0; s < samples; s++) instants[i * samples + s] = starts[i] + ((s + 0.5) * stepMs) / samples;
  const path = samples === 1 && middlePath ? middlePath : sunPath(instants, system.latitude, system.longitude);
  const out = { ghi: new Float64Array(n), dni: new Float64Array(n), dhi: new Float64Array(n) };
  const dniExtraAt = dniExtraByDay();
  const options = { linkeTurbidity, altitudeM: system.elevationM, dniExtra: 0 };
  for (let i = 0; i < n; i++) {
    options.dniExtra = dniExtraAt(instants[i * samples]);
    for (let s = 0; s < samples; s++) {
      const zenith = path.zenithDeg[i * samples + s];
      if (zenith >= 90) continue;
      const sky = ineichenPerez(zenith, options);
      out.ghi[i] += sky.ghi / samples;
      out.dni[i] += sky.dni / samples;
      out.dhi[i] += sky.dhi / samples;
    }
  }
  return out;
}

/**
 * Clear-sky weather for a system: Ineichen-Perez GHI, DNI and DHI (Linke turbidity 3 unless given) averaged over
 * each step starting at `starts[i]`, with no temperature or wind (the chain's defaults apply). For clear-sky
 * simulations, spec inference and expected output.
 */
export function clearSkyWeather(system: PvSystem, starts: readonly number[], stepMinutes: number, options: Pick<PvModelOptions, 'linkeTurbidity'> = {}): PvWeatherStep[] {
  const sky = clearSkyMeans(system, starts, stepMinutes, options.linkeTurbidity ?? DEFAULT_LINKE_TURBIDITY);
  return starts.map((t, i) => ({ t, ghiWm2: sky.ghi[i], dniWm2: sky.dni[i], dhiWm2: sky.dhi[i] }));
}

/** The sun and clear sky of a weather array, kept while the array lives: orientation fits run the chain on one array many times. */
const geometryOf = new WeakMap<readonly PvWeatherStep[], { key: string; path: SunPath; clear: ReturnType<typeof clearSkyMeans> }>();

function sunAndClearSky(system: PvSystem, weather: readonly PvWeatherStep[], stepMinutes: number, linkeTurbidity: number) {
  const key = `${system.latitude},${system.longitude},${system.elevationM},${stepMinutes},${linkeTurbidity},${weather.length},${weather[0]?.t},${weather[weather.length - 1]?.t}`;
  const kept = geometryOf.get(weather);
  if (kept && kept.key === key) return kept;
  const starts = weather.map((w) => w.t);
  const path = sunPath(stepMiddles(starts, stepMinutes), system.latitude, system.longitude);
  const computed = { key, path, clear: clearSkyMeans(system, starts, stepMinutes, linkeTurbidity, path) };
  geometryOf.set(weather, computed);
  return computed;
}

/**
 * Runs the model chain over weather steps of `stepMinutes` each (irradiance the mean over the step that starts
 * at `t`). `dcKw` is the DC power at the inverter's input (after system losses), `acKw` its output.
 */
export function simulatePv(system: PvSystem, weather: readonly PvWeatherStep[], stepMinutes: number, options: PvModelOptions = {}): PvStepResult[] {
  const n = weather.length;
  const { path, clear } = sunAndClearSky(system, weather, stepMinutes, options.linkeTurbidity ?? DEFAULT_LINKE_TURBIDITY);
  const { tiltDeg: tilt, azimuthDeg: surfaceAzimuth } = system;
  const albedo = options.albedo ?? DEFAULT_ALBEDO;
  const gamma = options.gammaPdc ?? DEFAULT_GAMMA_PDC;
  const [u0, u1] = [options.faimanU0 ?? FAIMAN_U0, options.faimanU1 ?? FAIMAN_U1];
  const iamModel = options.iam ?? 'physical';
  const iam = iamFunction(iamModel);
  const diffuse = diffuseIam(iamModel, tilt);
  const horizon = prepareHorizon(system.horizon);
  const visibleSky = horizon?.visibleSkyShare ?? 1;
  const transposition = options.transposition ?? 'perez';

  const dniExtraAt = dniExtraByDay();
  const halfStepMs = (stepMinutes * 60_000) / 2;
  const results: PvStepResult[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const w = weather[i];
    const zenith = path.zenithDeg[i];
    const solarAzimuth = path.azimuthDeg[i];
    const tempAir = Number.isFinite(w.tempAirC) ? (w.tempAirC as number) : DEFAULT_TEMP_AIR_C;
    if (zenith >= 90 || !Number.isFinite(w.ghiWm2)) {
      // Night is exactly 0; a daylight step without GHI is unknown, not dark.
      const v = zenith >= 90 ? 0 : NaN;
      const cellTempC = zenith >= 90 ? tempAir : NaN;
      results[i] = { t: w.t, zenithDeg: zenith, solarAzimuthDeg: solarAzimuth, clearSkyGhiWm2: clear.ghi[i], ghiWm2: zenith >= 90 ? 0 : w.ghiWm2, poaWm2: v, effectiveIrradianceWm2: v, cellTempC, dcKw: v, acKw: v };
      continue;
    }
    const ghi = Math.max(0, w.ghiWm2);
    const dniExtra = dniExtraAt(w.t + halfStepMs);
    const hasDni = w.dniWm2 !== undefined && Number.isFinite(w.dniWm2);
    const hasDhi = w.dhiWm2 !== undefined && Number.isFinite(w.dhiWm2);
    const { dni, dhi } =
      hasDni && hasDhi
        ? { dni: Math.max(0, w.dniWm2 as number), dhi: Math.max(0, w.dhiWm2 as number) }
        : hasDni || hasDhi
          ? closeComponents(ghi, zenith, dniExtra, { dni: hasDni ? w.dniWm2 : undefined, dhi: hasDhi ? w.dhiWm2 : undefined })
          : erbs(ghi, path.trueZenithDeg[i], dniExtra);

    const plane = planeOfArray(tilt, surfaceAzimuth, { ghi, dni, dhi, zenithDeg: zenith, solarAzimuthDeg: solarAzimuth, dniExtra }, transposition, albedo);
    const shaded = isSunBehindHorizon(horizon, 90 - zenith, solarAzimuth);
    // The circumsolar disc arrives along the beam: it is shaded with it and meets the glass at its angle.
    const direct = shaded ? 0 : plane.beam + plane.circumsolar;
    const skyDiffuse = plane.skyDiffuse * visibleSky;
    const poa = direct + skyDiffuse + plane.ground;
    const effective = direct * (direct > 0 ? iam(Math.acos(plane.cosAoi) / DEG) : 0) + skyDiffuse * diffuse.sky + plane.ground * diffuse.ground;
    const wind = Number.isFinite(w.windSpeedMs) ? (w.windSpeedMs as number) : DEFAULT_WIND_SPEED_MS;
    const cellTemp = faimanCellTemperature(poa, tempAir, wind, u0, u1);
    const dc = Math.max(0, afterSystemLosses(pvwattsDc(effective, cellTemp, system.capacityKwp, gamma), system.lossesPct));
    const acKw = inverterAcKw(dc, system.inverterAcKw);
    results[i] = {
      t: w.t,
      zenithDeg: zenith,
      solarAzimuthDeg: solarAzimuth,
      clearSkyGhiWm2: clear.ghi[i],
      ghiWm2: ghi,
      poaWm2: poa,
      effectiveIrradianceWm2: effective,
      cellTempC: cellTemp,
      dcKw: dc,
      acKw,
    };
  }
  return results;
}

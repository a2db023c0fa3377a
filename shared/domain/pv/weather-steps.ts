/**
 * Weather on the forecast's grid. Weather arrives as rows labelled at the end of their interval (Open-Meteo's
 * and our weather API's convention: an hour's irradiance is the mean of the hour before it), hourly or finer;
 * forecasts are on 15- or 60-minute steps labelled by their start. Irradiance is moved between grids through
 * the clear-sky index (GHI over clear-sky GHI): each target step gets the overlap-weighted index of the rows it
 * covers times its own clear-sky mean, which keeps hourly energy when an hour is split into quarters and puts
 * the shape of the sun, not a straight line, inside the hour. The diffuse fraction is carried the same way;
 * temperature and wind are instantaneous values, interpolated linearly in time.
 */
import { meanClearSkyGhi, type ClearSkySite } from '../weather/clear-sky';
import { simulatePv } from './system-model';
import type { PvStepResult, PvSystem, PvWeatherStep } from './types';

/** One weather row: values over the interval of `stepMinutes` that ends at `end` (epoch ms). */
export interface WeatherRowAt {
  end: number;
  ghiWm2: number;
  dniWm2?: number;
  dhiWm2?: number;
  tempAirC?: number;
  windSpeedMs?: number;
}

/** Below this clear-sky mean (W/m2) an interval is night or dawn: its index is not defined. */
const MIN_CLEAR_SKY_WM2 = 5;
/** Clear-sky indices above this are sensor or labelling noise (cloud enhancement rarely passes 1.3 for a step mean). */
const MAX_CLEAR_SKY_INDEX = 1.5;

/** The rows' step, minutes: the most common spacing. */
export function rowStepMinutes(rows: readonly WeatherRowAt[]): number {
  const counts = new Map<number, number>();
  for (let i = 1; i < rows.length; i++) {
    const d = Math.round((rows[i].end - rows[i - 1].end) / 60_000);
    if (d > 0) counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  let best = 60;
  let most = 0;
  for (const [d, n] of counts) if (n > most || (n === most && d < best)) [best, most] = [d, n];
  return best;
}

/** Where the rows fail to cover [start, end): the first uncovered instant, or undefined when covered. */
export function firstUncovered(rows: readonly WeatherRowAt[], start: number, end: number): number | undefined {
  const step = rowStepMinutes(rows) * 60_000;
  let covered = start;
  for (const r of rows) {
    if (r.end - step > covered) break;
    covered = Math.max(covered, r.end);
    if (covered >= end) return undefined;
  }
  return covered < end ? covered : undefined;
}

function interpolate(rows: readonly WeatherRowAt[], at: number, field: 'tempAirC' | 'windSpeedMs'): number | undefined {
  let before: WeatherRowAt | undefined;
  let after: WeatherRowAt | undefined;
  for (const r of rows) {
    if (r[field] === undefined) continue;
    if (r.end <= at) before = r;
    else {
      after = r;
      break;
    }
  }
  if (before && after) return before[field]! + ((after[field]! - before[field]!) * (at - before.end)) / (after.end - before.end);
  return (before ?? after)?.[field];
}

/**
 * Weather for steps of `stepMinutes` starting at each of `starts`, from rows (sorted by `end`) that cover them.
 * Steps no row overlaps get GHI 0 only when the sun is down; callers check coverage first (`firstUncovered`).
 */
export function weatherOnSteps(rows: readonly WeatherRowAt[], starts: readonly number[], stepMinutes: number, site: ClearSkySite): PvWeatherStep[] {
  const rowMs = rowStepMinutes(rows) * 60_000;
  const stepMs = stepMinutes * 60_000;
  const rowClear = rows.map((r) => meanClearSkyGhi(new Date(r.end), rowMs / 60_000, site));
  let first = 0;
  return starts.map((start) => {
    const end = start + stepMs;
    const clear = meanClearSkyGhi(new Date(end), stepMinutes, site);
    while (first < rows.length && rows[first].end <= start) first++;
    let weight = 0;
    let index = 0;
    let diffuse = 0;
    let diffuseWeight = 0;
    let fallbackGhi = 0;
    for (let i = first; i < rows.length && rows[i].end - rowMs < end; i++) {
      const r = rows[i];
      const overlap = Math.min(end, r.end) - Math.max(start, r.end - rowMs);
      if (overlap <= 0) continue;
      const w = overlap / stepMs;
      fallbackGhi += w * r.ghiWm2;
      if (rowClear[i] >= MIN_CLEAR_SKY_WM2) {
        weight += w;
        index += w * Math.min(MAX_CLEAR_SKY_INDEX, r.ghiWm2 / rowClear[i]);
      }
      if (r.dhiWm2 !== undefined && r.ghiWm2 > 0) {
        diffuseWeight += w;
        diffuse += w * Math.min(1, r.dhiWm2 / r.ghiWm2);
      }
    }
    const ghi = clear < MIN_CLEAR_SKY_WM2 ? Math.min(clear, fallbackGhi) : weight > 0 ? (index / weight) * clear : fallbackGhi;
    const middle = start + stepMs / 2;
    const step: PvWeatherStep = { t: start, ghiWm2: Math.max(0, ghi) };
    if (diffuseWeight > 0) step.dhiWm2 = step.ghiWm2 * (diffuse / diffuseWeight);
    const temp = interpolate(rows, middle, 'tempAirC');
    const wind = interpolate(rows, middle, 'windSpeedMs');
    if (temp !== undefined) step.tempAirC = temp;
    if (wind !== undefined) step.windSpeedMs = wind;
    return step;
  });
}

/** The model chain over forecast steps from weather rows. */
export function modelOnSteps(system: PvSystem, rows: readonly WeatherRowAt[], starts: readonly number[], stepMinutes: number): PvStepResult[] {
  return simulatePv(system, weatherOnSteps(rows, starts, stepMinutes, { latitude: system.latitude, longitude: system.longitude, elevationM: system.elevationM }), stepMinutes);
}

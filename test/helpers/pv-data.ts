/**
 * The two PV data sets with known specs in ../shared/data/solar, as the PV model's inputs: every `t` is the start
 * of the interval its value stands for (the convention of PvWeatherStep).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { PvWeatherStep } from '../../shared/domain/pv/types';

const SOLAR_DIR = path.resolve(process.env.SHARED_DATA ?? path.resolve(__dirname, '../../../shared/data'), 'solar');
const STEP_MS = 15 * 60_000;

/** PVOD station 01 (Yao et al. 2021): Hebei, 33 degrees south-facing, 74,000 x 270 Wp, inverters 40 x 500 kW. */
export const PVOD_STATION01 = {
  place: { latitude: 38.18306, longitude: 117.45722, elevationM: 0 },
  tiltDeg: 33,
  azimuthDeg: 180,
  capacityKwp: 19_980,
  inverterAcKw: 20_000,
};

/** NREL SERF East, Golden CO (PVDAQ system 50), orientation as pvanalytics' orientation example gives it. */
export const SERF_EAST = {
  place: { latitude: 39.742, longitude: -105.1727, elevationM: 1800 },
  tiltDeg: 45,
  azimuthDeg: 158,
};

export interface PvodRow {
  t: number;
  powerKw: number;
  ghiNwp: number;
  ghiMeasured: number;
  dhiMeasured: number;
  tempAirNwp: number;
  tempAirMeasured: number;
  windNwp: number;
  windMeasured: number;
}

const rowsOf = (file: string) => parse(readFileSync(path.join(SOLAR_DIR, file), 'utf8'), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
const num = (s: string | undefined) => (s === undefined || s === '' ? NaN : Number(s));

let pvodCache: PvodRow[] | undefined;

/**
 * PVOD station 01, every 15 minutes in UTC. The stamps are read as the middles of their intervals (so each interval
 * starts 7.5 minutes earlier): on clear days the production-weighted centroid of the stamps sits within a few
 * minutes of solar noon, where interval starts would put it 7.5 minutes before.
 */
export function pvodStation01(): PvodRow[] {
  pvodCache ??= rowsOf('pvod_station01_15min.csv').map((r) => ({
    t: Date.parse(r.timestamp) - STEP_MS / 2,
    powerKw: num(r.power_kw),
    ghiNwp: num(r.ghi_nwp_wm2),
    ghiMeasured: num(r.ghi_measured_wm2),
    dhiMeasured: num(r.dhi_measured_wm2),
    tempAirNwp: num(r.temp_air_nwp_c),
    tempAirMeasured: num(r.temp_air_measured_c),
    windNwp: num(r.wind_speed_nwp_ms),
    windMeasured: num(r.wind_speed_measured_ms),
  }));
  return pvodCache;
}

/**
 * SERF East AC power in kW. The file holds 15-minute right-aligned means in W (pvanalytics' data notes), so each
 * stamp is moved back one step to the interval's start.
 */
export function serfEast(): { t: number; powerKw: number }[] {
  return rowsOf('serf_east_15min_ac_power.csv')
    .map((r) => ({ t: Date.parse(r.measured_on.replace(' ', 'T')) - STEP_MS, powerKw: num(r.ac_power) / 1000 }))
    .sort((a, b) => a.t - b.t);
}

/** The rows from `startIso` (UTC) for `days` days. */
export function window<T extends { t: number }>(rows: readonly T[], startIso: string, days: number): T[] {
  const start = Date.parse(startIso);
  const end = start + days * 86_400_000;
  return rows.filter((r) => r.t >= start && r.t < end);
}

/** PVOD's weather as the model's steps: its own measured irradiance (GHI and DHI) or its NWP feed (GHI only, so Erbs splits it). */
export function pvodWeather(rows: readonly PvodRow[], feed: 'measured' | 'nwp'): PvWeatherStep[] {
  return rows.map((r) =>
    feed === 'measured'
      ? { t: r.t, ghiWm2: r.ghiMeasured, dhiWm2: r.dhiMeasured, tempAirC: r.tempAirMeasured, windSpeedMs: r.windMeasured }
      : { t: r.t, ghiWm2: r.ghiNwp, tempAirC: r.tempAirNwp, windSpeedMs: r.windNwp },
  );
}

/**
 * Hourly means of 15-minute rows: four consecutive rows make an hour, labelled by the first one's start (PVOD's hours
 * start 7.5 minutes past, as its intervals do). Hours missing a quarter are dropped.
 */
export function hourlyMeans(rows: readonly { t: number; powerKw: number }[]): { t: number; powerKw: number }[] {
  if (rows.length === 0) return [];
  const hour = 4 * STEP_MS;
  const offset = ((rows[0].t % STEP_MS) + STEP_MS) % STEP_MS;
  const groups = new Map<number, number[]>();
  for (const r of rows) {
    const start = Math.floor((r.t - offset) / hour) * hour + offset;
    (groups.get(start) ?? groups.set(start, []).get(start)!).push(r.powerKw);
  }
  return [...groups].filter(([, v]) => v.length === 4 && v.every(Number.isFinite)).map(([t, v]) => ({ t, powerKw: v.reduce((a, b) => a + b, 0) / 4 }));
}

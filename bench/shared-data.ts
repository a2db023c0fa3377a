/** Readers of the public data in ../shared/data (its README gives sources and licences), shared by the benches. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { WeatherPoint } from '../shared/domain/weather/types';
import { HOUR_MS } from '../shared/domain/time';

const DATA = path.resolve(process.env.SHARED_DATA ?? '../shared/data');

/** The rows of a CSV without header (these files have no quoted fields). */
export function readCsv(file: string): string[][] {
  return readFileSync(path.join(DATA, file), 'utf8').trim().split('\n').slice(1).map((line) => line.split(','));
}

/** A timestamp as the files write it ("2016-07-01 00:15:00-07:00"), in ms. */
export const parseTime = (s: string) => Date.parse(s.replace(' ', 'T'));

/** NREL SERF East, Golden CO. */
export const SERF_EAST_SITE = { latitude: 39.74, longitude: -105.18 };

/** SERF East's NSRDB PSM3 irradiance (W/m2) and air temperature at the given times, NaN where the file has no row. */
export function serfEastPsm3(times: readonly number[]): { ghi_wm2: number[]; temperature_c: number[] } {
  const byTime = new Map(readCsv('solar/serf_east_psm3_data.csv').map((r) => [parseTime(r[0]), { ghi: Number(r[10]), temp: Number(r[7]) }]));
  return { ghi_wm2: times.map((t) => byTime.get(t)?.ghi ?? NaN), temperature_c: times.map((t) => byTime.get(t)?.temp ?? NaN) };
}

/**
 * SERF East's PSM3 as an hourly feed such as Open-Meteo's delivers: each hour's mean irradiance labelled at the
 * hour's end, the temperature at the label (the fields a feed lacks are NaN), for the service's own placement.
 */
export function serfEastHourlyWeather(times: readonly number[]): WeatherPoint[] {
  const psm3 = serfEastPsm3(times);
  const hours = new Map<number, { sum: number; count: number; temperature: number }>();
  times.forEach((t, i) => {
    const end = (Math.floor(t / HOUR_MS) + 1) * HOUR_MS;
    const hour = hours.get(end) ?? hours.set(end, { sum: 0, count: 0, temperature: NaN }).get(end)!;
    if (Number.isFinite(psm3.ghi_wm2[i])) {
      hour.sum += psm3.ghi_wm2[i];
      hour.count++;
    }
  });
  times.forEach((t, i) => {
    if (hours.has(t)) hours.get(t)!.temperature = psm3.temperature_c[i];
  });
  return [...hours].map(([t, h]) => ({
    timestamp: new Date(t).toISOString(),
    solar_radiation_wm2: h.count ? h.sum / h.count : NaN,
    temperature_c: h.temperature,
    wind_speed_ms: NaN,
    cloud_cover_pct: NaN,
    humidity_pct: NaN,
    pressure_hpa: NaN,
  }));
}

/** A CSV's columns by (trimmed) header name, as strings; blank cells stay '' (see `numbers`). */
export function readCsvColumns(file: string): Record<string, string[]> {
  const [head, ...lines] = readFileSync(path.join(DATA, file), 'utf8').trim().split(/\r?\n/);
  const names = head.split(',').map((s) => s.trim());
  const columns: Record<string, string[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (const line of lines) {
    const cells = line.split(',');
    names.forEach((n, i) => columns[n].push((cells[i] ?? '').trim()));
  }
  return columns;
}

/** Cells as numbers, a blank cell as NaN (Number('') would be 0). */
export const numbers = (cells: readonly string[]): number[] => cells.map((c) => (c === '' ? NaN : Number(c)));

/** The path of a file in the shared data folder. */
export const dataFile = (file: string) => path.join(DATA, file);

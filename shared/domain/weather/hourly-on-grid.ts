/**
 * Hourly weather on a finer grid. Both weather providers label an hour's irradiance mean at the hour's end
 * (Open-Meteo: "averaged over the preceding hour"), so each such value belongs at its hour's centre, half an hour
 * before its label; temperature and wind are instants at their labels. Between two placed values the grid gets
 * the straight line. Stepping a value over the hour after its label, as a floor-hour lookup does, puts irradiance
 * an hour late and in hour-long stairs. SERF East with NSRDB PSM3 as an hourly feed: 3-hour gaps filled from
 * irradiance 0.95 against 0.91 x linear; day-ahead solar ensemble daylight RMSE 943 against 864 W.
 */
import type { WeatherPoint } from './types';
import { HOUR_MS } from '../time';

/** Values at `times` from hourly values placed `offsetMs` from their labels; NaN more than half an hour from any placed value. */
function hourlyOnGrid(times: readonly number[], hours: readonly { t: number; value: number }[], offsetMs: number): number[] {
  const byPlace = new Map<number, number>();
  for (const { t, value } of hours) if (Number.isFinite(value)) byPlace.set(t + offsetMs, value);
  return times.map((t) => {
    const before = Math.floor((t - offsetMs) / HOUR_MS) * HOUR_MS + offsetMs;
    const a = byPlace.get(before);
    const b = byPlace.get(before + HOUR_MS);
    if (a !== undefined && b !== undefined) return a + ((b - a) * (t - before)) / HOUR_MS;
    if (a !== undefined && t - before <= HOUR_MS / 2) return a;
    if (b !== undefined && before + HOUR_MS - t <= HOUR_MS / 2) return b;
    return NaN;
  });
}

/** Values at `times` from hour-ending means (each at its hour's centre). */
export const hourEndingMeansOnGrid = (times: readonly number[], hours: readonly { t: number; value: number }[]) => hourlyOnGrid(times, hours, -HOUR_MS / 2);

/** Values at `times` from hourly instants (each at its label). */
const hourlyInstantsOnGrid = (times: readonly number[], hours: readonly { t: number; value: number }[]) => hourlyOnGrid(times, hours, 0);

/** The weather the forecasting members and the interpolation read, on the series' grid, by their names. */
export function weatherOnGrid(times: readonly number[], points: readonly WeatherPoint[]): { temperature_c: number[]; ghi_wm2: number[]; wind_speed_ms: number[] } {
  const series = (field: 'temperature_c' | 'solar_radiation_wm2' | 'wind_speed_ms') => points.map((p) => ({ t: Date.parse(p.timestamp), value: p[field] }));
  return {
    temperature_c: hourlyInstantsOnGrid(times, series('temperature_c')),
    ghi_wm2: hourEndingMeansOnGrid(times, series('solar_radiation_wm2')),
    wind_speed_ms: hourlyInstantsOnGrid(times, series('wind_speed_ms')),
  };
}

/**
 * Where a forecast stands in time. A forecast starts where its data ends (its members need the hours just
 * before it), so data older than the request moves the forecast into the past: every answer that forecasts
 * from stored or uploaded history states its start and the data's age, and warns when steps lie before the
 * request rather than look current.
 */
import { HOUR_MS } from '../time';

export interface ForecastTiming {
  /** The first forecast step. */
  forecast_start: string;
  /** The last data point the forecast starts from. */
  data_end: string;
  /** Hours from data_end to the request (0 when the data reaches the request). */
  data_age_hours: number;
  warnings: string[];
}

/** The timing of a forecast whose steps are `times`, made from data ending at `originMs`, asked for at `nowMs`; `fix` says how to get a current one. */
export function forecastTiming(originMs: number, times: readonly number[], nowMs: number, fix: string): ForecastTiming {
  const age = Math.max(0, nowMs - originMs) / HOUR_MS;
  const timing = { forecast_start: new Date(times[0]).toISOString(), data_end: new Date(originMs).toISOString(), data_age_hours: Math.round(age * 10) / 10 };
  const past = times.filter((t) => t <= nowMs).length;
  if (!past) return { ...timing, warnings: [] };
  const stale = `the data ends at ${timing.data_end}, ${timing.data_age_hours} hours before this request`;
  const where = past === times.length ? `the whole forecast (${timing.forecast_start} to ${new Date(times.at(-1)!).toISOString()}) lies before the request` : `the first ${past} of ${times.length} forecast steps lie before the request`;
  return { ...timing, warnings: [`${stale}: ${where}; ${fix}`] };
}

/**
 * Weather for the API (POST /api/weather-data) and for the ingestion pipeline (weatherForLocation), from
 * the configured provider (shared/weather-providers: `weatherFor`), with the source that really served it.
 */
import { DateTime } from 'luxon';
import { resolveLocation, timezoneAt } from '../../domain/locations/resolve-location';
import { forecastEnhancement, type ForecastEnhancement } from '../../domain/weather/forecast-enhancement';
import { OFFLINE_MODEL_NAME } from '../../domain/weather/offline-model';
import { BadRequest } from '../../errors';
import type { WeatherDataRequest, WeatherParameter } from '../../schemas/weather';
import { weatherFor, type WeatherAnswer } from '../../weather-providers';
import { roundHalfUp } from '../../domain/rounding';

/** Where each API parameter lives in a WeatherPoint, and the decimals it is reported with. */
type ReportedField = 'temperature_c' | 'solar_radiation_wm2' | 'wind_speed_ms' | 'cloud_cover_pct' | 'humidity_pct' | 'pressure_hpa';
const PARAMETER_FIELDS: Record<WeatherParameter, { field: ReportedField; decimals: number }> = {
  temperature: { field: 'temperature_c', decimals: 1 },
  solar_radiation: { field: 'solar_radiation_wm2', decimals: 1 },
  wind_speed: { field: 'wind_speed_ms', decimals: 2 },
  cloud_cover: { field: 'cloud_cover_pct', decimals: 1 },
  humidity: { field: 'humidity_pct', decimals: 1 },
  pressure: { field: 'pressure_hpa', decimals: 1 },
};

export type WeatherRow = { timestamp: string } & Partial<Record<WeatherParameter, number>>;

export interface WeatherDataResponse {
  weather_data: WeatherRow[];
  forecast_enhancement: ForecastEnhancement;
  /** Who served the data: `open-meteo`, or `offline-climatology` (a climatological model, not observations), also after a fallback. */
  source: string;
  /** Why the source is not the configured one (a fallback), or what the offline model had to assume. */
  note?: string;
  /** The zone whose calendar days the range covers. */
  timezone: string;
}

/** [start_date 00:00, end_date + 1 day 00:00) in the zone, as instants: the end date is included. */
export function localDayRange(startDate: string, endDate: string, zone: string): { start: Date; end: Date } {
  const start = DateTime.fromISO(startDate, { zone }).startOf('day');
  const end = DateTime.fromISO(endDate, { zone }).plus({ days: 1 }).startOf('day');
  if (!start.isValid || !end.isValid) throw new BadRequest(`Invalid request: date_range is not a valid range in ${zone}`);
  return { start: start.toJSDate(), end: end.toJSDate() };
}

/** Hourly weather of the request's local days with only the requested parameters, and what it means for forecasting. */
export async function weatherData(request: WeatherDataRequest): Promise<WeatherDataResponse> {
  const { latitude, longitude, elevation_m: elevationM } = request.location;
  const timezone = request.location.timezone ?? timezoneAt(latitude, longitude);
  const { start, end } = localDayRange(request.date_range.start_date, request.date_range.end_date, timezone);
  const { points, source, note } = await weatherFor({ latitude, longitude, ...(elevationM !== undefined ? { elevationM } : {}), start, end, timezone, mode: request.forecast_mode ? 'forecast' : 'history' });
  const weather_data = points.map((p) => {
    const row: WeatherRow = { timestamp: p.timestamp };
    for (const parameter of request.parameters) {
      const { field, decimals } = PARAMETER_FIELDS[parameter];
      row[parameter] = roundHalfUp(p[field], decimals);
    }
    return row;
  });
  const forecast_enhancement = forecastEnhancement(points, { latitude, longitude }, 60, { climatology: source === OFFLINE_MODEL_NAME });
  return { weather_data, forecast_enhancement, source, ...(note ? { note } : {}), timezone };
}

/**
 * Hourly weather for a free-text location ("Berlin", "Paris, FR", "52.52,13.405") over [start, end), for
 * enriching uploads, with its source. Unknown location: 400 `Unknown location: <text>`.
 */
export async function weatherForLocation(locationText: string, start: Date, end: Date): Promise<WeatherAnswer> {
  const place = resolveLocation(locationText);
  if (!place) throw new BadRequest(`Unknown location: ${locationText}`);
  return weatherFor({ latitude: place.latitude, longitude: place.longitude, start, end, timezone: place.timezone });
}

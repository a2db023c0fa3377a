/**
 * The weather a statistical forecast uses (issue 19, item 6; ARCHITECTURE 9, "Weather for statistical forecasts"):
 * the caller's own rows, else the provider's record of the history and its forecast of the horizon at the place,
 * on the series' grid under the names the members read (solar: ghi_wm2, load: temperature_c, wind: wind_speed_ms);
 * and the `weather` block every forecast answer carries to say which weather that was.
 */
import { BadRequest } from '../../errors';
import type { Exogenous } from '../../domain/forecasting/types';
import { ghiFromCloudCover, weatherRowsOnGrid, type TimedWeatherRow, type WeatherVariable } from '../../domain/forecasting/weather-rows';
import { weatherOnGrid } from '../../domain/weather/hourly-on-grid';
import type { WeatherPoint } from '../../domain/weather/types';
import type { ForecastWeatherRow } from '../../schemas/forecasting';
import { weatherFor, WeatherRateLimited, WeatherUnavailable, type WeatherAnswer } from '../../weather-providers';
import { DAY_MS, HOUR_MS, iso } from '../../domain/time';

/** Days of history the provider is asked for: the most the engine keeps for a kind that reads weather (solar, 90). */
export const PROVIDER_HISTORY_DAYS = 90;
/** The variables members read; cloud cover only stands in for a missing GHI. */
const MEMBER_VARIABLES: readonly WeatherVariable[] = ['ghi_wm2', 'temperature_c', 'wind_speed_ms'];

/** `source` when the caller sent the weather, and when none was used. */
export const REQUEST_SOURCE = 'request';
export const NO_WEATHER_SOURCE = 'none';

/** What an answer says about its weather: who served it, the variables the models were given, and why not, if not. */
export interface WeatherUsed {
  source: string;
  variables: string[];
  note?: string;
}

/** Exogenous weather for the engine (absent when none is used) and what the answer says about it. */
export interface ForecastWeather {
  history?: Exogenous;
  future?: Exogenous;
  used: WeatherUsed;
}

export interface WeatherPlace {
  latitude: number;
  longitude: number;
  timezone?: string;
  elevationM?: number;
}

const noWeather = (note?: string): ForecastWeather => ({ used: { source: NO_WEATHER_SOURCE, variables: [], ...(note ? { note } : {}) } });
const joinNotes = (notes: (string | undefined)[]) => {
  const kept = notes.filter((n): n is string => !!n);
  return kept.length ? { note: kept.join('; ') } : {};
};

/** Variables with a known value both in the history and over the horizon: those the members can learn and use. */
export function usedVariables(history: Exogenous | undefined, future: Exogenous | undefined): string[] {
  if (!history || !future) return [];
  return Object.keys(future).filter((name) => history[name]?.some(Number.isFinite) && future[name].some(Number.isFinite));
}

/** Only the named variables of an exogenous set. */
const pick = (exogenous: Exogenous, names: readonly string[]): Exogenous => Object.fromEntries(names.filter((n) => n in exogenous).map((n) => [n, exogenous[n]]));

/** Hourly provider points covering [from, to] with an hour's margin either side (the grid interpolates between hours). */
function providerAnswer(place: WeatherPlace, from: number, to: number, mode: 'history' | 'forecast'): Promise<WeatherAnswer> {
  const start = Math.floor(from / HOUR_MS) * HOUR_MS - HOUR_MS;
  const end = Math.ceil(to / HOUR_MS) * HOUR_MS + 2 * HOUR_MS;
  return weatherFor({ latitude: place.latitude, longitude: place.longitude, start: new Date(start), end: new Date(end), timezone: place.timezone, mode, ...(place.elevationM !== undefined ? { elevationM: place.elevationM } : {}) });
}

/** Runs a provider call; a provider that cannot answer (502/503 with WEATHER_PROVIDER=open-meteo) becomes a reason, not a failed forecast. */
async function tryProvider<T>(call: () => Promise<T>): Promise<T | { failed: string }> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof WeatherUnavailable || err instanceof WeatherRateLimited) return { failed: err.message };
    throw err;
  }
}

/** The provider's forecast over the horizon's times: its points, the members' variables on those times, and its source. */
export async function horizonWeather(place: WeatherPlace | undefined, futureTimes: readonly number[]): Promise<{ points: WeatherPoint[]; future?: Exogenous; source: string; note?: string }> {
  if (!place) return { points: [], source: NO_WEATHER_SOURCE, note: 'no weather: the site has no coordinates' };
  if (!futureTimes.length) return { points: [], source: NO_WEATHER_SOURCE };
  const answer = await tryProvider(() => providerAnswer(place, futureTimes[0], futureTimes[futureTimes.length - 1], 'forecast'));
  if ('failed' in answer) return { points: [], source: NO_WEATHER_SOURCE, note: `no weather forecast: ${answer.failed}` };
  return { points: answer.points, future: answer.points.length ? weatherOnGrid(futureTimes, answer.points) : undefined, source: answer.source, ...joinNotes([answer.note]) };
}

/**
 * The provider's weather for a series and its horizon: its record of the history's last PROVIDER_HISTORY_DAYS
 * (NaN before) and its forecast over the horizon. One source when both answers agree, else both named.
 */
export async function providerWeather(place: WeatherPlace, historyTimes: readonly number[], futureTimes: readonly number[]): Promise<ForecastWeather> {
  const last = historyTimes[historyTimes.length - 1];
  const from = historyTimes.findIndex((t) => t >= last - PROVIDER_HISTORY_DAYS * DAY_MS);
  const past = await tryProvider(() => providerAnswer(place, historyTimes[from], last, 'history'));
  if ('failed' in past) return noWeather(`no weather: the provider did not answer for the history (${past.failed})`);
  const ahead = await horizonWeather(place, futureTimes);
  if (!ahead.future) return noWeather(ahead.note);
  const recent: Exogenous = past.points.length ? weatherOnGrid(historyTimes.slice(from), past.points) : {};
  const history = Object.fromEntries(Object.entries(recent).map(([name, values]) => [name, [...new Array<number>(from).fill(NaN), ...values]]));
  const source = past.source === ahead.source ? ahead.source : `${past.source} (history), ${ahead.source} (horizon)`;
  const variables = usedVariables(history, ahead.future);
  return { history: pick(history, variables), future: pick(ahead.future, variables), used: { source, variables, ...joinNotes([past.note, ahead.note === past.note ? undefined : ahead.note]) } };
}

const parseTime = (timestamp: string, field: string): number => {
  const t = Date.parse(timestamp);
  if (Number.isNaN(t)) throw new BadRequest(`Invalid request: ${field} "${timestamp}" is not an ISO 8601 timestamp`);
  return t;
};

/**
 * The caller's weather rows on the series' grid.
 * @throws BadRequest for a malformed or repeated timestamp, or a horizon step some variable does not cover
 */
export function requestRowsWeather(rows: readonly ForecastWeatherRow[], historyTimes: readonly number[], futureTimes: readonly number[], place: WeatherPlace | undefined): ForecastWeather {
  const seen = new Set<number>();
  const timed: TimedWeatherRow[] = rows.map((row, i) => {
    const t = parseTime(row.timestamp, `weather.${i}.timestamp`);
    if (seen.has(t)) throw new BadRequest(`Invalid request: weather.${i}.timestamp ${row.timestamp} repeats an earlier row; send one row per timestamp`);
    seen.add(t);
    return { t, values: { ghi_wm2: row.ghi_wm2, temperature_c: row.temperature_c, wind_speed_ms: row.wind_speed_ms, cloud_cover_pct: row.cloud_cover_pct } };
  });
  const grid = weatherRowsOnGrid(timed, historyTimes, futureTimes);
  if (grid.missing) {
    const { variable, t, count } = grid.missing;
    throw new BadRequest(
      `Invalid request: weather misses ${count} of the ${futureTimes.length} horizon steps for ${variable} (first ${iso(t)}); send a row with ${variable} for every step from ${iso(futureTimes[0])} to ${iso(futureTimes[futureTimes.length - 1])}, or set forecast_config.weather_integration to false`,
    );
  }
  const notes: string[] = [];
  const { history, future } = grid;
  if (history.cloud_cover_pct && !history.ghi_wm2) {
    if (place) {
      history.ghi_wm2 = ghiFromCloudCover(historyTimes, history.cloud_cover_pct, place);
      future.ghi_wm2 = ghiFromCloudCover(futureTimes, future.cloud_cover_pct, place);
      notes.push('ghi_wm2 estimated from cloud_cover_pct under a clear sky (Kasten & Czeplak 1980)');
    } else notes.push('cloud_cover_pct not used: without ghi_wm2 it needs forecast_config latitude and longitude (or location) to estimate irradiance');
  } else if (history.cloud_cover_pct) notes.push('cloud_cover_pct not used: the models read ghi_wm2, which was sent');
  const sent = MEMBER_VARIABLES.filter((name) => name in future);
  const variables = usedVariables(pick(history, sent), pick(future, sent));
  const horizonOnly = sent.filter((name) => !variables.includes(name));
  if (horizonOnly.length) notes.push(`${horizonOnly.join(', ')} not used: no value over the history, where the models learn a variable's effect`);
  if (!variables.length) return noWeather(notes.join('; ') || undefined);
  return { history: pick(history, variables), future: pick(future, variables), used: { source: REQUEST_SOURCE, variables, ...joinNotes(notes) } };
}

/** What POST /forecast asked for about weather. */
export interface WeatherRequest {
  /** forecast_config.weather_integration */
  integrate: boolean;
  rows?: readonly ForecastWeatherRow[];
  /** From forecast_config latitude/longitude or location. */
  place?: WeatherPlace;
}

/**
 * The weather of POST /forecast: with weather_integration, the caller's rows, else the provider's at the place, else
 * none with the reason (a forecast without weather, not a refusal); without it, none, saying so when rows were sent.
 */
export async function requestWeather(request: WeatherRequest, historyTimes: readonly number[], futureTimes: readonly number[]): Promise<ForecastWeather> {
  if (!request.integrate) return noWeather(request.rows ? 'weather sent without forecast_config.weather_integration: true, so not used' : undefined);
  if (request.rows) return requestRowsWeather(request.rows, historyTimes, futureTimes, request.place);
  if (!request.place) return noWeather('no weather: weather_integration asks for it, but the request has no weather array and no forecast_config latitude/longitude or location to ask the provider for; the forecast is from the history alone');
  return providerWeather(request.place, historyTimes, futureTimes);
}

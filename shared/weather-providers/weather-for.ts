/**
 * The one entry point for weather (config WEATHER_PROVIDER, ARCHITECTURE 9):
 * - `offline`: the offline climatological model, never the network;
 * - `open-meteo`: Open-Meteo through the cell cache; its failures are the caller's 502 (503 when the call budget is spent);
 * - `auto` (default): Open-Meteo through the cell cache, and the offline model when it cannot answer, with `source` and
 *   `note` saying so. After an outage (no connection, time-out, 5xx) `auto` leaves Open-Meteo alone for
 *   WEATHER_BACKOFF_SECONDS, answering from the cache where it can and from the offline model otherwise, so that an
 *   outage does not cost every request its time-out.
 */
import { config, type Config } from '../config';
import { OFFLINE_MODEL_NAME, offlineWeather } from '../domain/weather/offline-model';
import { CallBudget, callWindows } from './call-budget';
import { OpenMeteoProvider } from './open-meteo';
import { WeatherRateLimited, WeatherUnavailable, type WeatherAnswer, type WeatherQuery } from './provider';
import { terrainElevation } from './terrain-elevation';
import { CachedOpenMeteo, DYNAMO_WEATHER_DAYS } from './weather-cell-cache';

/** What this process knows of Open-Meteo's health: set by a failed call or probe, cleared by a good one. */
interface UpstreamState {
  /** Epoch ms before which `auto` does not ask Open-Meteo. */
  skipUntil: number;
  /** The last failure, for notes and /health. */
  reason?: string;
}

const upstream: UpstreamState = { skipUntil: 0 };
let budget: { limits: string; budget: CallBudget } | undefined;

/** This process's Open-Meteo call budget, from the configured limits (rebuilt when they change). */
function callBudget(c: Config): CallBudget {
  const limits = `${c.OPEN_METEO_CALLS_PER_MINUTE}/${c.OPEN_METEO_CALLS_PER_HOUR}/${c.OPEN_METEO_CALLS_PER_DAY}`;
  if (budget?.limits !== limits) {
    budget = { limits, budget: new CallBudget(callWindows({ perMinute: c.OPEN_METEO_CALLS_PER_MINUTE, perHour: c.OPEN_METEO_CALLS_PER_HOUR, perDay: c.OPEN_METEO_CALLS_PER_DAY })) };
  }
  return budget.budget;
}

/** The Open-Meteo adapter as configured: addresses, time-out and this process's call budget. */
export function openMeteoAdapter(): OpenMeteoProvider {
  const c = config();
  return new OpenMeteoProvider({ forecastUrl: c.OPEN_METEO_FORECAST_URL, archiveUrl: c.OPEN_METEO_ARCHIVE_URL, timeoutMs: c.WEATHER_TIMEOUT_MS, budget: callBudget(c) });
}

/** Open-Meteo through the cell cache (none with WEATHER_CACHE=none). */
export function cachedOpenMeteo(): CachedOpenMeteo {
  return new CachedOpenMeteo(openMeteoAdapter(), config().WEATHER_CACHE === 'store' ? DYNAMO_WEATHER_DAYS : null);
}

/** Whether `auto` is leaving Open-Meteo alone now, and why. */
export function upstreamSkipped(nowMs = Date.now()): { until: Date; reason: string } | null {
  return nowMs < upstream.skipUntil ? { until: new Date(upstream.skipUntil), reason: upstream.reason ?? 'it failed' } : null;
}

/** Records how Open-Meteo last answered: an outage starts the back-off, a good answer ends it. */
export function recordUpstream(outcome: { ok: true } | { ok: false; reason: string; outage: boolean }, nowMs = Date.now()): void {
  if (outcome.ok) {
    upstream.skipUntil = 0;
    upstream.reason = undefined;
    return;
  }
  upstream.reason = outcome.reason;
  if (outcome.outage) upstream.skipUntil = nowMs + config().WEATHER_BACKOFF_SECONDS * 1000;
}

/** Forgets the back-off and the call budget (tests, and the local runtime's restarts). */
export function resetWeatherState(): void {
  upstream.skipUntil = 0;
  upstream.reason = undefined;
  budget = undefined;
}

/** The offline model's answer, with the site's elevation from the query, else from the gazetteer, else sea level (said in the note). */
export function offlineAnswer(query: WeatherQuery, why?: string): WeatherAnswer {
  const notes = why ? [why] : [];
  let elevationM = query.elevationM;
  if (elevationM === undefined) {
    const terrain = terrainElevation(query.latitude, query.longitude);
    if (terrain) elevationM = terrain.elevationM;
    else notes.push('site elevation unknown: sea level assumed');
  }
  const points = offlineWeather({ latitude: query.latitude, longitude: query.longitude, elevationM, start: query.start, end: query.end, stepMinutes: 60 });
  return { points, source: OFFLINE_MODEL_NAME, ...(notes.length ? { note: notes.join('; ') } : {}) };
}

/**
 * Hourly weather for a place and range from the configured provider, with the source that served it.
 * Points are at whole UTC hours in [start, end); Open-Meteo's are those of the place's 0.1-degree cell.
 * Throws WeatherUnavailable (502) or WeatherRateLimited (503) only with WEATHER_PROVIDER=open-meteo.
 */
export async function weatherFor(query: WeatherQuery): Promise<WeatherAnswer> {
  const provider = config().WEATHER_PROVIDER;
  if (provider === 'offline') return offlineAnswer(query);
  const openMeteo = cachedOpenMeteo();
  if (provider === 'open-meteo') return { points: await openMeteo.hourly(query), source: openMeteo.name };

  const skipped = upstreamSkipped();
  if (skipped) {
    const cached = await openMeteo.cachedOnly(query).catch(() => null);
    if (cached) return { points: cached, source: openMeteo.name };
    return offlineAnswer(query, `Open-Meteo unavailable (${skipped.reason}; not asked again before ${skipped.until.toISOString()}): offline climatology served`);
  }
  try {
    const points = await openMeteo.hourly(query);
    recordUpstream({ ok: true });
    return { points, source: openMeteo.name };
  } catch (err) {
    if (err instanceof WeatherUnavailable) {
      recordUpstream({ ok: false, reason: err.message, outage: err.outage });
      return offlineAnswer(query, `Open-Meteo unavailable (${err.message}): offline climatology served`);
    }
    if (err instanceof WeatherRateLimited) return offlineAnswer(query, `Open-Meteo not asked (${err.message}): offline climatology served`);
    throw err;
  }
}

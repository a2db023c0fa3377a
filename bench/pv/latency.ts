/**
 * Latency of a 7-day, 15-minute POST /api/pv-forecast over HTTP against the local runtime with the weather cached
 * (issue 19: under 300 ms). Weather comes from WEATHER_PROVIDER=auto through the real Open-Meteo adapter and the
 * store's cell cache, pointed at an Open-Meteo stand-in on loopback (JSON in Open-Meteo's documented format), so
 * the first call fills the cache and the timed calls must make no upstream call. Beside it, the in-process time of
 * the domain chain alone (weather onto steps, model chain, quantiles) for the same 672 steps.
 */
import { loadavg } from 'node:os';
import { resetConfig } from '../../shared/config';
import { HOUR_MS } from '../../shared/domain/forecasting/types';
import { simulatePv } from '../../shared/domain/pv/system-model';
import { pvQuantiles } from '../../shared/domain/pv/tuning';
import type { PvSystem } from '../../shared/domain/pv/types';
import { weatherOnSteps, type WeatherRowAt } from '../../shared/domain/pv/weather-steps';
import { resetWeatherState } from '../../shared/weather-providers';
import { enterpriseRuntime } from '../enterprise-runtime';
import { standIn, standInHour } from './open-meteo-stand-in';

export const LATENCY_CALLS = 30;
export const LATENCY_TARGET_MS = 300;
const HORIZON_HOURS = 168;
const STEP_MINUTES = 15;

export interface LatencyResult {
  calls: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  targetMs: number;
  steps: number;
  weatherSource: string;
  /** Upstream (stand-in) requests made by the warm-up call and by the timed calls. */
  upstreamCallsWarmUp: number;
  upstreamCallsTimed: number;
  domainChain: { p50Ms: number; p95Ms: number; runs: number };
  /** The machine's 1-minute load average before and after the timed calls (2 cores shared with other work here). */
  loadAverage: { before: number; after: number };
  note: string;
}

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];

const ENV = ['WEATHER_PROVIDER', 'OPEN_METEO_FORECAST_URL', 'OPEN_METEO_ARCHIVE_URL', 'WEATHER_CACHE'];

async function post(url: string, apiKey: string, path: string, body: unknown, method = 'POST') {
  const res = await fetch(`${url}${path}`, { method, headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** The domain chain alone for the steps of one forecast: the rows onto 15-minute steps, the model, the quantiles. */
function domainChain(system: PvSystem, start: number, runs: number): LatencyResult['domainChain'] {
  const rows: WeatherRowAt[] = [];
  for (let end = start; end <= start + (HORIZON_HOURS + 1) * HOUR_MS; end += HOUR_MS) {
    const h = standInHour(end, system.latitude, system.longitude);
    rows.push({ end, ghiWm2: h.shortwave_radiation, dniWm2: h.direct_normal_irradiance, dhiWm2: h.diffuse_radiation, tempAirC: h.temperature_2m, windSpeedMs: h.wind_speed_10m });
  }
  const starts = Array.from({ length: (HORIZON_HOURS * 60) / STEP_MINUTES }, (_, i) => start + i * STEP_MINUTES * 60_000);
  const times: number[] = [];
  for (let k = 0; k < runs; k++) {
    const started = performance.now();
    const modelled = simulatePv(system, weatherOnSteps(rows, starts, STEP_MINUTES, system), STEP_MINUTES);
    const p50 = modelled.map((m) => m.acKw);
    pvQuantiles(undefined, modelled, p50, system.inverterAcKw);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50Ms: quantile(times, 0.5), p95Ms: quantile(times, 0.95), runs };
}

/** The HTTP latency and the in-process chain for a site with set specs (`system`, API-shaped in `pvSystem`). */
export async function measureLatency(system: PvSystem, pvSystem: Record<string, unknown>): Promise<LatencyResult> {
  const upstream = await standIn();
  const saved = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
  Object.assign(process.env, { WEATHER_PROVIDER: 'auto', OPEN_METEO_FORECAST_URL: `${upstream.base}/v1/forecast`, OPEN_METEO_ARCHIVE_URL: `${upstream.base}/v1/archive`, WEATHER_CACHE: 'store' });
  resetConfig();
  resetWeatherState();
  const { runtime, apiKey } = await enterpriseRuntime('pv');
  try {
    const customer = `bench-pv-${Date.now()}`;
    const site = 'bench-pv-site';
    await post(runtime.url, apiKey, `/api/sites/${site}`, { customer_id: customer, pv_system: pvSystem }, 'PUT');
    const request = { customer_id: customer, site_id: site, horizon_hours: HORIZON_HOURS, interval_minutes: STEP_MINUTES };
    const warm = await post(runtime.url, apiKey, '/api/pv-forecast', request);
    const upstreamCallsWarmUp = upstream.calls();
    const loadBefore = loadavg()[0];
    const times: number[] = [];
    let steps = 0;
    for (let k = 0; k < LATENCY_CALLS; k++) {
      const started = performance.now();
      const body = await post(runtime.url, apiKey, '/api/pv-forecast', request);
      times.push(performance.now() - started);
      steps = (body.forecasts as unknown[]).length;
    }
    const upstreamCallsTimed = upstream.calls() - upstreamCallsWarmUp;
    times.sort((a, b) => a - b);
    return {
      calls: LATENCY_CALLS,
      p50Ms: quantile(times, 0.5),
      p95Ms: quantile(times, 0.95),
      maxMs: times[times.length - 1],
      targetMs: LATENCY_TARGET_MS,
      steps,
      weatherSource: String(warm.weather_source),
      upstreamCallsWarmUp,
      upstreamCallsTimed,
      domainChain: domainChain(system, Math.floor(Date.now() / HOUR_MS) * HOUR_MS, LATENCY_CALLS),
      loadAverage: { before: loadBefore, after: loadavg()[0] },
      note: 'a site with set specs and no history (untuned); WEATHER_PROVIDER=auto, Open-Meteo adapter and store cell cache against a loopback stand-in; one warm-up call, then the timed calls, sequential',
    };
  } finally {
    await runtime.close();
    await upstream.close();
    for (const name of ENV) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    resetConfig();
    resetWeatherState();
  }
}

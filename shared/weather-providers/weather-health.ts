/**
 * The `weather_api` component of GET /health: the configured provider really asked, with its own short time-out, the
 * answer kept for WEATHER_HEALTH_CACHE_SECONDS so that health checks spend at most one upstream call a minute.
 * The component is the spec's exact `operational` when the configured source answers (`detail` says which); with `auto`
 * and Open-Meteo down it is `degraded: ...` (the offline fallback serves), without making the service degraded.
 */
import { config } from '../config';
import { WeatherRateLimited, WeatherUnavailable } from './provider';
import { openMeteoAdapter, recordUpstream, upstreamSkipped } from './weather-for';

/** The probe's own time-out, ms: /health answers within its budget even when Open-Meteo is silent. */
export const WEATHER_PROBE_TIMEOUT_MS = 2000;

export interface WeatherHealth {
  /** Whether weather can be served now (by Open-Meteo or by the configured fallback). */
  operational: boolean;
  /** The component string for /health. */
  status: string;
  /** What serves weather now, for /health's `weather` block. */
  detail: string;
}

const OFFLINE: WeatherHealth = { operational: true, status: 'operational', detail: 'offline climatology (WEATHER_PROVIDER=offline)' };

let probed: { provider: string; atMs: number; result: WeatherHealth } | undefined;

/** Forgets the kept probe result (tests). */
export function resetWeatherHealth(): void {
  probed = undefined;
}

/** The weather component's state now: from the kept probe when it is fresh, else by asking the provider. */
export async function weatherHealth(nowMs = Date.now()): Promise<WeatherHealth> {
  const c = config();
  const provider = c.WEATHER_PROVIDER;
  if (provider === 'offline') return OFFLINE;
  if (probed && probed.provider === provider && nowMs - probed.atMs < c.WEATHER_HEALTH_CACHE_SECONDS * 1000) return probed.result;

  const skipped = provider === 'auto' ? upstreamSkipped(nowMs) : null;
  // In a back-off `auto` does not ask Open-Meteo, and neither does the probe: it reports what requests get.
  const result = skipped ? fallback(skipped.reason) : await probe(provider);
  probed = { provider, atMs: nowMs, result };
  return result;
}

async function probe(provider: 'auto' | 'open-meteo'): Promise<WeatherHealth> {
  const timeoutMs = Math.min(config().WEATHER_TIMEOUT_MS, WEATHER_PROBE_TIMEOUT_MS);
  try {
    await openMeteoAdapter().probe(timeoutMs);
    if (provider === 'auto') recordUpstream({ ok: true });
    return { operational: true, status: 'operational', detail: 'Open-Meteo answered' };
  } catch (err) {
    if (!(err instanceof WeatherUnavailable || err instanceof WeatherRateLimited)) throw err;
    if (provider === 'auto' && err instanceof WeatherUnavailable) recordUpstream({ ok: false, reason: err.message, outage: err.outage });
    return provider === 'auto' ? fallback(err.message) : { operational: false, status: `unavailable: ${err.message}`, detail: `Open-Meteo failed: ${err.message}` };
  }
}

const fallback = (reason: string): WeatherHealth => ({ operational: true, status: `degraded: ${reason}; the offline climatology serves`, detail: `offline climatology fallback: ${reason}` });

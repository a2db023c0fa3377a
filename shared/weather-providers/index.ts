/**
 * Weather for every caller: `weatherFor(query)` answers hourly points with the source that served them
 * (weather-for.ts: WEATHER_PROVIDER `auto` by default, `open-meteo` or `offline`).
 */
import { config } from '../config';
import { OFFLINE_MODEL_NAME } from '../domain/weather/offline-model';
import type { WeatherPoint } from '../domain/weather/types';
import { OfflineWeatherProvider } from './offline';
import type { WeatherProvider, WeatherQuery } from './provider';
import { cachedOpenMeteo, upstreamSkipped, weatherFor } from './weather-for';

export { WeatherRateLimited, WeatherUnavailable, type WeatherAnswer, type WeatherProvider, type WeatherQuery } from './provider';
export { resetWeatherState, weatherFor } from './weather-for';
export { weatherHealth, type WeatherHealth } from './weather-health';

/** `auto` behind the older provider interface: `name` is the source of this instance's last answer. */
class AutoWeatherProvider implements WeatherProvider {
  private lastSource?: string;

  /** Before any answer: what the next one will most likely be (the offline model during a back-off). */
  get name(): string {
    return this.lastSource ?? (upstreamSkipped() ? OFFLINE_MODEL_NAME : 'open-meteo');
  }

  async hourly(query: WeatherQuery): Promise<WeatherPoint[]> {
    const answer = await weatherFor(query);
    this.lastSource = answer.source;
    return answer.points;
  }
}

/**
 * The configured provider behind the older interface, for callers not yet on `weatherFor` (which also says why a
 * fallback happened). `auto` falls back as `weatherFor` does.
 */
export function weatherProvider(): WeatherProvider {
  const provider = config().WEATHER_PROVIDER;
  if (provider === 'open-meteo') return cachedOpenMeteo();
  if (provider === 'auto') return new AutoWeatherProvider();
  return new OfflineWeatherProvider();
}

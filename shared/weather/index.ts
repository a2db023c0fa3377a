/** The configured weather provider (config WEATHER_PROVIDER: 'offline' by default, or 'open-meteo'). */
import { config } from '../config';
import { OfflineWeatherProvider } from './offline';
import { OpenMeteoProvider } from './open-meteo';
import type { WeatherProvider } from './provider';

export { WeatherUnavailable, type WeatherProvider, type WeatherQuery } from './provider';

export function weatherProvider(): WeatherProvider {
  const c = config();
  if (c.WEATHER_PROVIDER === 'open-meteo') {
    return new OpenMeteoProvider({ forecastUrl: c.OPEN_METEO_FORECAST_URL, archiveUrl: c.OPEN_METEO_ARCHIVE_URL, timeoutMs: c.WEATHER_TIMEOUT_MS });
  }
  return new OfflineWeatherProvider();
}

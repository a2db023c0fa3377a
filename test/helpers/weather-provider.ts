/** Pins WEATHER_PROVIDER for a test file (or describe block) and restores it after. */
import { resetConfig } from '../../shared/config';

export function useWeatherProvider(provider: 'offline' | 'auto' | 'open-meteo'): void {
  const saved = process.env.WEATHER_PROVIDER;
  beforeAll(() => {
    process.env.WEATHER_PROVIDER = provider;
    resetConfig();
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.WEATHER_PROVIDER;
    else process.env.WEATHER_PROVIDER = saved;
    resetConfig();
  });
}

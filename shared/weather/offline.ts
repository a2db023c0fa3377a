/** The offline adapter: the climatological model of shared/domain/weather, no network. */
import { OFFLINE_MODEL_NAME, offlineWeather } from '../domain/weather/offline-model';
import type { WeatherPoint } from '../domain/weather/types';
import type { WeatherProvider, WeatherQuery } from './provider';

export class OfflineWeatherProvider implements WeatherProvider {
  readonly name = OFFLINE_MODEL_NAME;

  async hourly(query: WeatherQuery): Promise<WeatherPoint[]> {
    // Climatology has no forecast/history distinction: `mode` does not change the answer.
    return offlineWeather({ latitude: query.latitude, longitude: query.longitude, start: query.start, end: query.end, stepMinutes: 60 });
  }
}

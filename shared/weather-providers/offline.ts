/** The offline adapter: the climatological model of shared/domain/weather, no network. */
import { OFFLINE_MODEL_NAME } from '../domain/weather/offline-model';
import type { WeatherPoint } from '../domain/weather/types';
import type { WeatherProvider, WeatherQuery } from './provider';
import { offlineAnswer } from './weather-for';

export class OfflineWeatherProvider implements WeatherProvider {
  readonly name = OFFLINE_MODEL_NAME;

  /** Climatology has no forecast/history distinction: `mode` does not change the answer. */
  async hourly(query: WeatherQuery): Promise<WeatherPoint[]> {
    return offlineAnswer(query).points;
  }
}

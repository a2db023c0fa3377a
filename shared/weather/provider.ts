/** The weather port (ARCHITECTURE 6): services ask for hourly weather; adapters decide where it comes from. */
import type { WeatherPoint } from '../domain/weather/types';
import { ServiceError } from '../errors';

export interface WeatherQuery {
  latitude: number;
  longitude: number;
  start: Date;
  /** Exclusive. */
  end: Date;
  /** The caller's IANA zone, informational: points are always returned in UTC. */
  timezone?: string;
  /**
   * `forecast`: the provider's forecast product for the whole range (what a forecaster sees ahead of time);
   * `history` (default): the best record of the past where one exists, forecasts for the most recent days.
   */
  mode?: 'forecast' | 'history';
}

export interface WeatherProvider {
  /** Reported as the data source. */
  readonly name: string;
  /** Hourly points at whole UTC hours in [start, end), in time order. */
  hourly(query: WeatherQuery): Promise<WeatherPoint[]>;
}

/** The weather source failed (HTTP error, refusal, malformed answer, time-out): 502, with what went wrong. */
export class WeatherUnavailable extends ServiceError {
  readonly status = 502;
}

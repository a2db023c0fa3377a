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
  /**
   * Site elevation, metres above sea level. Used by the offline model (pressure, temperature lapse, clear sky);
   * without it the offline model takes the terrain elevation of the gazetteer (shared/weather-providers/terrain-elevation.ts).
   */
  elevationM?: number;
}

/** What every caller of `weatherFor` gets: the points and who served them. */
export interface WeatherAnswer {
  /** Hourly points at whole UTC hours in [start, end), in time order. */
  points: WeatherPoint[];
  /** `open-meteo` or `offline-climatology` (a climatological model, not observations or a forecast of the day). */
  source: string;
  /** Why the source is not the configured one (a fallback), or what it assumed (an elevation it had to guess). */
  note?: string;
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
  /**
   * True when the service itself looks down (no connection, time-out, HTTP 5xx), not just unwilling to answer this
   * request: `auto` then leaves it alone for a back-off instead of paying a time-out on every request.
   */
  readonly outage: boolean;
  constructor(message: string, options: { outage?: boolean } = {}) {
    super(message);
    this.outage = options.outage ?? false;
  }
}

/** This process has spent its share of the upstream's free-tier calls (shared/weather-providers/call-budget.ts), or the upstream said so: 503. */
export class WeatherRateLimited extends ServiceError {
  readonly status = 503;
  /** When a call fits the budget again; sent as Retry-After. */
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

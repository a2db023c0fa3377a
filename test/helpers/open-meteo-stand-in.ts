/**
 * An Open-Meteo stand-in on loopback for a test file: the runtime's weather provider points at it until the file ends.
 * Answers are built in Open-Meteo's documented JSON format (https://open-meteo.com/en/docs): `latitude`/`longitude`
 * of the grid point, `generationtime_ms`, `utc_offset_seconds`, `timezone`, `elevation`, `hourly_units`, and `hourly`
 * with `time` as ISO 8601 local time without an offset.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resetConfig } from '../../shared/config';
import { resetWeatherState } from '../../shared/weather-providers';
import { resetWeatherHealth } from '../../shared/weather-providers/weather-health';

const VARIABLES = ['WEATHER_PROVIDER', 'OPEN_METEO_FORECAST_URL', 'OPEN_METEO_ARCHIVE_URL'];

/** Units Open-Meteo states for each hourly variable with `wind_speed_unit=ms`. */
export const OPEN_METEO_UNITS: Readonly<Record<string, string>> = {
  time: 'iso8601',
  temperature_2m: '°C',
  shortwave_radiation: 'W/m²',
  wind_speed_10m: 'm/s',
  cloud_cover: '%',
  relative_humidity_2m: '%',
  surface_pressure: 'hPa',
  direct_normal_irradiance: 'W/m²',
  diffuse_radiation: 'W/m²',
};

const HOUR_MS = 3_600_000;

/** An answer's shape, as Open-Meteo documents it. */
export interface OpenMeteoAnswerBody {
  latitude: number;
  longitude: number;
  generationtime_ms: number;
  utc_offset_seconds: number;
  timezone: string;
  timezone_abbreviation: string;
  elevation: number;
  hourly_units: Record<string, string>;
  hourly: { time: string[]; [variable: string]: (number | null)[] | string[] };
}

/**
 * Open-Meteo's hourly answer to a request URL (its `latitude`, `longitude`, `hourly`, `start_date`, `end_date`; GMT),
 * every requested variable from `value(variable, hourIndex, instant)`: whole UTC days, the grid point 0.1-degree snapped.
 */
export function openMeteoAnswer(url: URL, value: (variable: string, i: number, at: Date) => number | null, options: { elevation?: number } = {}): OpenMeteoAnswerBody {
  const first = Date.parse(`${url.searchParams.get('start_date')}T00:00:00Z`);
  const last = Date.parse(`${url.searchParams.get('end_date')}T00:00:00Z`);
  const hours = Math.max(0, (last - first) / HOUR_MS + 24);
  const instants = Array.from({ length: hours }, (_, i) => new Date(first + i * HOUR_MS));
  const variables = (url.searchParams.get('hourly') ?? '').split(',').filter(Boolean);
  const grid = (name: string) => Math.round(Number(url.searchParams.get(name)) * 10) / 10;
  return {
    latitude: grid('latitude'),
    longitude: grid('longitude'),
    generationtime_ms: 0.0431537628173828,
    utc_offset_seconds: 0,
    timezone: 'GMT',
    timezone_abbreviation: 'GMT',
    elevation: options.elevation ?? 38,
    hourly_units: Object.fromEntries(['time', ...variables].map((v) => [v, OPEN_METEO_UNITS[v] ?? ''])),
    hourly: {
      time: instants.map((t) => t.toISOString().slice(0, 16)),
      ...Object.fromEntries(variables.map((v) => [v, instants.map((t, i) => value(v, i, t))])),
    },
  };
}

export interface OpenMeteoStandIn {
  /** Every request the stand-in received since the file started (clear it with `requests.length = 0`). */
  requests: URL[];
  /** `http://127.0.0.1:<port>`. */
  base(): string;
}

/**
 * Starts the stand-in for the file and points WEATHER_PROVIDER (`open-meteo` unless given) and the Open-Meteo URLs
 * at it; the back-off, the call budget and the kept health probe start afresh.
 */
export function useOpenMeteoStandIn(answer: RequestListener, options: { provider?: 'open-meteo' | 'auto' } = {}): OpenMeteoStandIn {
  let upstream: Server;
  let base = '';
  const requests: URL[] = [];
  const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
  beforeAll(async () => {
    upstream = createServer((req: IncomingMessage, res) => {
      requests.push(new URL(req.url ?? '/', base));
      answer(req, res);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    Object.assign(process.env, { WEATHER_PROVIDER: options.provider ?? 'open-meteo', OPEN_METEO_FORECAST_URL: `${base}/v1/forecast`, OPEN_METEO_ARCHIVE_URL: `${base}/v1/archive` });
    resetConfig();
    resetWeatherState();
    resetWeatherHealth();
  });
  afterAll(async () => {
    for (const name of VARIABLES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    resetConfig();
    resetWeatherState();
    resetWeatherHealth();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });
  return { requests, base: () => base };
}

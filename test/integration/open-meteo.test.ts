/** The Open-Meteo adapter against a loopback server that answers as Open-Meteo does. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resetConfig } from '../../shared/config';
import { weatherProvider, WeatherUnavailable } from '../../shared/weather';
import { OfflineWeatherProvider } from '../../shared/weather/offline';
import { OPEN_METEO_HOURLY, OpenMeteoProvider } from '../../shared/weather/open-meteo';

type Responder = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

let server: Server;
let base: string;
let respond: Responder;
const requests: URL[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    requests.push(url);
    respond(req, res, url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  requests.length = 0;
});

const json = (status: number, body: unknown): Responder => (_req, res) => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
};

/** Open-Meteo's hourly answer for whole UTC days from start_date to end_date, values derived from the hour index. */
function openMeteoDays(url: URL, override: (i: number) => Partial<Record<string, number | null>> = () => ({})) {
  const first = Date.parse(`${url.searchParams.get('start_date')}T00:00:00Z`);
  const last = Date.parse(`${url.searchParams.get('end_date')}T00:00:00Z`);
  const hours = (last - first) / 3_600_000 + 24;
  const time = Array.from({ length: hours }, (_, i) => new Date(first + i * 3_600_000).toISOString().slice(0, 16));
  const column = (name: string, f: (i: number) => number) => time.map((_, i) => (name in override(i) ? override(i)[name]! : f(i)));
  return {
    latitude: 52.52,
    longitude: 13.419998,
    generationtime_ms: 0.04,
    utc_offset_seconds: 0,
    timezone: 'GMT',
    timezone_abbreviation: 'GMT',
    elevation: 38,
    hourly_units: { time: 'iso8601', temperature_2m: '°C', shortwave_radiation: 'W/m²', wind_speed_10m: 'm/s', cloud_cover: '%', relative_humidity_2m: '%', surface_pressure: 'hPa' },
    hourly: {
      time,
      temperature_2m: column('temperature_2m', (i) => 10 + i / 10),
      shortwave_radiation: column('shortwave_radiation', (i) => (i % 24 >= 6 && i % 24 <= 18 ? 100 * (i % 24) : 0)),
      wind_speed_10m: column('wind_speed_10m', (i) => 3 + (i % 5)),
      cloud_cover: column('cloud_cover', (i) => (i * 7) % 101),
      relative_humidity_2m: column('relative_humidity_2m', () => 71),
      surface_pressure: column('surface_pressure', (i) => 1000 + i),
    },
  };
}

const provider = (options: Partial<ConstructorParameters<typeof OpenMeteoProvider>[0]> = {}) =>
  new OpenMeteoProvider({ forecastUrl: `${base}/v1/forecast`, archiveUrl: `${base}/v1/archive`, timeoutMs: 2000, now: () => new Date('2024-07-01T12:00:00Z'), ...options });

const BERLIN_JUNE = { latitude: 52.52, longitude: 13.405, start: new Date('2024-06-19T22:00:00Z'), end: new Date('2024-06-21T22:00:00Z') };

async function failure(promise: Promise<unknown>): Promise<WeatherUnavailable> {
  try {
    await promise;
  } catch (err) {
    return err as WeatherUnavailable;
  }
  throw new Error('expected a failure');
}

describe('Open-Meteo adapter: answers', () => {
  it('asks for the six hourly variables in GMT and m/s and maps them to weather points in [start, end)', async () => {
    respond = (_req, res, url) => json(200, openMeteoDays(url))(_req, res, url);
    const points = await provider().hourly(BERLIN_JUNE);

    expect(requests).toHaveLength(1);
    const q = requests[0].searchParams;
    expect(requests[0].pathname).toBe('/v1/archive'); // 2024-06-21 is more than 5 days before "today" (1 July)
    expect(Object.fromEntries(q)).toEqual({
      latitude: '52.52',
      longitude: '13.405',
      hourly: 'temperature_2m,shortwave_radiation,wind_speed_10m,cloud_cover,relative_humidity_2m,surface_pressure',
      timezone: 'GMT',
      wind_speed_unit: 'ms',
      start_date: '2024-06-19',
      end_date: '2024-06-21',
    });
    expect(q.get('hourly')!.split(',')).toEqual([...OPEN_METEO_HOURLY]);

    // 72 hours served from 2024-06-19T00:00; the range keeps hours 22..69
    expect(points).toHaveLength(48);
    expect(points[0]).toEqual({
      timestamp: '2024-06-19T22:00:00.000Z',
      temperature_c: 12.2,
      solar_radiation_wm2: 0,
      wind_speed_ms: 5,
      cloud_cover_pct: 53,
      humidity_pct: 71,
      pressure_hpa: 1022,
    });
    expect(points[14]).toMatchObject({ timestamp: '2024-06-20T12:00:00.000Z', solar_radiation_wm2: 1200, pressure_hpa: 1036 });
    expect(points.at(-1)!.timestamp).toBe('2024-06-21T21:00:00.000Z');
  });

  it('takes the archive up to five days ago and the forecast API after, splitting a range across the boundary', async () => {
    respond = (_req, res, url) => json(200, openMeteoDays(url))(_req, res, url);
    const points = await provider().hourly({ latitude: 1, longitude: 2, start: new Date('2024-06-24T00:00:00Z'), end: new Date('2024-06-29T00:00:00Z') });
    const asked = requests.map((u) => [u.pathname, u.searchParams.get('start_date'), u.searchParams.get('end_date')]).sort();
    expect(asked).toEqual([
      ['/v1/archive', '2024-06-24', '2024-06-26'],
      ['/v1/forecast', '2024-06-27', '2024-06-28'],
    ]);
    expect(points).toHaveLength(120);
    expect(points.every((p, i) => i === 0 || Date.parse(p.timestamp) - Date.parse(points[i - 1].timestamp) === 3_600_000)).toBe(true);

    requests.length = 0;
    await provider().hourly({ latitude: 1, longitude: 2, start: new Date('2024-07-01T00:00:00Z'), end: new Date('2024-07-03T00:00:00Z') });
    expect(requests.map((u) => u.pathname)).toEqual(['/v1/forecast']);
  });

  it('uses the forecast API for the whole range in forecast mode', async () => {
    respond = (_req, res, url) => json(200, openMeteoDays(url))(_req, res, url);
    await provider().hourly({ ...BERLIN_JUNE, mode: 'forecast' });
    expect(requests.map((u) => u.pathname)).toEqual(['/v1/forecast']);
  });

  it('leaves out hours with a missing value and fails when none is complete', async () => {
    respond = (_req, res, url) => json(200, openMeteoDays(url, (i) => (i === 23 ? { wind_speed_10m: null } : {})))(_req, res, url);
    const points = await provider().hourly(BERLIN_JUNE);
    expect(points).toHaveLength(47);
    expect(points.map((p) => p.timestamp)).not.toContain('2024-06-19T23:00:00.000Z');

    respond = (_req, res, url) => json(200, openMeteoDays(url, () => ({ temperature_2m: null })))(_req, res, url);
    const err = await failure(provider().hourly(BERLIN_JUNE));
    expect(err).toBeInstanceOf(WeatherUnavailable);
    expect(err.message).toBe('Open-Meteo has no complete hourly data for 2024-06-19..2024-06-21');
  });

  it('answers an empty range without asking', async () => {
    expect(await provider().hourly({ ...BERLIN_JUNE, end: BERLIN_JUNE.start })).toEqual([]);
    expect(requests).toHaveLength(0);
  });
});

describe('Open-Meteo adapter: failures become WeatherUnavailable (502) with the reason', () => {
  it('passes on Open-Meteo’s own error body', async () => {
    respond = json(400, { error: true, reason: "Parameter 'start_date' is out of allowed range from 1940-01-01 to 2024-06-26" });
    const err = await failure(provider().hourly(BERLIN_JUNE));
    expect(err).toBeInstanceOf(WeatherUnavailable);
    expect(err.status).toBe(502);
    expect(err.message).toBe("Open-Meteo refused the request: Parameter 'start_date' is out of allowed range from 1940-01-01 to 2024-06-26");
  });

  it('names an HTTP error', async () => {
    respond = (_req, res) => res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Internal Server Error</h1>');
    const err = await failure(provider().hourly(BERLIN_JUNE));
    expect(err).toMatchObject({ status: 502, message: 'Open-Meteo answered HTTP 500' });
  });

  it('refuses a body that is not JSON, or JSON of another shape', async () => {
    respond = json(200, '{"latitude":52.52,"hourly":{"time":["2024-06-20T00:00"');
    expect(await failure(provider().hourly(BERLIN_JUNE))).toMatchObject({ status: 502, message: 'Open-Meteo answered with a body that is not JSON' });

    respond = json(200, { latitude: 52.52, hourly: { time: ['2024-06-20T00:00'], temperature_2m: [12.1] } });
    const err = await failure(provider().hourly(BERLIN_JUNE));
    expect(err).toBeInstanceOf(WeatherUnavailable);
    expect(err.message).toMatch(/^Open-Meteo answered in an unexpected format \(hourly\.shortwave_radiation: /);

    respond = (_req, res, url) => {
      const body = openMeteoDays(url);
      body.hourly.cloud_cover.pop();
      json(200, body)(_req, res, url);
    };
    expect(await failure(provider().hourly(BERLIN_JUNE))).toMatchObject({ message: 'Open-Meteo answered in an unexpected format (hourly arrays of different lengths)' });
  });

  it('gives up after the time-out when the server never answers', async () => {
    respond = () => undefined; // accepts the request and stays silent
    const started = Date.now();
    const err = await failure(provider({ timeoutMs: 150 }).hourly(BERLIN_JUNE));
    expect(err).toMatchObject({ status: 502, message: 'Open-Meteo did not answer within 150 ms' });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('says when the service cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure(provider({ forecastUrl: `http://127.0.0.1:${port}/v1/forecast`, archiveUrl: `http://127.0.0.1:${port}/v1/archive` }).hourly(BERLIN_JUNE));
    expect(err).toMatchObject({ status: 502, message: 'Open-Meteo could not be reached' });
  });
});

describe('weatherProvider from configuration', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetConfig();
  });

  it('is the offline model by default', () => {
    delete process.env.WEATHER_PROVIDER;
    resetConfig();
    expect(weatherProvider()).toBeInstanceOf(OfflineWeatherProvider);
    expect(weatherProvider().name).toBe('offline-climatology');
  });

  it('is Open-Meteo at the configured addresses and time-out when WEATHER_PROVIDER=open-meteo', async () => {
    Object.assign(process.env, { WEATHER_PROVIDER: 'open-meteo', OPEN_METEO_FORECAST_URL: `${base}/forecast-here`, OPEN_METEO_ARCHIVE_URL: `${base}/archive-here`, WEATHER_TIMEOUT_MS: '120' });
    resetConfig();
    respond = (_req, res, url) => json(200, openMeteoDays(url))(_req, res, url);
    const chosen = weatherProvider();
    expect(chosen.name).toBe('open-meteo');
    await chosen.hourly({ ...BERLIN_JUNE, mode: 'forecast' });
    expect(requests.map((u) => u.pathname)).toEqual(['/forecast-here']);

    respond = () => undefined;
    expect(await failure(chosen.hourly(BERLIN_JUNE))).toMatchObject({ message: 'Open-Meteo did not answer within 120 ms' });
  });
});

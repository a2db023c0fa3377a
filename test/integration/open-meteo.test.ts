/** The Open-Meteo adapter against a loopback server that answers as Open-Meteo does. */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { resetConfig } from '../../shared/config';
import { resetWeatherState, weatherProvider, WeatherRateLimited, WeatherUnavailable } from '../../shared/weather-providers';
import { CallBudget, callWindows } from '../../shared/weather-providers/call-budget';
import { OfflineWeatherProvider } from '../../shared/weather-providers/offline';
import { OPEN_METEO_HOURLY, OpenMeteoProvider } from '../../shared/weather-providers/open-meteo';
import { CachedOpenMeteo } from '../../shared/weather-providers/weather-cell-cache';
import { openMeteoAnswer } from '../helpers/open-meteo-stand-in';

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

/** Values derived from the hour index, so that each point can be checked. */
const SYNTHETIC: Record<string, (i: number) => number> = {
  temperature_2m: (i) => 10 + i / 10,
  shortwave_radiation: (i) => (i % 24 >= 6 && i % 24 <= 18 ? 100 * (i % 24) : 0),
  wind_speed_10m: (i) => 3 + (i % 5),
  cloud_cover: (i) => (i * 7) % 101,
  relative_humidity_2m: () => 71,
  surface_pressure: (i) => 1000 + i,
  direct_normal_irradiance: (i) => (i % 24 >= 6 && i % 24 <= 18 ? 50 * (i % 24) : 0),
  diffuse_radiation: (i) => (i % 24 >= 6 && i % 24 <= 18 ? 10 * (i % 24) : 0),
};

/** Open-Meteo's hourly answer for whole UTC days from start_date to end_date, values derived from the hour index. */
function openMeteoDays(url: URL, override: (i: number) => Partial<Record<string, number | null>> = () => ({})) {
  return openMeteoAnswer(url, (v, i) => (v in override(i) ? override(i)[v]! : SYNTHETIC[v](i)));
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
  it('asks for the eight hourly variables in GMT and m/s and maps them to weather points in [start, end)', async () => {
    respond = (_req, res, url) => json(200, openMeteoDays(url))(_req, res, url);
    const points = await provider().hourly(BERLIN_JUNE);

    expect(requests).toHaveLength(1);
    const q = requests[0].searchParams;
    expect(requests[0].pathname).toBe('/v1/archive'); // 2024-06-21 is more than 5 days before "today" (1 July)
    expect(Object.fromEntries(q)).toEqual({
      latitude: '52.52',
      longitude: '13.405',
      hourly: 'temperature_2m,shortwave_radiation,wind_speed_10m,cloud_cover,relative_humidity_2m,surface_pressure,direct_normal_irradiance,diffuse_radiation',
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
      dni_wm2: 0,
      dhi_wm2: 0,
    });
    expect(points[14]).toMatchObject({ timestamp: '2024-06-20T12:00:00.000Z', solar_radiation_wm2: 1200, pressure_hpa: 1036, dni_wm2: 600, dhi_wm2: 120 });
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

  it('keeps an hour without DNI or DHI, only without them', async () => {
    respond = (_req, res, url) => json(200, openMeteoDays(url, (i) => (i === 36 ? { direct_normal_irradiance: null } : {})))(_req, res, url);
    const points = await provider().hourly(BERLIN_JUNE);
    expect(points).toHaveLength(48);
    const noon = points.find((p) => p.timestamp === '2024-06-20T12:00:00.000Z')!;
    expect(noon.solar_radiation_wm2).toBe(1200);
    expect(noon).not.toHaveProperty('dni_wm2');
    expect(noon).not.toHaveProperty('dhi_wm2');
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

  it('gives up after the time-out when the server never answers, as an outage', async () => {
    respond = () => undefined; // accepts the request and stays silent
    const started = Date.now();
    const err = await failure(provider({ timeoutMs: 150 }).hourly(BERLIN_JUNE));
    expect(err).toMatchObject({ status: 502, message: 'Open-Meteo did not answer within 150 ms', outage: true });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('tells an outage (5xx) from a refusal of this request (4xx)', async () => {
    respond = json(503, { error: true, reason: 'Service temporarily unavailable' });
    expect(await failure(provider().hourly(BERLIN_JUNE))).toMatchObject({ status: 502, outage: true, message: 'Open-Meteo refused the request: Service temporarily unavailable' });
    respond = json(400, { error: true, reason: 'Cannot initialize WeatherVariable from invalid String value x' });
    expect(await failure(provider().hourly(BERLIN_JUNE))).toMatchObject({ status: 502, outage: false });
  });

  it('answers 503 when Open-Meteo says the rate limit is reached (HTTP 429)', async () => {
    respond = json(429, { error: true, reason: 'Minutely API request limit exceeded. Please try again in one minute.' });
    const err = await failure(provider().hourly(BERLIN_JUNE));
    expect(err).toBeInstanceOf(WeatherRateLimited);
    expect(err).toMatchObject({ status: 503, retryAfterSeconds: 60, message: 'Open-Meteo refused the request as over its rate limit: Minutely API request limit exceeded. Please try again in one minute.' });
  });

  it('says when the service cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure(provider({ forecastUrl: `http://127.0.0.1:${port}/v1/forecast`, archiveUrl: `http://127.0.0.1:${port}/v1/archive` }).hourly(BERLIN_JUNE));
    expect(err).toMatchObject({ status: 502, message: 'Open-Meteo could not be reached', outage: true });
  });
});

describe('Open-Meteo adapter: call budget', () => {
  it('takes each request’s weight from the budget and asks nothing once it is spent (503 with Retry-After)', async () => {
    respond = (_req, res, url) => json(200, openMeteoDays(url))(_req, res, url);
    let now = 0;
    const budget = new CallBudget(callWindows({ perMinute: 3, perHour: 100, perDay: 1000 }), () => now);
    const limited = provider({ budget });
    // 28 days of 8 variables weigh 2 calls (Open-Meteo counts more than 14 days as several); 3 days weigh 1.
    await limited.hourly({ latitude: 1, longitude: 2, start: new Date('2024-05-01T00:00:00Z'), end: new Date('2024-05-29T00:00:00Z') });
    expect(budget.remaining().minute).toBeCloseTo(1, 9);
    await limited.hourly(BERLIN_JUNE);
    expect(requests).toHaveLength(2);
    const err = await failure(limited.hourly(BERLIN_JUNE));
    expect(err).toBeInstanceOf(WeatherRateLimited);
    expect(err).toMatchObject({ status: 503, retryAfterSeconds: 20, message: 'Open-Meteo call budget spent for this minute (free-tier limits, shared/weather-providers/call-budget.ts)' });
    expect(requests).toHaveLength(2);
    now += 20_000; // a third of a minute brings one call back
    await limited.hourly(BERLIN_JUNE);
    expect(requests).toHaveLength(3);
  });
});

describe('Open-Meteo adapter: the health probe', () => {
  it('asks for one variable for today at 0 N 0 E and resolves on an answer in the format', async () => {
    respond = (_req, res, url) => json(200, openMeteoDays(url))(_req, res, url);
    await provider().probe(500);
    expect(requests).toHaveLength(1);
    expect(requests[0].pathname).toBe('/v1/forecast');
    expect(Object.fromEntries(requests[0].searchParams)).toEqual({ latitude: '0', longitude: '0', hourly: 'temperature_2m', timezone: 'GMT', start_date: '2024-07-01', end_date: '2024-07-01' });
  });

  it('rejects on silence within its own time-out', async () => {
    respond = () => undefined;
    expect(await failure(provider().probe(100))).toMatchObject({ message: 'Open-Meteo did not answer within 100 ms', outage: true });
  });
});

describe('a recorded-style answer through the real adapter', () => {
  // PVOD station 01 (Hebei, 38.18 N 117.46 E) on 2018-07-01 in Open-Meteo's archive format: test/fixtures/open-meteo/README.md.
  const fixture = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/open-meteo/pvod-station01-2018-07-01-archive.json'), 'utf8'));

  it('maps every hour of the fixture, irradiance components included, to UTC points', async () => {
    respond = json(200, fixture);
    const points = await provider({ now: () => new Date('2024-07-01T00:00:00Z') }).hourly({ latitude: 38.18306, longitude: 117.45722, start: new Date('2018-07-01T00:00:00Z'), end: new Date('2018-07-02T00:00:00Z') });
    expect(requests[0].pathname).toBe('/v1/archive');
    expect(points).toHaveLength(24);
    expect(points.map((p) => p.timestamp)).toEqual(fixture.hourly.time.map((t: string) => `${t}:00.000Z`));
    points.forEach((p, i) => {
      expect(p).toEqual({
        timestamp: `${fixture.hourly.time[i]}:00.000Z`,
        temperature_c: fixture.hourly.temperature_2m[i],
        solar_radiation_wm2: fixture.hourly.shortwave_radiation[i],
        wind_speed_ms: fixture.hourly.wind_speed_10m[i],
        cloud_cover_pct: fixture.hourly.cloud_cover[i],
        humidity_pct: fixture.hourly.relative_humidity_2m[i],
        pressure_hpa: fixture.hourly.surface_pressure[i],
        dni_wm2: fixture.hourly.direct_normal_irradiance[i],
        dhi_wm2: fixture.hourly.diffuse_radiation[i],
      });
    });
    // Solar noon at 117.46 E is about 04:10 UTC: the hours ending 13:00-20:00 UTC are night there.
    const night = points.filter((p) => p.timestamp >= '2018-07-01T13' && p.timestamp <= '2018-07-01T20:00:00.000Z');
    expect(night).toHaveLength(8);
    expect(night.every((p) => p.solar_radiation_wm2 === 0 && p.dni_wm2 === 0 && p.dhi_wm2 === 0)).toBe(true);
  });

  it('goes through the cell cache for the cell’s centre, the fixture’s own grid point', async () => {
    respond = json(200, fixture);
    const cached = new CachedOpenMeteo(provider({ now: () => new Date('2024-07-01T00:00:00Z') }), null);
    const points = await cached.hourly({ latitude: 38.18306, longitude: 117.45722, start: new Date('2018-07-01T06:00:00Z'), end: new Date('2018-07-01T09:00:00Z') });
    expect(points.map((p) => p.timestamp)).toEqual(['2018-07-01T06:00:00.000Z', '2018-07-01T07:00:00.000Z', '2018-07-01T08:00:00.000Z']);
    expect(Object.fromEntries(requests[0].searchParams)).toMatchObject({ latitude: '38.2', longitude: '117.5', start_date: '2018-07-01', end_date: '2018-07-01' });
    expect([fixture.latitude, fixture.longitude]).toEqual([38.2, 117.5]);
  });
});

describe('weatherProvider from configuration', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetConfig();
    resetWeatherState();
  });

  it('is auto by default: Open-Meteo, reported as the offline model once it falls back', async () => {
    delete process.env.WEATHER_PROVIDER;
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    Object.assign(process.env, { WEATHER_CACHE: 'none', OPEN_METEO_FORECAST_URL: `http://127.0.0.1:${port}/v1/forecast`, OPEN_METEO_ARCHIVE_URL: `http://127.0.0.1:${port}/v1/archive` });
    resetConfig();
    const chosen = weatherProvider();
    expect(chosen.name).toBe('open-meteo');
    const points = await chosen.hourly({ ...BERLIN_JUNE, elevationM: 34 });
    expect(points).toHaveLength(48);
    expect(chosen.name).toBe('offline-climatology');
  });

  it('is the offline model with WEATHER_PROVIDER=offline', () => {
    process.env.WEATHER_PROVIDER = 'offline';
    resetConfig();
    expect(weatherProvider()).toBeInstanceOf(OfflineWeatherProvider);
    expect(weatherProvider().name).toBe('offline-climatology');
  });

  it('is Open-Meteo at the configured addresses and time-out when WEATHER_PROVIDER=open-meteo', async () => {
    Object.assign(process.env, { WEATHER_PROVIDER: 'open-meteo', WEATHER_CACHE: 'none', OPEN_METEO_FORECAST_URL: `${base}/forecast-here`, OPEN_METEO_ARCHIVE_URL: `${base}/archive-here`, WEATHER_TIMEOUT_MS: '120' });
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

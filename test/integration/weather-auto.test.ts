/** weatherFor and the weather health probe in each WEATHER_PROVIDER mode, against the loopback Open-Meteo stand-in. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resetConfig } from '../../shared/config';
import { standardPressureHpa } from '../../shared/domain/weather/climatology';
import { offlineWeather } from '../../shared/domain/weather/offline-model';
import { resetWeatherState, weatherFor, weatherHealth, WeatherRateLimited, WeatherUnavailable } from '../../shared/weather-providers';
import { resetWeatherHealth } from '../../shared/weather-providers/weather-health';
import { openMeteoAnswer, useOpenMeteoStandIn } from '../helpers/open-meteo-stand-in';

type Responder = (req: IncomingMessage, res: ServerResponse) => void;
let respond: Responder;
const standIn = useOpenMeteoStandIn((req, res) => respond(req, res), { provider: 'auto' });

/** Plausible hourly values: 20 C, 500 W/m2 by day, 3 m/s, half cloud. */
const answering: Responder = (req, res) => {
  const url = new URL(req.url!, standIn.base());
  const body = openMeteoAnswer(url, (v, _i, at) => {
    const day = at.getUTCHours() >= 6 && at.getUTCHours() <= 18;
    return ({ temperature_2m: 20, shortwave_radiation: day ? 500 : 0, wind_speed_10m: 3, cloud_cover: 50, relative_humidity_2m: 60, surface_pressure: 1000, direct_normal_irradiance: day ? 400 : 0, diffuse_radiation: day ? 150 : 0 })[v] ?? null;
  });
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};
const silent: Responder = () => undefined;
const json = (status: number, body: unknown): Responder => (_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

const BERLIN_DAY = { latitude: 52.52, longitude: 13.405, elevationM: 34, start: new Date('2024-06-20T00:00:00Z'), end: new Date('2024-06-21T00:00:00Z'), mode: 'forecast' as const };
const saved = { ...process.env };

/** The environment for one test, on top of the stand-in's: no cache (no store here), short time-outs. */
function configure(env: Record<string, string>): void {
  process.env = { ...saved, WEATHER_PROVIDER: 'auto', OPEN_METEO_FORECAST_URL: `${standIn.base()}/v1/forecast`, OPEN_METEO_ARCHIVE_URL: `${standIn.base()}/v1/archive`, WEATHER_CACHE: 'none', WEATHER_TIMEOUT_MS: '150', ...env };
  resetConfig();
  resetWeatherState();
  resetWeatherHealth();
}

beforeEach(() => {
  standIn.requests.length = 0;
  respond = answering;
  configure({});
});
afterAll(() => {
  process.env = saved;
  resetConfig();
});

async function closedPort(): Promise<number> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  return port;
}

describe('auto: Open-Meteo when it answers, the offline model when not', () => {
  it('serves Open-Meteo with source open-meteo and no note', async () => {
    const answer = await weatherFor(BERLIN_DAY);
    expect(answer.source).toBe('open-meteo');
    expect(answer.note).toBeUndefined();
    expect(answer.points).toHaveLength(24);
    expect(answer.points[12]).toMatchObject({ timestamp: '2024-06-20T12:00:00.000Z', solar_radiation_wm2: 500, dni_wm2: 400, dhi_wm2: 150 });
  });

  it('falls back to the offline model when the port is closed, and says so', async () => {
    const port = await closedPort();
    configure({ OPEN_METEO_FORECAST_URL: `http://127.0.0.1:${port}/v1/forecast`, OPEN_METEO_ARCHIVE_URL: `http://127.0.0.1:${port}/v1/archive` });
    const answer = await weatherFor(BERLIN_DAY);
    expect(answer.source).toBe('offline-climatology');
    expect(answer.note).toBe('Open-Meteo unavailable (Open-Meteo could not be reached): offline climatology served');
    expect(answer.points).toEqual(offlineWeather({ latitude: 52.52, longitude: 13.405, elevationM: 34, start: BERLIN_DAY.start, end: BERLIN_DAY.end }));
  });

  it('skips Open-Meteo for the back-off after a time-out, then asks again', async () => {
    configure({ WEATHER_BACKOFF_SECONDS: '1' });
    respond = silent;
    const first = await weatherFor(BERLIN_DAY);
    expect(first.source).toBe('offline-climatology');
    expect(first.note).toBe('Open-Meteo unavailable (Open-Meteo did not answer within 150 ms): offline climatology served');
    expect(standIn.requests).toHaveLength(1);

    const started = Date.now();
    const second = await weatherFor(BERLIN_DAY);
    expect(Date.now() - started).toBeLessThan(100); // no time-out paid
    expect(standIn.requests).toHaveLength(1);
    expect(second.source).toBe('offline-climatology');
    expect(second.note).toMatch(/^Open-Meteo unavailable \(Open-Meteo did not answer within 150 ms; not asked again before \d{4}-\d\d-\d\dT[\d:.]+Z\): offline climatology served$/);

    respond = answering;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const third = await weatherFor(BERLIN_DAY);
    expect(third.source).toBe('open-meteo');
    expect(standIn.requests).toHaveLength(2);
  });

  it('falls back on a refusal of the request without a back-off: the next request asks again', async () => {
    respond = json(400, { error: true, reason: 'Parameter start_date out of allowed range' });
    expect(await weatherFor(BERLIN_DAY)).toMatchObject({ source: 'offline-climatology', note: 'Open-Meteo unavailable (Open-Meteo refused the request: Parameter start_date out of allowed range): offline climatology served' });
    respond = answering;
    expect((await weatherFor(BERLIN_DAY)).source).toBe('open-meteo');
    expect(standIn.requests).toHaveLength(2);
  });

  it('falls back when this process has spent its call budget, without asking', async () => {
    configure({ OPEN_METEO_CALLS_PER_MINUTE: '1' });
    expect((await weatherFor(BERLIN_DAY)).source).toBe('open-meteo');
    const second = await weatherFor(BERLIN_DAY);
    expect(second.source).toBe('offline-climatology');
    expect(second.note).toBe('Open-Meteo not asked (Open-Meteo call budget spent for this minute (free-tier limits, shared/weather-providers/call-budget.ts)): offline climatology served');
    expect(standIn.requests).toHaveLength(1);
  });
});

describe('open-meteo: no fallback', () => {
  it('answers 502 with the reason when Open-Meteo cannot answer', async () => {
    configure({ WEATHER_PROVIDER: 'open-meteo' });
    respond = silent;
    const err = await weatherFor(BERLIN_DAY).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WeatherUnavailable);
    expect(err).toMatchObject({ status: 502, message: 'Open-Meteo did not answer within 150 ms' });
  });

  it('answers 503 with Retry-After when the call budget is spent', async () => {
    configure({ WEATHER_PROVIDER: 'open-meteo', OPEN_METEO_CALLS_PER_MINUTE: '1' });
    expect((await weatherFor(BERLIN_DAY)).source).toBe('open-meteo');
    const err = await weatherFor(BERLIN_DAY).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WeatherRateLimited);
    expect(err).toMatchObject({ status: 503, retryAfterSeconds: 60 });
    expect(standIn.requests).toHaveLength(1);
  });
});

describe('offline: never the network; elevation from the query, else the gazetteer', () => {
  beforeEach(() => configure({ WEATHER_PROVIDER: 'offline' }));

  it('uses the elevation given', async () => {
    const answer = await weatherFor({ ...BERLIN_DAY, elevationM: 1000 });
    expect(answer).toMatchObject({ source: 'offline-climatology' });
    expect(answer.note).toBeUndefined();
    for (const p of answer.points) expect(Math.abs(p.pressure_hpa - standardPressureHpa(1000))).toBeLessThan(1.16);
    expect(standIn.requests).toHaveLength(0);
  });

  it('takes Nairobi’s elevation from the gazetteer (about 1,700 m: no longer 1,013 hPa)', async () => {
    const answer = await weatherFor({ latitude: -1.2864, longitude: 36.8172, start: BERLIN_DAY.start, end: BERLIN_DAY.end });
    expect(answer.note).toBeUndefined();
    const pressure = answer.points.reduce((s, p) => s + p.pressure_hpa, 0) / answer.points.length;
    expect(pressure).toBeGreaterThan(standardPressureHpa(1800));
    expect(pressure).toBeLessThan(standardPressureHpa(1500));
  });

  it('assumes sea level in mid-ocean, and says so', async () => {
    const answer = await weatherFor({ latitude: 0, longitude: -30, start: BERLIN_DAY.start, end: BERLIN_DAY.end });
    expect(answer.note).toBe('site elevation unknown: sea level assumed');
    expect(answer.points).toEqual(offlineWeather({ latitude: 0, longitude: -30, elevationM: 0, start: BERLIN_DAY.start, end: BERLIN_DAY.end }));
  });
});

describe('weather_api in GET /health', () => {
  it('offline: operational, the offline climatology in the detail, without asking anyone', async () => {
    configure({ WEATHER_PROVIDER: 'offline' });
    expect(await weatherHealth()).toEqual({ operational: true, status: 'operational', detail: 'offline climatology (WEATHER_PROVIDER=offline)' });
    expect(standIn.requests).toHaveLength(0);
  });

  it('auto: says Open-Meteo answered, and asks at most once a minute', async () => {
    expect(await weatherHealth()).toEqual({ operational: true, status: 'operational', detail: 'Open-Meteo answered' });
    expect(await weatherHealth()).toEqual({ operational: true, status: 'operational', detail: 'Open-Meteo answered' });
    expect(standIn.requests).toHaveLength(1);
    expect(standIn.requests[0].searchParams.get('hourly')).toBe('temperature_2m');
    expect((await weatherHealth(Date.now() + 61_000)).detail).toBe('Open-Meteo answered');
    expect(standIn.requests).toHaveLength(2);
  });

  it('auto: degraded weather but a healthy service with the fallback, says why, and the requests after it skip Open-Meteo', async () => {
    configure({ WEATHER_TIMEOUT_MS: '5000' });
    respond = silent;
    const started = Date.now();
    expect(await weatherHealth()).toEqual({ operational: true, status: 'degraded: Open-Meteo did not answer within 2000 ms; the offline climatology serves', detail: 'offline climatology fallback: Open-Meteo did not answer within 2000 ms' });
    expect(Date.now() - started).toBeLessThan(2600); // the probe's own time-out, not the 5 s of a weather request
    const answer = await weatherFor(BERLIN_DAY);
    expect(answer.source).toBe('offline-climatology');
    expect(standIn.requests).toHaveLength(1);
  });

  it('open-meteo: unavailable, with the reason, when Open-Meteo does not answer', async () => {
    configure({ WEATHER_PROVIDER: 'open-meteo' });
    respond = json(500, { error: true, reason: 'Internal error' });
    expect(await weatherHealth()).toEqual({ operational: false, status: 'unavailable: Open-Meteo refused the request: Internal error', detail: 'Open-Meteo failed: Open-Meteo refused the request: Internal error' });
    respond = answering;
    resetWeatherHealth();
    expect(await weatherHealth()).toEqual({ operational: true, status: 'operational', detail: 'Open-Meteo answered' });
  });
});

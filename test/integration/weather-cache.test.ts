/** The Open-Meteo cell cache in the embedded DynamoDB: requests counted at the loopback stand-in. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/store/aws-clients';
import { keys } from '../../shared/store/keys';
import { tableName } from '../../shared/store/tables';
import { readWeatherDays, writeWeatherDay } from '../../shared/store/weather-cache-repo';
import { weatherFor } from '../../shared/weather-providers';
import { ARCHIVE_CACHE_MS, FORECAST_CACHE_MS } from '../../shared/weather-providers/weather-cell-cache';
import { openMeteoAnswer, useOpenMeteoStandIn } from '../helpers/open-meteo-stand-in';
import { useRuntime } from '../helpers/runtime';

useRuntime();
const standIn = useOpenMeteoStandIn((req, res) => {
  const url = new URL(req.url!, standIn.base());
  // Values that name the cell asked for, so a cached answer can be told from a fresh one.
  const lat = Number(url.searchParams.get('latitude'));
  const body = openMeteoAnswer(url, (v, i) => (v === 'temperature_2m' ? lat : v === 'shortwave_radiation' ? i : 1));
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
});

const DAY_MS = 86_400_000;
const today = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
const tomorrow = new Date(today.getTime() + DAY_MS);
const range = { start: today, end: tomorrow, mode: 'forecast' as const };

beforeEach(() => {
  standIn.requests.length = 0;
});

describe('weather cached per 0.1-degree cell and UTC day', () => {
  it('asks Open-Meteo once for two sites in the same cell, for the cell’s centre', async () => {
    const first = await weatherFor({ latitude: 48.137, longitude: 11.575, ...range }); // Munich, Marienplatz
    expect(standIn.requests).toHaveLength(1);
    expect(Object.fromEntries(standIn.requests[0].searchParams)).toMatchObject({ latitude: '48.1', longitude: '11.6' });

    const second = await weatherFor({ latitude: 48.149, longitude: 11.56, ...range }); // 1.7 km away, same cell
    expect(standIn.requests).toHaveLength(1);
    expect(second).toEqual(first);
    expect(second.source).toBe('open-meteo');
    expect(second.points).toHaveLength(24);
    expect(second.points[0].temperature_c).toBe(48.1);
  });

  it('asks again for another cell, and for another mode of the same cell', async () => {
    await weatherFor({ latitude: 48.137, longitude: 11.575, ...range });
    standIn.requests.length = 0;
    await weatherFor({ latitude: 48.2, longitude: 11.575, ...range });
    await weatherFor({ latitude: 48.137, longitude: 11.575, ...range, mode: 'history' });
    expect(standIn.requests.map((u) => [u.searchParams.get('latitude'), u.pathname])).toEqual([
      ['48.2', '/v1/forecast'],
      ['48.1', '/v1/forecast'], // history of today and tomorrow: the forecast API (the archive lags 5 days)
    ]);
  });

  it('shares one upstream call among simultaneous requests for one cell', async () => {
    const sites = Array.from({ length: 20 }, (_, i) => ({ latitude: 40.4168 + i * 0.001, longitude: -3.7038, ...range })); // Madrid
    const answers = await Promise.all(sites.map(weatherFor));
    expect(standIn.requests).toHaveLength(1);
    expect(new Set(answers.map((a) => JSON.stringify(a.points))).size).toBe(1);
  });

  it('fetches only the days missing from the cache, a request per contiguous run', async () => {
    const lat = 35.7;
    await weatherFor({ latitude: lat, longitude: 139.7, start: today, end: tomorrow, mode: 'forecast' });
    standIn.requests.length = 0;
    const three = await weatherFor({ latitude: lat, longitude: 139.7, start: new Date(today.getTime() - DAY_MS), end: new Date(today.getTime() + 2 * DAY_MS), mode: 'forecast' });
    expect(three.points).toHaveLength(72);
    expect(standIn.requests.map((u) => [u.searchParams.get('start_date'), u.searchParams.get('end_date')]).sort()).toEqual([
      [new Date(today.getTime() - DAY_MS).toISOString().slice(0, 10), new Date(today.getTime() - DAY_MS).toISOString().slice(0, 10)],
      [tomorrow.toISOString().slice(0, 10), tomorrow.toISOString().slice(0, 10)],
    ]);
  });

  it('keeps forecast days an hour and archive days thirty days from their fetch', async () => {
    const before = Date.now();
    await weatherFor({ latitude: 51.5, longitude: -0.12, ...range });
    const oldDay = new Date(today.getTime() - 30 * DAY_MS);
    await weatherFor({ latitude: 51.5, longitude: -0.12, start: oldDay, end: new Date(oldDay.getTime() + DAY_MS) });
    expect(standIn.requests.map((u) => u.pathname)).toEqual(['/v1/forecast', '/v1/archive']);
    const expiry = async (mode: string, day: Date) =>
      Number((await documentClient().send(new GetCommand({ TableName: tableName('analytics'), Key: keys.weatherDay(mode, '51.5,-0.1', day.toISOString().slice(0, 10)) }))).Item?.expires_at);
    const forecastExpiry = await expiry('forecast', today);
    expect(forecastExpiry * 1000).toBeGreaterThanOrEqual(Math.floor((before + FORECAST_CACHE_MS) / 1000) * 1000);
    expect(forecastExpiry * 1000).toBeLessThanOrEqual(Date.now() + FORECAST_CACHE_MS);
    const archiveExpiry = await expiry('history', oldDay);
    expect(archiveExpiry * 1000).toBeGreaterThanOrEqual(Math.floor((before + ARCHIVE_CACHE_MS) / 1000) * 1000);
  });

  it('ignores expired items and asks again', async () => {
    const day = today.toISOString().slice(0, 10);
    const points = Array.from({ length: 24 }, (_, h) => ({ timestamp: new Date(today.getTime() + h * 3_600_000).toISOString(), temperature_c: -99, solar_radiation_wm2: 0, wind_speed_ms: 0, cloud_cover_pct: 0, humidity_pct: 0, pressure_hpa: 0 }));
    await writeWeatherDay('forecast', '10.0,10.0', day, points, Date.now() - 1000);
    expect((await readWeatherDays('forecast', '10.0,10.0', [day])).size).toBe(0);
    const answer = await weatherFor({ latitude: 10, longitude: 10, ...range });
    expect(standIn.requests).toHaveLength(1);
    expect(answer.points[0].temperature_c).toBe(10);
    expect((await readWeatherDays('forecast', '10.0,10.0', [day])).get(day)).toEqual(answer.points);
  });
});

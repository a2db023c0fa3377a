/** POST /api/weather-data over HTTP against the local runtime. */
import { offlineWeather } from '../../shared/domain/weather/offline-model';
import { terrainElevation } from '../../shared/weather-providers/terrain-elevation';
import { ROUTES } from '../../shared/routes';
import { useOpenMeteoStandIn } from '../helpers/open-meteo-stand-in';
import { call, registerKey, useRuntime } from '../helpers/runtime';

// Until the route table names the handler, serve the row with it; a no-op once it does.
const runtime = useRuntime({ routes: ROUTES.map((r) => (r.id === 'weather-data' ? { ...r, handler: 'weather-data' } : r)) });

const BERLIN = { latitude: 52.52, longitude: 13.405, timezone: 'Europe/Berlin' };
const JUNE = { start_date: '2024-06-20', end_date: '2024-06-21' };
const HOUR_MS = 3_600_000;

const localHour = (ts: string, timeZone: string) => Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(new Date(ts)));
const localDate = (ts: string, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(ts)); // YYYY-MM-DD

let key: string;
beforeAll(async () => {
  key = (await registerKey(runtime())).key;
});

const weather = (body: unknown, options: { key?: string } = { key }) => call(runtime(), 'POST', '/api/weather-data', { ...options, json: body });

describe('POST /api/weather-data', () => {
  it('answers the local days of the range hour by hour, end date included, with every parameter', async () => {
    const r = await weather({ location: BERLIN, date_range: JUNE, parameters: ['temperature', 'solar_radiation', 'wind_speed', 'cloud_cover', 'humidity', 'pressure'], forecast_mode: false });
    expect(r.status).toBe(200);
    const rows = r.body.weather_data as Record<string, number | string>[];
    expect(rows).toHaveLength(48);
    expect(rows[0].timestamp).toBe('2024-06-19T22:00:00.000Z'); // 00:00 CEST
    expect(rows.at(-1)!.timestamp).toBe('2024-06-21T21:00:00.000Z'); // 23:00 CEST on the end date
    const steps = rows.slice(1).map((row, i) => Date.parse(row.timestamp as string) - Date.parse(rows[i].timestamp as string));
    expect(new Set(steps)).toEqual(new Set([HOUR_MS]));
    expect(Object.keys(rows[0]).sort()).toEqual(['cloud_cover', 'humidity', 'pressure', 'solar_radiation', 'temperature', 'timestamp', 'wind_speed']);

    // The values are the offline climatological model's, rounded for the answer.
    const model = offlineWeather({ latitude: 52.52, longitude: 13.405, elevationM: terrainElevation(52.52, 13.405)!.elevationM, start: new Date('2024-06-19T22:00:00Z'), end: new Date('2024-06-21T22:00:00Z') });
    rows.forEach((row, i) => {
      expect(row.temperature).toBeCloseTo(model[i].temperature_c, 1);
      expect(row.solar_radiation).toBeCloseTo(model[i].solar_radiation_wm2, 1);
      expect(row.wind_speed).toBeCloseTo(model[i].wind_speed_ms, 2);
      expect(row.pressure).toBeCloseTo(model[i].pressure_hpa, 1);
    });
    expect(r.body).toMatchObject({ source: 'offline-climatology', timezone: 'Europe/Berlin' });
  });

  it('has no sun at Berlin night hours and sun at noon in June', async () => {
    const r = await weather({ location: BERLIN, date_range: JUNE, parameters: ['solar_radiation', 'temperature'] });
    expect(r.status).toBe(200);
    const rows = (r.body.weather_data as { timestamp: string; solar_radiation: number; temperature: number }[]).map((x) => ({ ...x, hour: localHour(x.timestamp, 'Europe/Berlin') }));
    expect(Object.keys(rows[0]).filter((k) => k !== 'hour').sort()).toEqual(['solar_radiation', 'temperature', 'timestamp']);
    const night = rows.filter((x) => [23, 0, 1, 2].includes(x.hour));
    const noon = rows.filter((x) => [11, 12, 13, 14].includes(x.hour));
    expect(night).toHaveLength(8);
    expect(night.every((x) => x.solar_radiation === 0)).toBe(true);
    expect(noon).toHaveLength(8);
    expect(Math.min(...noon.map((x) => x.solar_radiation))).toBeGreaterThan(300);
    // Warmer in the afternoon than before dawn, every day.
    for (const date of ['2024-06-20', '2024-06-21']) {
      const at = (hour: number) => rows.find((x) => x.hour === hour && localDate(x.timestamp, 'Europe/Berlin') === date)!;
      expect(at(16).temperature).toBeGreaterThan(at(4).temperature + 3);
    }
  });

  it('takes the site\'s elevation when given: pressure follows it', async () => {
    const at = async (elevation_m: number) => (await weather({ location: { ...BERLIN, elevation_m }, date_range: JUNE, parameters: ['pressure'] })).body.weather_data[12].pressure;
    const low = await at(0);
    const high = await at(2000);
    // Standard atmosphere: about 1013 hPa at sea level, about 795 hPa at 2,000 m.
    expect(low).toBeGreaterThan(1000);
    expect(high).toBeGreaterThan(780);
    expect(high).toBeLessThan(810);
  });

  it('computes the forecast enhancement from the data', async () => {
    const r = await weather({ location: BERLIN, date_range: JUNE });
    const e = r.body.forecast_enhancement;
    // Climatology: the statistic counts the hour-to-hour variation real weather would add, so it is below 1.
    expect(e.solar_correlation).toBeGreaterThan(0.7);
    expect(e.solar_correlation).toBeLessThan(0.95);
    expect(e.wind_correlation).toBeGreaterThan(0.9);
    expect(e.wind_correlation).toBeLessThan(1);
    const [, cell, air, loss] = /^Mean daytime cell temperature (\d+\.\d) C \(irradiance-weighted; air (\d+\.\d) C, NOCT 45 C\): about (\d+\.\d)% below STC output at -0\.4%\/K\.$/.exec(e.temperature_impact) ?? [];
    expect(Number(cell)).toBeGreaterThan(Number(air));
    expect(Number(loss)).toBeCloseTo(0.4 * (Number(cell) - 25), 1);
  });

  it('takes the time zone of the nearest city when none is given, and honours another zone', async () => {
    const implicit = await weather({ location: { latitude: 52.52, longitude: 13.405 }, date_range: JUNE, parameters: ['temperature'] });
    expect(implicit.body.timezone).toBe('Europe/Berlin');
    expect(implicit.body.weather_data[0].timestamp).toBe('2024-06-19T22:00:00.000Z');

    const utc = await weather({ location: { ...BERLIN, timezone: 'UTC' }, date_range: { start_date: '2024-06-20', end_date: '2024-06-20' }, parameters: ['temperature'] });
    expect(utc.body.weather_data.map((x: { timestamp: string }) => x.timestamp)).toEqual(Array.from({ length: 24 }, (_, h) => new Date(Date.UTC(2024, 5, 20, h)).toISOString()));
  });

  it('refuses invalid requests with 400 naming the field, and requests without a key with 401', async () => {
    expect(await weather({ location: BERLIN, date_range: { start_date: '2024-06-21', end_date: '2024-06-20' } })).toMatchObject({
      status: 400,
      body: { status: 'error', error: 'Invalid request: date_range.end_date must not be before start_date' },
    });
    expect(await weather({ location: { ...BERLIN, timezone: 'Berlin' }, date_range: JUNE })).toMatchObject({
      status: 400,
      body: { error: 'Invalid request: location.timezone must be an IANA time zone such as Europe/Berlin' },
    });
    expect(await weather({ location: BERLIN, date_range: JUNE }, {})).toMatchObject({ status: 401, body: { status: 'error', error: 'Unauthorized' } });
  });
});

describe('POST /api/weather-data with Open-Meteo failing', () => {
  useOpenMeteoStandIn((_req, res) => res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":true,"reason":"Parameter \'start_date\' is out of allowed range from 1940-01-01 to 2024-06-26"}'));

  it('answers 502 with Open-Meteo’s reason', async () => {
    expect(await weather({ location: BERLIN, date_range: JUNE })).toMatchObject({
      status: 502,
      body: { status: 'error', error: "Open-Meteo refused the request: Parameter 'start_date' is out of allowed range from 1940-01-01 to 2024-06-26" },
    });
  });
});

/**
 * Weather in the statistical forecasts (issue 19, item 6; ARCHITECTURE 9) over HTTP against the local runtime:
 * POST /forecast with the caller's weather array or the provider's, the `weather` block every answer carries,
 * missing horizon rows, wind with a wind-speed forecast (GEFCom2012), and GET /forecast of a site with PV specs.
 */
import { readFileSync } from 'node:fs';
import { useWeatherProvider } from '../helpers/weather-provider';
import path from 'node:path';
import { meanClearSkyGhi } from '../../shared/domain/weather/clear-sky';
import { simulatePv } from '../../shared/domain/pv/system-model';
import type { PvSystem } from '../../shared/domain/pv/types';
import { weatherOnSteps } from '../../shared/domain/pv/weather-steps';
import { openMeteoAnswer, useOpenMeteoStandIn } from '../helpers/open-meteo-stand-in';
import { call, enterpriseKey, useRuntime } from '../helpers/runtime';
import { mulberry32 } from '../helpers/seeded-random';
import { form, postForm, settled } from '../helpers/uploads';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const iso = (t: number) => new Date(t).toISOString();
const uid = () => Math.random().toString(36).slice(2, 10);
const BERLIN = { latitude: 52.52, longitude: 13.405, elevationM: 34 };
const SYSTEM: PvSystem = { ...BERLIN, capacityKwp: 5, tiltDeg: 35, azimuthDeg: 180, lossesPct: 14, inverterAcKw: 4.6 };
/** The last history hour of the solar cases; the horizon is the next 24. */
const END = Date.UTC(2026, 5, 30, 23);

type Row = { t: number; kw: number; ghi: number; temp: number };

/**
 * Hourly solar power of a 5 kWp array at Berlin, each value the mean of the hour that starts at its timestamp, from
 * the PV model driven by clouds that change day to day and hour to hour (seeded): only the weather knows the next day.
 */
function solarDays(days: number, seed = 11): Row[] {
  const random = mulberry32(seed);
  const starts = Array.from({ length: days * 24 }, (_, i) => END + 24 * HOUR - (days * 24 - 1 - i) * HOUR);
  let dayClearness = 1;
  const ghi = starts.map((t) => {
    if (new Date(t).getUTCHours() === 0) dayClearness = 0.15 + 0.85 * random();
    const clearness = Math.min(1.05, Math.max(0.05, dayClearness + 0.2 * (random() - 0.5)));
    return meanClearSkyGhi(new Date(t + HOUR), 60, BERLIN) * clearness;
  });
  const temp = starts.map((t) => 17 + 6 * Math.sin((2 * Math.PI * (new Date(t).getUTCHours() - 9)) / 24));
  const power = simulatePv(SYSTEM, starts.map((t, i) => ({ t, ghiWm2: ghi[i], tempAirC: temp[i] })), 60);
  return starts.map((t, i) => ({ t, kw: Math.round(power[i].acKw * 1000) / 1000, ghi: Math.round(ghi[i] * 10) / 10, temp: Math.round(temp[i] * 10) / 10 }));
}

const SOLAR = solarDays(29);
const SOLAR_HISTORY = SOLAR.filter((r) => r.t <= END);
const SOLAR_AHEAD = SOLAR.filter((r) => r.t > END);
const solarWeather = (rows = SOLAR) => rows.map((r) => ({ timestamp: iso(r.t), ghi_wm2: r.ghi, temperature_c: r.temp }));

function forecastBody(history: { t: number; value: number }[], config: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    historical_data: history.map((p) => ({ timestamp: iso(p.t), value: p.value, unit: 'kW' })),
    forecast_config: { horizon: 24, model_type: 'ensemble', confidence_interval: 0.9, seasonal_adjustment: true, ...config },
    ...extra,
  };
}
const solarBody = (config: Record<string, unknown>, extra: Record<string, unknown> = {}) => forecastBody(SOLAR_HISTORY.map((r) => ({ t: r.t, value: r.kw })), { series_type: 'solar', ...config }, extra);

/** RMSE of a forecast answer against the actual values by timestamp. */
function rmse(forecast: { timestamp: string; value: number }[], actual: Map<number, number>): number {
  const errors = forecast.map((p) => p.value - (actual.get(Date.parse(p.timestamp)) as number));
  expect(errors.every(Number.isFinite)).toBe(true);
  return Math.sqrt(errors.reduce((s, e) => s + e * e, 0) / errors.length);
}

/** GEFCom2012 wind farm 1 (Hong, Pinson & Fan 2014): normalised power and its NWP wind-speed forecast, hourly. */
function gefcomFarm1(): { t: number; power: number; speed: number }[] {
  const file = path.resolve(process.env.SHARED_DATA ?? path.resolve(__dirname, '../../../shared/data'), 'wind/gefcom2012_wind_farms_hourly.csv');
  const [head, ...lines] = readFileSync(file, 'utf8').trim().split('\n');
  const columns = head.split(',');
  const [p, w] = [columns.indexOf('power_norm_wf1'), columns.indexOf('wind_speed_nwp_wf1_ms')];
  return lines.map((line) => {
    const c = line.split(',');
    return { t: Date.parse(c[0]), power: Number(c[p]), speed: c[w] === '' ? NaN : Number(c[w]) };
  });
}

const runtime = useRuntime();
let key: string;
beforeAll(async () => {
  key = await enterpriseKey(runtime());
});

describe('POST /forecast with weather', () => {
  useWeatherProvider('offline');
  const post = (json: unknown, route = '/forecast') => call(runtime(), 'POST', route, { key, json });

  it.each(['/forecast', '/api/generate-forecast'])("forecasts solar with the caller's irradiance on %s, far better than without, and says which weather", async (route) => {
    const actual = new Map(SOLAR_AHEAD.map((r) => [r.t, r.kw]));
    const withWeather = await post(solarBody({ weather_integration: true }, { weather: solarWeather() }), route);
    const without = await post(solarBody({ weather_integration: false }), route);

    expect(withWeather.status).toBe(200);
    expect(without.status).toBe(200);
    expect(withWeather.body.weather).toEqual({ source: 'request', variables: ['ghi_wm2', 'temperature_c'] });
    expect(without.body.weather).toEqual({ source: 'none', variables: [] });
    const [errorWith, errorWithout] = [rmse(withWeather.body.forecast, actual), rmse(without.body.forecast, actual)];
    // The next day's clouds are in the weather only: its forecast halves the error at least.
    expect(errorWith).toBeLessThan(0.5 * errorWithout);
    expect(errorWithout).toBeGreaterThan(0.3);
  }, 90_000);

  it('does not use weather sent without weather_integration, and says so', async () => {
    const ignored = await post(solarBody({ weather_integration: false }, { weather: solarWeather() }));
    const without = await post(solarBody({ weather_integration: false }));

    expect(ignored.status).toBe(200);
    expect(ignored.body.weather).toEqual({ source: 'none', variables: [], note: 'weather sent without forecast_config.weather_integration: true, so not used' });
    expect(ignored.body.forecast.map((p: { value: number }) => p.value)).toEqual(without.body.forecast.map((p: { value: number }) => p.value));
  }, 90_000);

  it('refuses weather that misses a horizon row, naming the first missing timestamp, and consumes nothing', async () => {
    const before = (await call(runtime(), 'GET', '/api/usage', { key })).body.usage.forecasts;
    const gap = SOLAR_AHEAD[5].t;
    const rows = solarWeather(SOLAR.filter((r) => r.t !== gap && r.t !== gap + HOUR));

    const r = await post(solarBody({ weather_integration: true }, { weather: rows }));

    expect(r.status).toBe(400);
    expect(r.body.error).toBe(
      `Invalid request: weather misses 2 of the 24 horizon steps for ghi_wm2 (first ${iso(gap)}); send a row with ghi_wm2 for every step from ${iso(SOLAR_AHEAD[0].t)} to ${iso(SOLAR_AHEAD[23].t)}, or set forecast_config.weather_integration to false`,
    );
    expect((await call(runtime(), 'GET', '/api/usage', { key })).body.usage.forecasts).toBe(before);
    const malformed = await post(solarBody({ weather_integration: true }, { weather: [{ timestamp: iso(END), ghi_wm2: 2_000 }] }));
    expect(malformed).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^Invalid request: weather\.0\.ghi_wm2/) } });
  });

  it('asks the provider for the place when no weather is sent, and answers from the history alone, saying why, without a place', async () => {
    const atBerlin = await post(solarBody({ weather_integration: true, location: 'Berlin' }));
    const nowhere = await post(solarBody({ weather_integration: true }));

    expect(atBerlin.status).toBe(200);
    expect(atBerlin.body.weather).toMatchObject({ source: 'offline-climatology', variables: ['temperature_c', 'ghi_wm2', 'wind_speed_ms'] });
    expect(nowhere.status).toBe(200);
    expect(nowhere.body.weather).toEqual({ source: 'none', variables: [], note: expect.stringMatching(/^no weather: .*no weather array and no forecast_config latitude\/longitude or location/) });
    expect(nowhere.body.forecast).toHaveLength(24);
  }, 90_000);

  it('estimates irradiance from cloud cover where a feed has no GHI', async () => {
    const cloudy = SOLAR.map((r) => {
      const clear = meanClearSkyGhi(new Date(r.t + HOUR), 60, BERLIN);
      // Kasten & Czeplak inverted: the cloud fraction that leaves this share of the clear sky.
      const share = clear > 20 ? Math.min(1, r.ghi / clear) : 1;
      return { timestamp: iso(r.t), cloud_cover_pct: Math.round(100 * Math.min(1, ((1 - share) / 0.75) ** (1 / 3.4))) };
    });
    const r = await post(solarBody({ weather_integration: true, latitude: BERLIN.latitude, longitude: BERLIN.longitude }, { weather: cloudy }));

    expect(r.status).toBe(200);
    expect(r.body.weather).toEqual({ source: 'request', variables: ['ghi_wm2'], note: 'ghi_wm2 estimated from cloud_cover_pct under a clear sky (Kasten & Czeplak 1980)' });
    const without = await post(solarBody({ weather_integration: false }));
    const actual = new Map(SOLAR_AHEAD.map((p) => [p.t, p.kw]));
    expect(rmse(r.body.forecast, actual)).toBeLessThan(0.7 * rmse(without.body.forecast, actual));
  }, 90_000);

  it('reaches the wind power curve with a wind-speed forecast: GEFCom2012 farm 1 at 12-hour horizons beats the forecast without', async () => {
    const farm = gefcomFarm1();
    const at = new Map(farm.map((r, i) => [r.t, i]));
    // Origins at 00 UTC every 91 days through 2010-2011: the 00 UTC run covers the next 12 hours (leads 1-12), so
    // the horizon's speeds are a forecast issued at the origin, not perfect prognosis.
    const origins = Array.from({ length: 9 }, (_, k) => Date.UTC(2010, 0, 1) + k * 91 * DAY);
    let [squaresWith, squaresWithout, count] = [0, 0, 0];
    for (const origin of origins) {
      const i = at.get(origin) as number;
      const history = farm.slice(i - 56 * 24 + 1, i + 1);
      const ahead = farm.slice(i + 1, i + 13);
      const series = history.map((r) => ({ t: r.t, value: r.power }));
      const weather = [...history, ...ahead].map((r) => ({ timestamp: iso(r.t), ...(Number.isFinite(r.speed) ? { wind_speed_ms: r.speed } : {}) }));
      const config = { horizon: 12, series_type: 'wind' };
      const withSpeeds = await post(forecastBody(series, { ...config, weather_integration: true }, { weather }));
      const without = await post(forecastBody(series, { ...config, weather_integration: false }));
      expect(withSpeeds.status).toBe(200);
      expect(withSpeeds.body.weather).toEqual({ source: 'request', variables: ['wind_speed_ms'] });
      expect(Object.keys(withSpeeds.body.model_performance.member_weights)).toContain('wind_power_curve');
      const actual = new Map(ahead.map((r) => [r.t, r.power]));
      squaresWith += rmse(withSpeeds.body.forecast, actual) ** 2 * 12;
      squaresWithout += rmse(without.body.forecast, actual) ** 2 * 12;
      count += 12;
    }
    const [errorWith, errorWithout] = [Math.sqrt(squaresWith / count), Math.sqrt(squaresWithout / count)];
    // Measured: 0.144 with the speeds, 0.177 without (normalised power; persistence of the last hour 0.175).
    expect(errorWith).toBeLessThan(0.9 * errorWithout);
  }, 120_000);

});

/** Daily cloudiness at the PV site, the same on every run: clear days and overcast ones, as a real site sees. */
const clearnessOfDay = (t: number) => 0.15 + 0.85 * mulberry32(Math.floor(t / DAY))();
/** The Open-Meteo stand-in's GHI: the clear-sky mean of the hour ending at `end` under that day's clouds. */
const servedGhi = (end: number) => meanClearSkyGhi(new Date(end), 60, BERLIN) * clearnessOfDay(end - HOUR);

/** The stand-in's hourly rows (GHI, temperature, wind) labelled at each hour's end, over [from, to). */
const rowsEnding = (from: number, to: number) => Array.from({ length: Math.round((to - from) / HOUR) }, (_, h) => from + h * HOUR).map((end) => ({ end, ghiWm2: Math.round(servedGhi(end) * 10) / 10, tempAirC: 18, windSpeedMs: 3 }));

describe('GET /forecast of a site with PV specs', () => {
  // Open-Meteo on loopback (its documented JSON), with clouds that change by day: the weather, not the calendar, knows tomorrow.
  useOpenMeteoStandIn((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify(
        openMeteoAnswer(url, (variable, _i, at) => {
          if (variable === 'shortwave_radiation') return Math.round(servedGhi(at.getTime()) * 10) / 10;
          if (variable === 'temperature_2m') return 18;
          if (variable === 'wind_speed_10m') return 3;
          if (variable === 'cloud_cover') return Math.round(100 * (1 - clearnessOfDay(at.getTime() - HOUR)));
          if (variable === 'relative_humidity_2m') return 60;
          if (variable === 'surface_pressure') return 1009;
          return null;
        }, { elevation: BERLIN.elevationM }),
      ),
    );
  });

  it("adds the PV physical model to a site with specs, in training and GET /forecast, which names its weather", async () => {
    const customer = `cust-${uid()}`;
    const site = `site-${uid()}`;
    const pvSystem = { latitude: SYSTEM.latitude, longitude: SYSTEM.longitude, elevation_m: SYSTEM.elevationM, capacity_kwp: SYSTEM.capacityKwp, tilt_deg: SYSTEM.tiltDeg, azimuth_deg: SYSTEM.azimuthDeg, losses_pct: SYSTEM.lossesPct, inverter_ac_kw: SYSTEM.inverterAcKw };
    expect((await call(runtime(), 'PUT', `/api/sites/${site}`, { key, json: { customer_id: customer, pv_system: pvSystem } })).status).toBe(200);
    // 40 days of its output under the weather the uploads will be given (the stand-in's), 10% below the specs (soiling).
    const end = Date.UTC(2026, 5, 30, 23);
    const starts = Array.from({ length: 40 * 24 }, (_, i) => end - (40 * 24 - 1 - i) * HOUR);
    const modelled = simulatePv(SYSTEM, weatherOnSteps(rowsEnding(starts[0], end + 2 * HOUR), starts, 60, BERLIN), 60);
    const csv = ['timestamp,power_kw', ...starts.map((t, i) => `${iso(t)},${Math.round(0.9 * modelled[i].acKw * 1000) / 1000}`)].join('\n');
    const up = await postForm(runtime(), '/upload_train', key, form({ customer_id: customer, site_id: site, region: 'eu-central-1', location: 'Berlin' }, csv));
    expect(up.status).toBe(200);
    expect(await settled(runtime(), key, up.body.upload_id)).toMatchObject({ status: 'processed' });

    const train = await call(runtime(), 'POST', '/train', { key, json: { customer_id: customer, site_id: site, training_config: { model_type: 'ensemble', cross_validation_folds: 7 }, data_requirements: { validation_split: 0.3, test_split: 0.15 } } });
    expect(train.status).toBe(200);
    let job;
    for (let i = 0; i < 900; i++) {
      job = (await call(runtime(), 'GET', `/api/training-status/${train.body.training_job.job_id}`, { key })).body;
      if (['completed', 'failed'].includes(job.status)) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(job).toMatchObject({ status: 'completed' });
    // The model chain is exact here but for the soiling the tuning learns: it takes most of the weight.
    expect(job.model_performance.member_weights.pv_physical).toBeGreaterThan(0.5);

    const forecast = await call(runtime(), 'GET', `/forecast?customer_id=${customer}&site_id=${site}&horizon_hours=24`, { key });
    expect(forecast.status).toBe(200);
    expect(forecast.body.weather).toEqual({ source: 'open-meteo', variables: ['temperature_c', 'ghi_wm2', 'wind_speed_ms'], note: "history: the weather stored with the site's uploads; pv_physical: the site's set PV specs" });
    // Tomorrow under the stand-in's forecast, 10% below the specs.
    const ahead = Array.from({ length: 24 }, (_, j) => end + (j + 1) * HOUR);
    const expected = simulatePv(SYSTEM, weatherOnSteps(rowsEnding(ahead[0] - HOUR, ahead[23] + 2 * HOUR), ahead, 60, BERLIN), 60).map((m) => 0.9 * m.acKw);
    const predicted = forecast.body.forecasts.map((p: { predicted_power_kw: number }) => p.predicted_power_kw);
    const error = Math.sqrt(predicted.reduce((sum: number, v: number, j: number) => sum + (v - expected[j]) ** 2, 0) / 24);
    expect(error).toBeLessThan(0.05 * Math.max(...expected));
  }, 180_000);
});

/**
 * PV specs and physics forecasts over HTTP against the local runtime (issue 19): a new site forecast from its
 * specs alone; the same site tuned after an upload of its history; estimated actuals; refusals.
 */
import { meanClearSkyGhi } from '../../shared/domain/weather/clear-sky';
import { useWeatherProvider } from '../helpers/weather-provider';
import { offlineWeather } from '../../shared/domain/weather/offline-model';
import { simulatePv } from '../../shared/domain/pv/system-model';
import { weatherOnSteps } from '../../shared/domain/pv/weather-steps';
import { toPvSystem, storedPvSystem } from '../../shared/services/pv/pv-sites';
import { call, enterpriseKey, useRuntime } from '../helpers/runtime';
import { form, postForm, settled } from '../helpers/uploads';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const uid = () => Math.random().toString(36).slice(2, 10);
const BERLIN = { latitude: 52.52, longitude: 13.405, elevation_m: 34, capacity_kwp: 9.8, tilt_deg: 35, azimuth_deg: 180, losses_pct: 14, inverter_ac_kw: 8.2 };
/** A clear midsummer day at the site, hourly rows labelled at the end of their hour. */
const clearDay = (day: number) =>
  Array.from({ length: 25 }, (_, h) => {
    const end = day + h * HOUR;
    return { timestamp: new Date(end).toISOString(), ghi_wm2: Math.round(meanClearSkyGhi(new Date(end), 60, { latitude: BERLIN.latitude, longitude: BERLIN.longitude, elevationM: 34 })), temperature_c: 22, wind_speed_ms: 2 };
  });

describe('PV specs and physics forecasts', () => {
  useWeatherProvider('offline');
  const runtime = useRuntime();
  let key: string;
  beforeAll(async () => {
    key = await enterpriseKey(runtime());
  });

  it('forecasts a new site from its specs alone, with the caller\'s weather', async () => {
    const customer = `cust-${uid()}`;
    const site = `site-${uid()}`;
    const put = await call(runtime(), 'PUT', `/api/sites/${site}`, { key, json: { customer_id: customer, pv_system: BERLIN } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ status: 'success', specs_source: 'set', pv_system: { capacity_kwp: 9.8, tilt_deg: 35, inverter_ac_kw: 8.2 }, site: { site_id: site, latitude: 52.52 } });

    const day = Date.UTC(2026, 5, 21);
    const r = await call(runtime(), 'POST', '/api/pv-forecast', { key, json: { customer_id: customer, site_id: site, start: new Date(day).toISOString(), horizon_hours: 24, interval_minutes: 60, weather: clearDay(day) } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ weather_source: 'request', tuned: false, specs_source: 'set', interval_minutes: 60, forecast_start: new Date(day).toISOString() });
    expect(r.body.forecasts).toHaveLength(24);
    const at = (h: number) => r.body.forecasts[h];
    // Midnight UTC is night in Berlin; 11 UTC is solar noon: a clear sky on a 35 degree south plane gives about 1,000 W/m2.
    expect(at(0)).toMatchObject({ p10_kw: 0, p50_kw: 0, p90_kw: 0, poa_wm2: 0 });
    expect(at(10).poa_wm2).toBeGreaterThan(850);
    expect(at(10).poa_wm2).toBeLessThan(1_100);
    expect(at(10).p50_kw).toBeGreaterThan(6);
    expect(at(10).p50_kw).toBeLessThanOrEqual(8.2);
    expect(at(10).cell_temp_c).toBeGreaterThan(35);
    for (const p of r.body.forecasts) {
      expect(p.p10_kw).toBeLessThanOrEqual(p.p50_kw);
      expect(p.p50_kw).toBeLessThanOrEqual(p.p90_kw);
      expect(p.p90_kw).toBeLessThanOrEqual(8.2);
    }
    // 15-minute steps keep the hourly energy.
    const q = await call(runtime(), 'POST', '/api/pv-forecast', { key, json: { pv_system: BERLIN, start: new Date(day).toISOString(), horizon_hours: 24, interval_minutes: 15, weather: clearDay(day) } });
    expect(q.status).toBe(200);
    expect(q.body.forecasts).toHaveLength(96);
    expect(q.body.energy_kwh).toBeGreaterThan(r.body.energy_kwh * 0.97);
    expect(q.body.energy_kwh).toBeLessThan(r.body.energy_kwh * 1.03);
  });

  it('forecasts from the weather provider when no weather is sent, and says which', async () => {
    const r = await call(runtime(), 'POST', '/api/pv-forecast', { key, json: { pv_system: BERLIN, horizon_hours: 168, interval_minutes: 15 } });
    expect(r.status).toBe(200);
    expect(r.body.weather_source).toBe('offline-climatology');
    expect(r.body.forecasts).toHaveLength(168 * 4);
    expect(Math.max(...r.body.forecasts.map((p: { p50_kw: number }) => p.p50_kw))).toBeGreaterThan(0);
  });

  it('tunes the site after an upload of its history, and gives estimated actuals beside the measured', async () => {
    const customer = `cust-${uid()}`;
    const site = `site-${uid()}`;
    expect((await call(runtime(), 'PUT', `/api/sites/${site}`, { key, json: { customer_id: customer, pv_system: BERLIN } })).status).toBe(200);
    // 40 days of history: the modelled output of the specs under the offline weather, 20% lower (soiling, say).
    const end = Date.UTC(2026, 5, 30);
    const start = end - 40 * DAY;
    const system = toPvSystem(storedPvSystem({ ...BERLIN }));
    const hours = Array.from({ length: 40 * 24 }, (_, i) => start + i * HOUR);
    const rows = offlineWeather({ latitude: BERLIN.latitude, longitude: BERLIN.longitude, elevationM: 34, start: new Date(start), end: new Date(end + 2 * HOUR) }).map((p) => ({
      end: Date.parse(p.timestamp),
      ghiWm2: p.solar_radiation_wm2,
      tempAirC: p.temperature_c,
      windSpeedMs: p.wind_speed_ms,
    }));
    const modelled = simulatePv(system, weatherOnSteps(rows, hours, 60, { latitude: BERLIN.latitude, longitude: BERLIN.longitude, elevationM: 34 }), 60);
    const csv = ['timestamp,power_kw', ...modelled.map((m) => `${new Date(m.t).toISOString()},${(0.8 * m.acKw).toFixed(3)}`)].join('\n') + '\n';
    const up = await postForm(runtime(), '/upload_train', key, form({ customer_id: customer, site_id: site, region: 'eu-central-1', location: '52.52,13.405' }, csv));
    expect(up.status).toBe(200);
    expect(await settled(runtime(), key, up.body.upload_id)).toMatchObject({ status: 'processed' });

    const f = await call(runtime(), 'POST', '/api/pv-forecast', { key, json: { customer_id: customer, site_id: site, horizon_hours: 24, start: new Date(end).toISOString() } });
    expect(f.status).toBe(200);
    expect(f.body.tuned).toBe(true);
    expect(f.body.tuning_effect.rmse_tuned_kw).toBeLessThan(f.body.tuning_effect.rmse_untuned_kw * 0.5);

    const shown = await call(runtime(), 'GET', `/api/sites/${site}?customer_id=${customer}`, { key });
    expect(shown.body).toMatchObject({ specs_source: 'set', tuning: { days: expect.any(Number) } });

    const from = new Date(end - 3 * DAY).toISOString();
    const to = new Date(end - DAY).toISOString();
    const actuals = await call(runtime(), 'GET', `/api/pv-estimated-actuals?customer_id=${customer}&site_id=${site}&start=${from}&end=${to}`, { key });
    expect(actuals.status).toBe(200);
    expect(actuals.body.estimated_actuals).toHaveLength(48);
    const noon = actuals.body.estimated_actuals.filter((p: { timestamp: string }) => p.timestamp.endsWith('T10:00:00.000Z'));
    for (const p of noon) {
      expect(p.measured_kw).toBeGreaterThan(0);
      // Tuned, the estimate sits on the measured (the history is the model times 0.8).
      expect(Math.abs(p.estimated_kw - p.measured_kw) / p.measured_kw).toBeLessThan(0.1);
    }
  }, 120_000);

  it('infers specs for a site with history and none set', async () => {
    const customer = `cust-${uid()}`;
    const site = `site-${uid()}`;
    const end = Date.UTC(2026, 5, 30);
    const start = end - 30 * DAY;
    const system = toPvSystem(storedPvSystem({ ...BERLIN, tilt_deg: 25, azimuth_deg: 200 }));
    const steps = Array.from({ length: 30 * 24 * 4 }, (_, i) => start + i * 15 * 60_000);
    const clear = steps.map((t) => ({ t, ghiWm2: meanClearSkyGhi(new Date(t + 15 * 60_000), 15, { latitude: 52.52, longitude: 13.405, elevationM: 34 }), tempAirC: 20, windSpeedMs: 2 }));
    const modelled = simulatePv(system, clear, 15);
    const csv = ['timestamp,power_kw', ...modelled.map((m) => `${new Date(m.t).toISOString()},${m.acKw.toFixed(3)}`)].join('\n') + '\n';
    const up = await postForm(runtime(), '/upload_train', key, form({ customer_id: customer, site_id: site, region: 'eu-central-1', location: '52.52,13.405' }, csv));
    expect(await settled(runtime(), key, up.body.upload_id)).toMatchObject({ status: 'processed' });
    const shown = await call(runtime(), 'GET', `/api/sites/${site}?customer_id=${customer}`, { key });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ pv_system: null, specs_source: 'inferred', inferred: { fit: { r2: expect.any(Number) } } });
    expect(Math.abs(shown.body.inferred.pv_system.tilt_deg - 25)).toBeLessThan(8);
    expect(Math.abs(shown.body.inferred.pv_system.azimuth_deg - 200)).toBeLessThan(10);
  }, 120_000); // inference runs under jest's slow trigonometry: a guard, not a target

  it('answers refusals clearly, and a refused call costs no forecast', async () => {
    const site = `site-${uid()}`;
    const customer = `cust-${uid()}`;
    const usage = async () => (await call(runtime(), 'GET', '/api/usage', { key })).body;
    const before = JSON.stringify(await usage());
    const cases: [string, unknown, number, RegExp][] = [
      ['POST', {}, 400, /pv_system/],
      ['POST', { pv_system: { ...BERLIN, tilt_deg: 95 } }, 400, /tilt_deg/],
      ['POST', { pv_system: BERLIN, interval_minutes: 30 }, 400, /interval_minutes/],
      ['POST', { pv_system: BERLIN, horizon_hours: 169 }, 400, /168/],
      ['POST', { pv_system: BERLIN, start: '2026-06-21T00:00:00Z', horizon_hours: 24, weather: clearDay(Date.UTC(2026, 5, 21)).slice(0, 12) }, 400, /does not cover/],
      ['POST', { customer_id: customer, site_id: site }, 404, /not found/],
    ];
    for (const [, json, status, message] of cases) {
      const r = await call(runtime(), 'POST', '/api/pv-forecast', { key, json });
      expect(r.status).toBe(status);
      expect(JSON.stringify(r.body)).toMatch(message);
    }
    const put = await call(runtime(), 'PUT', `/api/sites/${site}`, { key, json: { customer_id: customer, pv_system: { ...BERLIN, capacity_kwp: -1 } } });
    expect(put.status).toBe(400);
    const get = await call(runtime(), 'GET', `/api/sites/${site}?customer_id=${customer}`, { key });
    expect(get.status).toBe(404);
    const past = await call(runtime(), 'GET', `/api/pv-estimated-actuals?customer_id=${customer}&site_id=${site}&start=2026-01-01T00:00:00Z&end=2026-03-01T00:00:00Z`, { key });
    expect(past.status).toBe(400);
    expect(past.body.error).toMatch(/31 days/);
    expect(JSON.stringify(await usage())).toBe(before);
  });
});

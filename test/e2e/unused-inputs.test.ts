/**
 * Every accepted input is used or refused: an input the answer cannot follow is named, with why, in the
 * answer's `unused_inputs` (the one field every endpoint uses for it), and one that is followed is not.
 */
import { call, enterpriseKey, registerKey, useRuntime } from '../helpers/runtime';
import { form, postForm, settled, solarCsv } from '../helpers/uploads';

const runtime = useRuntime();
const HOUR = 3_600_000;
const uid = () => Math.random().toString(36).slice(2, 10);
const END = Date.UTC(2026, 5, 30, 23);

/** Hourly load (kW) over `days` days ending at END, a daily cycle. */
const loadHistory = (days: number) =>
  Array.from({ length: days * 24 }, (_, i) => {
    const t = END - (days * 24 - 1 - i) * HOUR;
    return { timestamp: new Date(t).toISOString(), value: Math.round((20 + 8 * Math.sin((Math.PI * new Date(t).getUTCHours()) / 12)) * 1000) / 1000, unit: 'kW' };
  });

describe('POST /forecast', () => {
  const forecast = async (config: object, extra: object = {}) => {
    const { key } = await registerKey(runtime());
    return call(runtime(), 'POST', '/forecast', { key, json: { historical_data: loadHistory(7), forecast_config: { horizon: 6, ...config }, ...extra } });
  };

  it('names seasonal_adjustment: false as not applied, and says nothing when it is left on', async () => {
    const off = await forecast({ seasonal_adjustment: false });
    expect(off.status).toBe(200);
    expect(off.body.unused_inputs).toEqual([expect.stringMatching(/^seasonal_adjustment: false is not applied: every model captures the daily and weekly cycle/)]);

    const on = await forecast({ seasonal_adjustment: true });
    expect(on.body.unused_inputs).toEqual([]);
  });

  it('names weather sent without weather_integration', async () => {
    const weather = loadHistory(7).map((p) => ({ timestamp: p.timestamp, temperature_c: 18 }));
    const r = await forecast({ weather_integration: false }, { weather });
    expect(r.body.unused_inputs).toEqual(['weather: sent without forecast_config.weather_integration: true, so not used']);
  });
});

describe('POST /train', () => {
  it('names hyperparameter_tuning and early_stopping as not applicable, and is silent when they are not asked for', async () => {
    // Prepare: a site with data (the job itself runs later; the answer is what is pinned here).
    const key = await enterpriseKey(runtime());
    const site = { customer_id: `cust-${uid()}`, site_id: `site-${uid()}`, region: 'eu-central-1', location: 'Berlin' };
    const up = await postForm(runtime(), '/upload_train', key, form(site, solarCsv(5 * 24)));
    await settled(runtime(), key, up.body.upload_id);
    const train = (config: object) => call(runtime(), 'POST', '/train', { key, json: { customer_id: site.customer_id, site_id: site.site_id, training_config: { model_type: 'seasonal_naive', ...config } } });

    // Act
    const asked = await train({ hyperparameter_tuning: true, early_stopping: true });
    const plain = await train({ hyperparameter_tuning: false, early_stopping: false });

    // Assess
    expect(asked.status).toBe(200);
    expect(asked.body.unused_inputs).toEqual([expect.stringMatching(/^hyperparameter_tuning: no search is run/), expect.stringMatching(/^early_stopping: does not apply/)]);
    expect(plain.body.unused_inputs).toEqual([]);
  });
});

describe('uploads', () => {
  it('names each nowcast parameter, which the upload stores but runs nothing with', async () => {
    const { key } = await registerKey(runtime());
    const points = Array.from({ length: 4 }, (_, i) => ({ timestamp: new Date(END - (3 - i) * HOUR).toISOString(), value: 2 + i, unit: 'kW' }));
    const r = await call(runtime(), 'POST', '/upload_nowcast', { key, json: { parameters: { forecast_window: 24, confidence_interval: 0.9, weather_integration: true, dispatch_optimization: true }, data_points: points } });
    expect(r.status).toBe(200);
    expect(r.body.unused_inputs).toEqual([
      expect.stringMatching(/^parameters\.forecast_window: not used: the upload runs no forecast/),
      expect.stringMatching(/^parameters\.confidence_interval: not used: /),
      expect.stringMatching(/^parameters\.weather_integration: not used: /),
      expect.stringMatching(/^parameters\.dispatch_optimization: not used: the upload runs no dispatch/),
    ]);
    const bare = await call(runtime(), 'POST', '/upload_nowcast', { key, json: { data_points: points } });
    expect(bare.body.unused_inputs).toEqual([]);
  });

  it('names filename and equipment_type on the platform historical upload', async () => {
    const { key } = await registerKey(runtime());
    const res = await fetch(`${runtime().url}/upload_historical?customer_id=plat-${uid()}&filename=a.csv&location=Berlin&region=eu-central-1&equipment_type=inverter`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'text/csv' },
      body: solarCsv(24),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { unused_inputs: string[] }).unused_inputs).toEqual([expect.stringMatching(/^filename: not used/), expect.stringMatching(/^equipment_type: not used/)]);
  });
});

describe('POST /interpolate', () => {
  const interpolate = async (processing_options: object, extra: object = {}) => {
    const { key } = await registerKey(runtime());
    const data = loadHistory(4).map((p, i) => ({ timestamp: p.timestamp, value: i % 10 === 5 ? null : p.value }));
    return call(runtime(), 'POST', '/interpolate', { key, json: { type: 'load', mode: 'fill_missing_blocks', data, processing_options, ...extra } });
  };

  it('names weather_correlation without a location, and is silent when the options are followed', async () => {
    const r = await interpolate({ weather_correlation: true });
    expect(r.status).toBe(200);
    expect(r.body.unused_inputs).toEqual(['processing_options.weather_correlation: not used without a location (send location, or latitude and longitude)']);
    expect((await interpolate({ seasonal_adjustment: true })).body.unused_inputs).toEqual([]);
  });

  it('names seasonal_adjustment on a series too short for a daily profile', async () => {
    const { key } = await registerKey(runtime());
    const data = loadHistory(2).map((p, i) => ({ timestamp: p.timestamp, value: i === 20 ? null : p.value }));
    const r = await call(runtime(), 'POST', '/interpolate', { key, json: { type: 'load', data, processing_options: { seasonal_adjustment: true } } });
    expect(r.body.unused_inputs).toEqual(['processing_options.seasonal_adjustment: not used: a daily profile needs at least 3 days of series']);
  });
});

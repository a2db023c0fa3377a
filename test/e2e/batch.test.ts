/** POST /api/batch-process and GET /api/batch/{batch_id} over HTTP: in-request batches, callback batches, errors. */
import { Webhook } from 'standardwebhooks';
import { call, enterpriseKey, registerKey, useRuntime } from '../helpers/runtime';
import { form, postForm, settled, solarCsv } from '../helpers/uploads';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';

const runtime = useRuntime();

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const uid = () => Math.random().toString(36).slice(2, 10);
const HOUR = 3_600_000;
const START = Date.UTC(2024, 5, 1);

const hours = (f: (h: number) => number) => Array.from({ length: 24 }, (_, h) => Math.round(f(h) * 1000) / 1000);
const optimize = (customer_id: string) => ({
  type: 'optimize',
  customer_id,
  objective: 'cost',
  forecasts: {
    solar_forecast: hours((h) => (h >= 6 && h <= 18 ? 60 * Math.sin((Math.PI * (h - 6)) / 12) : 0)),
    load_forecast: hours((h) => 20 + 10 * Math.sin((Math.PI * (h - 8)) / 12)),
    price_forecast: hours((h) => (h < 6 ? 0.1 : h < 17 ? 0.15 : h < 22 ? 0.3 : 0.12)),
  },
  system_config: { battery_capacity_kwh: 100, battery_power_kw: 25 },
  optimization_config: { interval_minutes: 60, start_time: '2026-07-01T00:00:00Z' },
});
/** A ramp with a three-hour hole: a linear fill is exact. */
const ramp = Array.from({ length: 24 }, (_, i) => (i >= 10 && i <= 12 ? null : 10 + 2 * i));
const interpolateOp = (customer_id: string, values: (number | null)[] = ramp) => ({
  type: 'interpolate',
  customer_id,
  mode: 'fill_missing_blocks',
  series_type: 'load',
  data: values.map((value, i) => ({ timestamp: new Date(START + i * HOUR).toISOString(), value })),
});

/** Two that succeed and four that fail, each for its own reason. */
const mixed = (customer_id: string) => [
  optimize(customer_id),
  { type: 'optimize', customer_id, objective: 'cost' },
  interpolateOp(customer_id),
  interpolateOp(customer_id, [1, 2]),
  { type: 'forecast', customer_id, horizon: 500 },
  { type: 'forecast', customer_id, horizon: 24 },
];

function expectMixedResults(results: Record<string, any>[], customer_id: string) { // eslint-disable-line @typescript-eslint/no-explicit-any
  expect(results.map((r) => [r.index, r.type, r.customer_id, r.status])).toEqual([
    [0, 'optimize', customer_id, 'succeeded'],
    [1, 'optimize', customer_id, 'failed'],
    [2, 'interpolate', customer_id, 'succeeded'],
    [3, 'interpolate', customer_id, 'failed'],
    [4, 'forecast', customer_id, 'failed'],
    [5, 'forecast', customer_id, 'failed'],
  ]);
  const schedule = results[0].result.optimization_result.dispatch_schedule;
  expect(schedule).toHaveLength(24);
  expect(schedule[0].timestamp).toBe('2026-07-01T00:00:00.000Z');
  expect(results[0].result.optimization_result.objective).toBe('cost');
  // Nothing inline and nothing stored: every missing input is named, with how to give it.
  expect(results[1].error.status).toBe(400);
  expect(results[1].error.message).toMatch(/^Invalid request: an optimize operation needs solar_forecast \(no site of customer \S+ has a solar model.*\); load_forecast \(.*\); price_forecast \(no prices are stored.*\); system_config \(customer \S+ has no battery device/);
  expect(results[2].result.cleaned_data.slice(10, 13).map((p: { value: number; quality: string }) => [p.quality, p.value])).toEqual([
    ['interpolated', expect.closeTo(30, 6)],
    ['interpolated', expect.closeTo(32, 6)],
    ['interpolated', expect.closeTo(34, 6)],
  ]);
  expect(results[3].error).toEqual({ status: 400, message: 'Invalid request: data must have at least 3 item(s)' });
  expect(results[4].error).toEqual({ status: 400, message: 'Invalid request: horizon must be at most 168' });
  expect(results[5].error).toEqual({ status: 404, message: 'No model found for customer' });
}

describe('POST /api/batch-process without callback_url', () => {
  it.each(['parallel', 'sequential'])('runs every operation in %s mode, in request order, each failure alone', async (mode) => {
    // Prepare
    const { key } = await registerKey(runtime());
    const customer = `cust-${uid()}`;

    // Act
    const r = await call(runtime(), 'POST', '/api/batch-process', { key, json: { operations: mixed(customer), execution_mode: mode } });

    // Assess
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'success', execution_mode: mode, summary: { succeeded: 2, failed: 4 } });
    expect(r.body.batch_id).toMatch(/^batch_[0-9a-f-]{36}$/);
    expectMixedResults(r.body.results, customer);

    const status = await call(runtime(), 'GET', `/api/batch/${r.body.batch_id}`, { key });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ batch_id: r.body.batch_id, status: 'completed', execution_mode: mode, progress: { done: 6, total: 6, fraction: 1 }, summary: { succeeded: 2, failed: 4 } });
    expect(status.body.results).toEqual(r.body.results);
  });

  it('defaults to parallel and counts interpolations against the cleaning quota like POST /interpolate', async () => {
    const { key } = await registerKey(runtime());
    const r = await call(runtime(), 'POST', '/api/batch-process', { key, json: { operations: [interpolateOp(`cust-${uid()}`), interpolateOp(`cust-${uid()}`, [1, 2])] } });
    expect(r.body).toMatchObject({ execution_mode: 'parallel', summary: { succeeded: 1, failed: 1 } });
    // The refused operation consumes nothing (ARCHITECTURE 9).
    expect((await call(runtime(), 'GET', '/api/usage', { key })).body.usage).toMatchObject({ data_cleaning_operations: 1, forecasts: 0 });
  });

  it("fails an operation on another account's customer with 404, and runs the rest", async () => {
    const [a, b] = [await registerKey(runtime()), await registerKey(runtime())];
    const customer = `cust-${uid()}`;
    expect((await call(runtime(), 'POST', '/api/batch-process', { key: a.key, json: { operations: [optimize(customer)] } })).body.summary).toEqual({ succeeded: 1, failed: 0 });

    const r = await call(runtime(), 'POST', '/api/batch-process', { key: b.key, json: { operations: [optimize(customer), optimize(`cust-${uid()}`)] } });

    expect(r.body.results.map((x: { status: string }) => x.status)).toEqual(['failed', 'succeeded']);
    expect(r.body.results[0].error).toEqual({ status: 404, message: 'Customer not found' });
  });

  it('answers 400 for a malformed batch', async () => {
    const { key } = await registerKey(runtime());
    const post = (json: unknown) => call(runtime(), 'POST', '/api/batch-process', { key, json });
    const op = optimize(`cust-${uid()}`);
    expect(await post({ operations: [] })).toMatchObject({ status: 400, body: { status: 'error', error: 'Invalid request: operations must have at least 1 item(s)' } });
    expect(await post({ operations: Array.from({ length: 21 }, () => op) })).toMatchObject({ status: 400, body: { error: 'Invalid request: operations must have at most 20 item(s)' } });
    expect(await post({ operations: [{ ...op, type: 'train' }] })).toMatchObject({ status: 400, body: { error: 'Invalid request: operations.0.type must be one of "forecast", "optimize", "interpolate"' } });
    expect(await post({ operations: [{ type: 'optimize' }] })).toMatchObject({ status: 400, body: { error: 'Invalid request: operations.0.customer_id is required' } });
    expect(await post({ operations: [op], execution_mode: 'eventually' })).toMatchObject({ status: 400, body: { error: 'Invalid request: execution_mode must be one of "parallel", "sequential"' } });
    expect(await post({ operations: [op], callback_url: 'ftp://example.com/x' })).toMatchObject({ status: 400, body: { error: 'Invalid callback URL' } });
    expect(await post({ operations: [op], callback_url: 'http://10.0.0.8/hook' })).toMatchObject({ status: 400, body: { error: 'Invalid callback URL' } });
    expect(await post({ operations: [op], callback_secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=' })).toMatchObject({ status: 400, body: { error: 'Invalid request: callback_secret is used only with callback_url' } });
  });

  it('needs a key', async () => {
    expect(await call(runtime(), 'POST', '/api/batch-process', { json: { operations: [] } })).toMatchObject({ status: 401, body: { status: 'error', error: 'Unauthorized' } });
  });
});

describe('POST /api/batch-process with callback_url', () => {
  it('answers 202, runs the batch on its queue and POSTs the signed results to the callback', async () => {
    // Prepare
    const { key } = await registerKey(runtime());
    const customer = `cust-${uid()}`;
    const hook = receiver.endpoint();

    // Act
    const r = await call(runtime(), 'POST', '/api/batch-process', { key, json: { operations: mixed(customer), execution_mode: 'parallel', callback_url: hook.url } });

    // Assess
    expect(r.status).toBe(202);
    const batchId = r.body.batch_id as string;
    expect(r.body).toEqual({ status: 'accepted', batch_id: batchId, execution_mode: 'parallel', operations: 6, callback_url: hook.url, callback_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/), status_url: `/api/batch/${batchId}` });

    const [hit] = await receiver.waitFor(hook.url, 1, 20_000);
    const payload = new Webhook(r.body.callback_secret).verify(hit.body, hit.headers as Record<string, string>) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(payload).toMatchObject({ type: 'batch.completed', id: hit.headers['webhook-id'], data: { batch_id: batchId, status: 'completed', summary: { succeeded: 2, failed: 4 } } });
    expect(Date.parse(payload.created_at)).not.toBeNaN();
    expectMixedResults(payload.data.results, customer);
    expect(JSON.stringify(payload)).not.toContain(r.body.callback_secret.slice(6));

    const status = await call(runtime(), 'GET', `/api/batch/${batchId}`, { key });
    expect(status.body).toMatchObject({ batch_id: batchId, status: 'completed', progress: { done: 6, total: 6, fraction: 1 }, summary: { succeeded: 2, failed: 4 } });
    expect(status.body.results).toEqual(payload.data.results);
    expect(Date.parse(status.body.finished_at)).toBeGreaterThanOrEqual(Date.parse(status.body.started_at));
    expect(JSON.stringify(status.body)).not.toContain('whsec_');
  });

  it('signs with the callback_secret the caller sent, and does not echo it', async () => {
    const { key } = await registerKey(runtime());
    const hook = receiver.endpoint();
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

    const r = await call(runtime(), 'POST', '/api/batch-process', { key, json: { operations: [optimize(`cust-${uid()}`)], execution_mode: 'sequential', callback_url: hook.url, callback_secret: secret } });

    expect(r.status).toBe(202);
    expect(r.body.callback_secret).toBeUndefined();
    const [hit] = await receiver.waitFor(hook.url, 1, 20_000);
    expect(new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>)).toMatchObject({ data: { batch_id: r.body.batch_id, summary: { succeeded: 1, failed: 0 } } });
  });
});

describe('GET /api/batch/{batch_id}', () => {
  it("answers 404 for another account's batch and for an unknown id", async () => {
    const [a, b] = [await registerKey(runtime()), await registerKey(runtime())];
    const r = await call(runtime(), 'POST', '/api/batch-process', { key: a.key, json: { operations: [optimize(`cust-${uid()}`)] } });
    expect((await call(runtime(), 'GET', `/api/batch/${r.body.batch_id}`, { key: a.key })).status).toBe(200);

    expect(await call(runtime(), 'GET', `/api/batch/${r.body.batch_id}`, { key: b.key })).toMatchObject({ status: 404, body: { status: 'error', error: 'Batch not found' } });
    expect(await call(runtime(), 'GET', '/api/batch/batch_missing', { key: a.key })).toMatchObject({ status: 404, body: { error: 'Batch not found' } });
  });
});

describe('POST /api/batch-process from stored data', () => {
  /** Training and inference share one process here: generous on a loaded CI machine (a guard, not a target). */
  const HEAVY_MS = 120_000;
  const END = Date.UTC(2026, 5, 30, 23);
  /** Hourly load (kW) ending at END: a 20 kW base with a daytime and an evening bump, never zero. */
  const loadCsv = (hours: number, end = END) =>
    ['timestamp,power_kw', ...Array.from({ length: hours }, (_, i) => {
      const t = end - (hours - 1 - i) * HOUR;
      const h = new Date(t).getUTCHours();
      return `${new Date(t).toISOString()},${(20 + 6 * Math.sin((Math.PI * h) / 24) + (h >= 17 && h <= 21 ? 8 : 0)).toFixed(3)}`;
    })].join('\n') + '\n';

  async function siteWithModel(key: string, customer: string, site: string, csv: string) {
    const up = await postForm(runtime(), '/upload_train', key, form({ customer_id: customer, site_id: site, region: 'eu-central-1', location: 'Berlin' }, csv));
    expect(await settled(runtime(), key, up.body.upload_id)).toMatchObject({ status: 'processed' });
    const train = await call(runtime(), 'POST', '/train', { key, json: { customer_id: customer, site_id: site, training_config: { model_type: 'seasonal_naive', cross_validation_folds: 3 } } });
    expect(train.status).toBe(200);
    for (let i = 0; i < 600; i++) {
      const job = await call(runtime(), 'GET', `/api/training-status/${train.body.training_job.job_id}`, { key });
      if (job.body.status === 'completed') return;
      if (job.body.status === 'failed') throw new Error(job.body.reason);
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error('training did not finish');
  }

  it("runs the spec's forecast, optimize and interpolate naming only the customer, from its stored models, forecasts, battery and series", async () => {
    // Prepare: a 50 kW PV site whose last day misses three midday hours, a load site, a model each, a battery (25 kW, no energy capacity).
    const key = await enterpriseKey(runtime());
    const customer = `cust-${uid()}`;
    const [pv, load] = [`pv-${uid()}`, `load-${uid()}`];
    const hole = [10, 11, 12].map((h) => new Date(END - 23 * HOUR + h * HOUR).toISOString());
    const pvCsv = solarCsv(20 * 24, END, 10).split('\n').filter((line) => !hole.some((t) => line.startsWith(t))).join('\n');
    await siteWithModel(key, customer, pv, pvCsv);
    await siteWithModel(key, customer, load, loadCsv(20 * 24));
    const device = await call(runtime(), 'POST', '/api/create-device', { key, json: { customer_id: customer, device_type: 'battery', serial_number: `SN-${uid()}`, manufacturer: 'BYD', capacity_kw: 25, installation_date: '2024-03-15' } });
    expect(device.status).toBe(200);

    // Act: sequential, so the optimize finds the forecasts the forecast operation stored.
    const operations = [
      { type: 'optimize', customer_id: customer, objective: 'revenue', horizon: 12, import_price: 0.2 },
      { type: 'forecast', customer_id: customer, horizon: 24 },
      { type: 'optimize', customer_id: customer, objective: 'cost', import_price: 0.3, export_price: 0.05 },
      { type: 'interpolate', customer_id: customer, site_id: pv, mode: 'fill_missing_blocks' },
      { type: 'optimize', customer_id: customer, objective: 'cost' },
    ];
    const r = await call(runtime(), 'POST', '/api/batch-process', { key, json: { operations, execution_mode: 'sequential' } });

    // Assess
    expect(r.status).toBe(200);
    expect(r.body.results.map((x: { status: string }) => x.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded', 'failed']);
    const [first, forecast, optimized, cleaned, bare] = r.body.results;
    // Before any forecast is stored, the sites' models forecast anew.
    expect(first.result.inputs.solar_forecast).toMatch(new RegExp(`^new forecast fc_\\S+ of site ${pv} by its model v1 \\(one forecast of the quota\\)$`));
    expect(first.result.inputs.price_forecast).toBe('flat import_price 0.2 (also paid for exports) per kWh, as sent');
    expect(first.result.optimization_result).toMatchObject({ objective: 'revenue', time_horizon: 12 });
    const forecastOf = (site: string) => forecast.result.site_forecasts.find((f: { site_id: string }) => f.site_id === site);
    expect([forecastOf(pv).forecasts.length, forecastOf(load).forecasts.length]).toEqual([24, 24]);

    const { inputs, optimization_result: plan } = optimized.result;
    expect(inputs.solar_forecast).toBe(`stored forecast ${forecastOf(pv).forecast_id} of site ${pv} (model v1, generated ${forecastOf(pv).generated_at})`);
    expect(inputs.load_forecast).toMatch(new RegExp(`^stored forecast ${forecastOf(load).forecast_id} of site ${load}`));
    expect(inputs.price_forecast).toBe('flat import_price 0.3 and export_price 0.05 per kWh, as sent');
    expect(inputs.system_config).toMatch(new RegExp(`^battery device ${device.body.device_id} \\(BYD, 25 kW\\)`));
    expect(inputs.notes).toMatch(/no energy_capacity_kwh, so 2 h of its 25 kW \(50 kWh\) is assumed/);
    expect(plan.dispatch_schedule).toHaveLength(24);
    expect(plan.dispatch_schedule[0].timestamp).toBe(forecastOf(pv).forecasts[0].timestamp);
    plan.dispatch_schedule.forEach((row: Record<string, number>, t: number) => {
      expect(row.solar_kw).toBe(Math.max(0, forecastOf(pv).forecasts[t].predicted_power_kw));
      expect(row.load_served).toBe(Math.max(0, forecastOf(load).forecasts[t].predicted_power_kw));
      expect(Math.abs(row.battery_power)).toBeLessThanOrEqual(25 + 1e-6);
      expect([row.import_price, row.export_price]).toEqual([0.3, 0.05]);
    });
    // Exports earn 0.05 against 0.30 paid for imports: storing the surplus for the evening pays.
    expect(plan.economic_summary.net_benefit).toBeGreaterThan(0);

    expect(cleaned.result.inputs).toEqual({ data: expect.stringMatching(new RegExp(`^stored series of site ${pv}, 166 values from `)), series_type: 'solar, the kind of the site\'s model v1' });
    expect(cleaned.result.processing_stats).toMatchObject({ missing_before: 3, missing_filled: 3 });
    expect(cleaned.result.cleaned_data).toHaveLength(7 * 24 + 1);
    const filled = cleaned.result.cleaned_data.filter((p: { quality: string }) => p.quality === 'interpolated');
    expect(filled.map((p: { timestamp: string }) => p.timestamp)).toEqual(hole.map((t) => new Date(t).toISOString()));
    for (const p of filled) expect(p.value).toBeGreaterThan(0);

    // The spec's bare optimize: everything is stored but prices, and the answer says exactly that.
    expect(bare.error).toEqual({ status: 400, message: expect.stringMatching(/^Invalid request: an optimize operation needs price_forecast \(no prices are stored/) });
  }, HEAVY_MS);

  it('optimises over the hours both sites forecast when their data end at different hours', async () => {
    // Prepare: the load site's data end 3 hours before the PV site's, so their forecasts start 3 hours apart.
    const key = await enterpriseKey(runtime());
    const customer = `cust-${uid()}`;
    const [pv, load] = [`pv-${uid()}`, `load-${uid()}`];
    await siteWithModel(key, customer, pv, solarCsv(20 * 24, END, 10));
    await siteWithModel(key, customer, load, loadCsv(20 * 24, END - 3 * HOUR));
    await call(runtime(), 'POST', '/api/create-device', { key, json: { customer_id: customer, device_type: 'battery', serial_number: `SN-${uid()}`, manufacturer: 'BYD', capacity_kw: 5, energy_capacity_kwh: 10, installation_date: '2024-03-15' } });

    // Act
    const r = await call(runtime(), 'POST', '/api/batch-process', { key, json: { operations: [{ type: 'optimize', customer_id: customer, objective: 'cost', import_price: 0.3 }] } });

    // Assess: 24 hours from the later start (the PV forecast's), the load forecast made 3 hours longer to cover them.
    const [result] = r.body.results;
    expect(result.status).toBe('succeeded');
    const schedule = result.result.optimization_result.dispatch_schedule;
    expect(schedule).toHaveLength(24);
    expect(schedule[0].timestamp).toBe(new Date(END + HOUR).toISOString());
    expect(result.result.inputs.load_forecast).toMatch(new RegExp(`^new forecast fc_\\S+ of site ${load} by its model v1`));
  }, HEAVY_MS);

  it('answers what a customer without stored data lacks, and keeps another account out', async () => {
    const [a, b] = [await registerKey(runtime()), await registerKey(runtime())];
    const customer = `cust-${uid()}`;
    await call(runtime(), 'POST', '/api/batch-process', { key: a.key, json: { operations: [optimize(customer)] } });

    const own = await call(runtime(), 'POST', '/api/batch-process', { key: a.key, json: { operations: [{ type: 'interpolate', customer_id: customer, mode: 'fill_missing_blocks' }] } });
    expect(own.body.results[0].error).toEqual({ status: 404, message: `No stored data for customer ${customer}: upload a series, or send data` });

    const other = await call(runtime(), 'POST', '/api/batch-process', {
      key: b.key,
      json: { operations: [{ type: 'optimize', customer_id: customer, objective: 'cost' }, { type: 'interpolate', customer_id: customer, mode: 'fill_missing_blocks' }] },
    });
    expect(other.body.results.map((x: { error: unknown }) => x.error)).toEqual([{ status: 404, message: 'Customer not found' }, { status: 404, message: 'Customer not found' }]);
  });
});

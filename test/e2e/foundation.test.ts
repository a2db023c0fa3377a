/** The foundation over HTTP against the local runtime (in memory, free port). */
import { call, registerKey, uniqueEmail, useRuntime } from '../helpers/runtime';
import { ROUTES } from '../../shared/routes';
import { loadFunction } from '../../local/lambda-context';
import { QUOTA_PROBE_ROUTE, handler as quotaProbe } from '../fixtures/quota-probe';
import { changeTier } from '../../shared/services/accounts/accounts';
import { forgetCachedKeys } from '../../shared/access/authentication';

const runtime = useRuntime({
  routes: [...ROUTES, QUOTA_PROBE_ROUTE],
  loadHandler: async (name) => (name === 'quota-probe' ? quotaProbe : loadFunction(name)),
  env: { RATE_LIMIT_FREE: '100', RATE_LIMIT_PROFESSIONAL: '4' },
});

describe('health', () => {
  it('reports every component operational with real figures', async () => {
    const r = await call(runtime(), 'GET', '/health');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: 'healthy',
      service: 'energy-ops-api',
      components: { forecasting_engine: 'operational', optimization_service: 'operational', policy_intelligence: 'operational', data_processing: 'operational', weather_api: 'operational' },
      performance_metrics: { active_models: 0, processed_forecasts_today: 0 },
    });
    expect(r.body.performance_metrics.success_rate_24h).toBeGreaterThan(0);
  });
});

describe('registration and usage', () => {
  it('registers a free account and reports zero usage of the current month', async () => {
    const { key, email } = await registerKey(runtime());
    const r = await call(runtime(), 'GET', '/api/usage', { key });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      user_email: email,
      tier: 'free',
      current_month: new Date().toISOString().slice(0, 7),
      usage: { policy_queries: 0, forecasts: 0, data_cleaning_operations: 0, model_training_jobs: 0 },
      limits: { policy_queries_per_month: 3, forecasts_per_month: 5, data_cleaning_per_month: 10, model_training_per_month: 0, max_rows_per_cleaning: 100 },
      usage_percentage: { policy_queries: 0, forecasts: 0, data_cleaning: 0 },
    });
  });

  it('refuses a second registration of the same email with 409', async () => {
    const email = uniqueEmail();
    expect((await call(runtime(), 'POST', '/api/register', { json: { email } })).status).toBe(200);
    expect(await call(runtime(), 'POST', '/api/register', { json: { email } })).toMatchObject({ status: 409, body: { status: 'error' } });
  });
});

describe('authentication', () => {
  it.each([
    ['no key', {}],
    ['an unknown x-api-key', { key: 'eo_live_unknown' }],
    ['an unknown bearer key', { key: 'eo_live_unknown', bearer: true }],
    ['a Basic authorization', { headers: { authorization: 'Basic Y29uZjpjb25m' } }],
  ])('answers 401 to %s on both groups with the same body (SPEC authentication rule 4)', async (_label, options) => {
    expect(await call(runtime(), 'GET', '/api/usage', options)).toMatchObject({ status: 401, body: { status: 'error', error: 'Unauthorized' } });
    expect(await call(runtime(), 'POST', '/terminal/assets', { ...options, json: { action: 'list' } })).toMatchObject({ status: 401, body: { status: 'error', error: 'Unauthorized' } });
  });

  it('accepts the same key in both header forms', async () => {
    const { key } = await registerKey(runtime());
    expect((await call(runtime(), 'GET', '/api/usage', { key })).status).toBe(200);
    expect((await call(runtime(), 'GET', '/api/usage', { key, bearer: true })).status).toBe(200);
  });
});

describe('rate limiting', () => {
  it('counts down in the headers and answers 429 with Retry-After past the limit', async () => {
    const { key, email } = await registerKey(runtime());
    await changeTier(email, 'professional'); // 4 requests a minute in this runtime
    forgetCachedKeys();
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await call(runtime(), 'GET', '/api/usage', { key }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 429]);
    expect(answers.map((a) => a.headers.get('x-ratelimit-remaining'))).toEqual(['3', '2', '1', '0', '0']);
    expect(answers[0].headers.get('x-ratelimit-limit')).toBe('4');
    const reset = Number(answers[4].headers.get('x-ratelimit-reset'));
    expect(reset % 60).toBe(0);
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(Number(answers[4].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(answers[4].body).toEqual({ status: 'error', error: 'Rate limit exceeded' });
  });
});

describe('monthly quota over HTTP', () => {
  it('lets exactly 5 of 50 simultaneous requests through and answers the rest with the exact structured body', async () => {
    const { key } = await registerKey(runtime());
    const answers = await Promise.all(Array.from({ length: 50 }, () => call(runtime(), 'POST', '/test/quota-probe', { key, json: {} })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(45);
    expect(refused[0].body).toEqual({
      status: 'error',
      error: {
        code: 'TIER_LIMIT_EXCEEDED',
        message: 'Monthly limit of 5 forecasts reached for the free tier',
        details: { current_tier: 'free', limit: 5, used: 5 },
        upgrade_url: 'https://energy-ops.example.com/pricing',
        support_contact: 'support@energy-ops.example.com',
      },
    });
    expect((await call(runtime(), 'GET', '/api/usage', { key })).body.usage.forecasts).toBe(5);
  });
});

describe('bodies', () => {
  it('answers 400 to malformed JSON, a non-object and a wrong content type, in each group’s shape', async () => {
    const { key } = await registerKey(runtime());
    const raw = (path: string, body: string, type = 'application/json') => call(runtime(), 'POST', path, { key, body, headers: { 'content-type': type } });
    expect(await raw('/api/create-client', '{"a":')).toMatchObject({ status: 400, body: { status: 'error', error: 'Request body is not valid JSON' } });
    expect(await raw('/api/create-client', '[]')).toMatchObject({ status: 400, body: { error: 'Request body must be a JSON object' } });
    expect(await raw('/terminal/assets', '{"action":"list"}', 'text/plain')).toMatchObject({ status: 400, body: { success: false, message: 'Content-Type must be application/json' } });
  });

  it('answers 413 to a body over 6 MB, also on open routes', async () => {
    const { key } = await registerKey(runtime());
    const big = JSON.stringify({ action: 'list', pad: 'x'.repeat(7 * 1024 * 1024) });
    expect(await call(runtime(), 'POST', '/terminal/assets', { key, body: big, headers: { 'content-type': 'application/json' } })).toMatchObject({ status: 413, body: { success: false, message: 'Request body too large' } });
    expect(await call(runtime(), 'POST', '/api/register', { body: big, headers: { 'content-type': 'application/json' } })).toMatchObject({ status: 413, body: { status: 'error', error: 'Request body too large' } });
  });

  it('names the field of a validation failure and lists every problem', async () => {
    const r = await call(runtime(), 'POST', '/api/register', { json: { organization: 'x' } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ status: 'error', error: 'Invalid request: email is required', details: [{ path: 'email', message: 'is required' }] });
  });

  it('answers 404 to an unknown path and 405 to a wrong method', async () => {
    expect(await call(runtime(), 'GET', '/nowhere')).toMatchObject({ status: 404, body: { status: 'error', error: 'Not found' } });
    expect(await call(runtime(), 'DELETE', '/api/usage')).toMatchObject({ status: 405 });
  });

});

describe('clients, customers and devices', () => {
  it('creates each with its id, refuses duplicates with 409 and hides other accounts’ customers', async () => {
    const [{ key }, other] = [await registerKey(runtime()), await registerKey(runtime())];
    const client = await call(runtime(), 'POST', '/api/create-client', { key, json: { client_id: 'c-1', name: 'Solar Co', contact_email: 'a@solar.example', tier: 'free', services: ['forecasting'] } });
    expect(client).toMatchObject({ status: 200, body: { status: 'success', client: { client_id: 'c-1', services: ['forecasting'] } } });
    expect((await call(runtime(), 'POST', '/api/create-client', { key, json: { client_id: 'c-1', name: 'Again', contact_email: 'a@solar.example' } })).status).toBe(409);

    const customerId = `cust-${Date.now()}`;
    const customer = await call(runtime(), 'POST', '/api/create-customer', { key, json: { client_id: 'c-1', customer_id: customerId, contact_name: 'Ann', email: 'ann@example.com', location: 'Nairobi', system_type: 'solar' } });
    expect(customer).toMatchObject({ status: 200, body: { customer: { customer_id: customerId, client_id: 'c-1' } } });

    const device = { customer_id: customerId, device_type: 'battery', serial_number: `SN-${Date.now()}`, manufacturer: 'BYD', capacity_kw: 10, installation_date: '2024-03-15' };
    const created = await call(runtime(), 'POST', '/api/create-device', { key, json: device });
    expect(created).toMatchObject({ status: 200, body: { status: 'success', device_id: expect.stringMatching(/^dev_/), device: { serial_number: device.serial_number } } });
    expect((await call(runtime(), 'POST', '/api/create-device', { key, json: device })).status).toBe(409);
    expect(await call(runtime(), 'POST', '/api/create-device', { key: other.key, json: { ...device, serial_number: 'SN-other' } })).toMatchObject({ status: 404, body: { error: 'Customer not found' } });
    expect(await call(runtime(), 'POST', '/api/create-device', { key, json: { ...device, capacity_kw: 'ten' } })).toMatchObject({ status: 400, body: { error: 'Invalid request: capacity_kw must be a number' } });
  });
});

describe('system status', () => {
  it('refuses a free key with 403 TIER_REQUIRED', async () => {
    const { key } = await registerKey(runtime());
    const r = await call(runtime(), 'GET', '/api/system-status', { key });
    expect(r.status).toBe(403);
    expect(r.body.error).toMatchObject({ code: 'TIER_REQUIRED', details: { current_tier: 'free', required_tier: 'enterprise' } });
  });

  it('gives an enterprise key measured figures', async () => {
    const { key, email } = await registerKey(runtime());
    await changeTier(email, 'enterprise');
    forgetCachedKeys();
    const r = await call(runtime(), 'GET', '/api/system-status', { key });
    expect(r.status).toBe(200);
    const { system_metrics: s, service_metrics: q, model_performance: m } = r.body;
    for (const v of [s.cpu_usage, s.memory_usage, s.disk_usage]) expect(v).toBeGreaterThanOrEqual(0);
    expect(s.disk_usage).toBeGreaterThan(0);
    expect(s.network_throughput).toMatch(/^in \d+\.\d+ KB\/s, out \d+\.\d+ KB\/s$/);
    expect(q.training_queue_length).toBe(0);
    // Forecasts never run as jobs: the spec's active_forecasting_jobs counts training jobs, and says so.
    expect(q).toMatchObject({ active_forecasting_jobs: 0, active_training_jobs: 0, notes: [expect.stringMatching(/^active_forecasting_jobs counts the jobs that build forecasting models/), expect.any(String)] });
    expect(q.api_requests_per_minute).toBeGreaterThan(0);
    expect(m).toEqual({ average_model_accuracy: null, accuracy_metric: expect.stringMatching(/^1 - WAPE/), models_requiring_retraining: 0, latest_model_deployment: null });
  });
});

describe('customer forecast preconditions', () => {
  it('needs customer_id and answers 404 without a model', async () => {
    const { key } = await registerKey(runtime());
    expect(await call(runtime(), 'GET', '/forecast', { key })).toMatchObject({ status: 400, body: { error: 'Missing required parameter: customer_id' } });
    expect(await call(runtime(), 'GET', '/forecast?customer_id=nobody', { key, bearer: true })).toMatchObject({ status: 404, body: { error: 'No model found for customer' } });
    expect(await call(runtime(), 'GET', '/forecast?customer_id=nobody&site_id=s1', { key })).toMatchObject({ status: 404, body: { error: 'Site not found' } });
  });
});

describe('terminal assets', () => {
  it('adds, lists and gets an asset with the spec’s messages', async () => {
    const { key } = await registerKey(runtime());
    const asset = { action: 'add', asset_id: 'inv-1', name: 'Inverter 1', type: 'inverter', capacity_kw: 25, location: 'Berlin', components: [{ oem: 'SMA', model: 'STP 25000', serial: 'X1' }] };
    expect(await call(runtime(), 'POST', '/terminal/assets', { key, json: asset })).toMatchObject({ status: 200, body: { success: true, asset_id: 'inv-1' } });
    const list = await call(runtime(), 'POST', '/terminal/assets', { key, json: { action: 'list' } });
    expect(list.body).toMatchObject({ success: true, count: 1, assets: [{ asset_id: 'inv-1', capacity_kw: 25, created_at: expect.any(String) }] });
    expect((await call(runtime(), 'POST', '/terminal/assets', { key, json: { action: 'get', asset_id: 'inv-1' } })).body.asset.components).toEqual(asset.components);
    expect(await call(runtime(), 'POST', '/terminal/assets', { key, json: { action: 'get', asset_id: 'nope' } })).toMatchObject({ status: 404, body: { success: false, message: 'Asset not found' } });
    expect(await call(runtime(), 'POST', '/terminal/assets', { key, json: { action: 'get' } })).toMatchObject({ status: 400, body: { message: 'Missing required field: asset_id' } });
    expect(await call(runtime(), 'POST', '/terminal/assets', { key, json: { action: 'add', asset_id: 'inv-2', name: 'x' } })).toMatchObject({ status: 400, body: { message: 'Missing required field: type' } });
    expect(await call(runtime(), 'POST', '/terminal/assets', { key, json: { ...asset, asset_id: 'inv-3', components: [{ oem: 'SMA' }] } })).toMatchObject({ status: 400, body: { message: 'Invalid request: components.0.model is required' } });
    expect(await call(runtime(), 'POST', '/terminal/assets', { key, json: { action: 'remove' } })).toMatchObject({ status: 400, body: { message: 'Invalid action' } });
    expect(await call(runtime(), 'POST', '/terminal/assets', { key, json: {} })).toMatchObject({ status: 400, body: { message: 'Invalid action' } });
  });
});

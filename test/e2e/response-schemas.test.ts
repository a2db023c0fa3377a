/**
 * The API document's success schemas are the answers' real shapes: a walk through the service with an
 * enterprise key calls every route it can reach cheaply, and each 2xx body must pass the schema the document
 * gives that route (its row in shared/routes/). The same walk checks each row's quota kind against the
 * usage a keyed request adds: the services meter with `withQuota`, the row declares what they meter.
 */
import * as z from 'zod';
import { ROUTES, type Route } from '../../shared/routes';
import * as ex from '../../shared/openapi/examples';
import { call, enterpriseKey, uniqueEmail, useRuntime, type HttpAnswer } from '../helpers/runtime';
import { form, postForm, settled, solarCsv } from '../helpers/uploads';

const uid = () => Math.random().toString(36).slice(2, 10);

describe('every 2xx body passes its route response schema', () => {
  const runtime = useRuntime({ edge: true, env: { CALLBACK_HOSTS: 'loopback' } });
  /** The answers by route id, as the walk collected them. */
  const answers = new Map<string, HttpAnswer[]>();
  let key: string;

  const record = (routeId: string, answer: HttpAnswer) => {
    answers.set(routeId, [...(answers.get(routeId) ?? []), answer]);
    return answer;
  };
  const route = (id: string) => ROUTES.find((r) => r.id === id)!;
  /** Quota units by kind that each keyed request added to the account's usage, with its answer's status. */
  const metered: { id: string; status: number; json: unknown; added: Record<string, number> }[] = [];
  const usage = async (): Promise<Record<string, number>> => (await call(runtime(), 'GET', '/api/usage', { key })).body.usage;
  /** Calls a route by id, filling its path parameters in order. */
  const hit = async (id: string, options: Parameters<typeof call>[3] = {}, params: string[] = [], query = '') => {
    let i = 0;
    const path = route(id).path.replace(/\{[^}]+\}/g, () => encodeURIComponent(params[i++]));
    const before = route(id).auth === 'key' ? await usage() : undefined;
    const answer = record(id, await call(runtime(), route(id).method, path + query, { key, ...options }));
    if (before) {
      const after = await usage();
      const added = Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]]).filter(([, n]) => n !== 0));
      metered.push({ id, status: answer.status, json: options.json, added });
    }
    return answer;
  };
  const terminal = (name: string, json: unknown) => hit(`terminal-${name}`, { json });
  async function finished(jobId: string) {
    for (let i = 0; i < 600; i++) {
      const status = await call(runtime(), 'GET', `/api/training-status/${jobId}`, { key });
      if (['completed', 'failed'].includes(status.body.status)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`training job ${jobId} did not finish`);
  }

  beforeAll(async () => {
    key = await enterpriseKey(runtime());
    const customer = `cust-${uid()}`;
    const site = `site-${uid()}`;
    const clientId = `client-${uid()}`;

    // Foundation
    await hit('health');
    await hit('register', { key: undefined, json: { ...ex.registerExample, email: uniqueEmail() } });
    await hit('usage');
    await hit('create-client', { json: { ...ex.createClientExample, client_id: clientId } });
    await hit('create-customer', { json: { ...ex.createCustomerExample, client_id: clientId, customer_id: customer } });
    const device = await hit('create-device', { json: { ...ex.createDeviceExample, customer_id: customer, serial_number: `BAT-${uid()}` } });
    await hit('system-status');
    await hit('openapi');

    // Ingestion: 60 days of history, which detection, training and the stored forecasts then use.
    const ids = { customer_id: customer, site_id: site, region: 'eu-central-1', location: 'Berlin' };
    const up = await postForm(runtime(), '/upload_train', key, form(ids, solarCsv(60 * 24, Date.UTC(2026, 5, 30, 23))));
    record('upload-train', up);
    await settled(runtime(), key, up.body.upload_id);
    await hit('upload-status', {}, [up.body.upload_id]);
    const nowcast = await hit('upload-nowcast', { json: { ...ex.nowcastDataPointsExample, customer_id: customer, site_id: site } });
    await settled(runtime(), key, nowcast.body.upload_id);
    const historical = await hit('upload-historical', { body: solarCsv(48), headers: { 'content-type': 'text/csv' } }, [], `?customer_id=${customer}&filename=h.csv`);
    await settled(runtime(), key, historical.body.upload_id);
    await hit('site-put', { json: { customer_id: customer, pv_system: ex.pvSystemExample } }, [site]);
    await hit('site-get', {}, [site], `?customer_id=${customer}`);
    await hit('site-series', {}, [site], `?customer_id=${customer}`);

    // Forecasting
    await hit('forecast', { json: ex.forecastExample });
    await hit('generate-forecast', { json: ex.forecastExample });
    await hit('price-forecast', { json: ex.priceForecastExample });
    await hit('pv-forecast', { json: ex.pvForecastInlineExample });
    await hit('weather-data', { json: ex.weatherDataExample });
    await hit('pv-estimated-actuals', {}, [], `?customer_id=${customer}&site_id=${site}&start=2026-06-20T00:00:00Z&end=2026-06-22T00:00:00Z`);
    for (const id of ['freemium-forecast', 'freemium-forecast-api']) {
      const freemium = new FormData();
      for (const [k, v] of Object.entries({ email: uniqueEmail(), site_name: 'Roof A', location: 'Berlin' })) freemium.append(k, v);
      freemium.append('file', new Blob([solarCsv(60 * 24)], { type: 'text/csv' }), 'history.csv');
      const res = await fetch(runtime().url + route(id).path, { method: 'POST', body: freemium });
      record(id, { status: res.status, headers: res.headers, body: await res.json() });
    }

    // Training, the registry, stored forecasts and their results
    const trained = await hit('train', { json: { customer_id: customer, site_id: site, training_config: { model_type: 'ensemble', cross_validation_folds: 3 }, data_requirements: { minimum_data_points: 168, validation_split: 0.2, test_split: 0.1 } } });
    await finished(trained.body.training_job.job_id);
    await hit('training-status', {}, [trained.body.training_job.job_id]);
    // A second model of the site, then a promotion and a rollback in whichever order its status allows.
    const again = await call(runtime(), 'POST', '/train', { key, json: { customer_id: customer, site_id: site, training_config: { model_type: 'ensemble', cross_validation_folds: 3 }, data_requirements: { minimum_data_points: 168, validation_split: 0.2, test_split: 0.1 } } });
    await finished(again.body.training_job.job_id);
    const models = await call(runtime(), 'POST', '/terminal/ml-models', { key, json: { customer_id: customer } });
    const newest = models.body.model_metrics.find((m: { model_version: string }) => m.model_version === 'v2');
    if (newest?.status === 'production') {
      await hit('model-rollback', {}, [newest.model_id]);
      await hit('model-promote', {}, [newest.model_id]);
    } else if (newest) {
      await hit('model-promote', {}, [newest.model_id]);
      await hit('model-rollback', {}, [newest.model_id]);
    }
    await hit('get-forecast', {}, [], `?customer_id=${customer}&site_id=${site}&horizon_hours=24`);
    await hit('results', {}, [], `?customer_id=${customer}`);
    await hit('forecast-results', {}, [], `?customer_id=${customer}`);
    await hit('models-marketplace');
    await terminal('forecast', { customer_id: customer });
    await terminal('ml-models', {});

    // Asset operations
    const assetId = `inv-${uid()}`;
    await terminal('assets', { action: 'add', asset_id: assetId, name: 'Roof inverter', type: 'inverter', capacity_kw: 5, location: 'Berlin', components: [{ oem: 'SMA', model: 'Sunny Boy 5.0', serial: 'SN1' }], customer_id: customer, site_id: site });
    await terminal('assets', { action: 'list' });
    await terminal('assets', { action: 'get', asset_id: assetId });
    const schedule = await terminal('schedule', { action: 'create', asset_id: assetId, maintenance_type: 'preventive', scheduled_date: '2027-03-01T09:00:00Z', priority: 'high', reason: 'Annual inspection' });
    await terminal('schedule', { action: 'list', asset_id: assetId });
    const bom = await terminal('bom', { action: 'generate', asset_id: assetId, maintenance_type: 'preventive', schedule_id: schedule.body.schedule_id });
    await terminal('bom', { action: 'list', asset_id: assetId });
    const order = await terminal('order', { action: 'create', asset_id: assetId, schedule_id: schedule.body.schedule_id, bom_id: bom.body.bom_id, assigned_technician: 'A. Tech', estimated_duration_hours: 4, priority: 'high' });
    await terminal('order', { action: 'list', asset_id: assetId });
    await terminal('order', { action: 'update', order_id: order.body.order_id, status: 'in_progress' });
    await terminal('track', { action: 'subscribe', order_id: order.body.order_id, callback_url: 'https://hooks.example.com/orders' });
    await terminal('track', { action: 'list', order_id: order.body.order_id });
    await terminal('detect', { action: 'run', asset_id: assetId });
    await terminal('detect', { action: 'list' });
    await terminal('diagnose', { action: 'run', asset_id: assetId });
    await terminal('diagnose', { action: 'list' });
    await terminal('ooda', { customer_id: customer });
    const webhook = await hit('webhooks-create', { json: { webhook_url: 'https://hooks.example.com/energy', events: ['forecast_ready'], secret: 'a-long-enough-shared-secret' } });
    await hit('webhooks-list');
    await hit('webhooks-delete', {}, [webhook.body.webhook_id]);

    // Data cleaning, dispatch, policy and economics
    await hit('interpolate', { json: { ...ex.interpolateExample, customer_id: customer, site_id: site } });
    await terminal('interpolation', { customer_id: customer });
    await hit('dispatch-optimization', { json: ex.dispatchOptimizationExample });
    await hit('battery-sizing', { json: ex.batterySizingExample });
    await hit('dispatch-mpc', { json: { ...ex.mpcExample, device_id: device.body.device_id } });
    await hit('dispatch-mpc-plan', {}, [device.body.device_id]);
    await hit('realtime-dispatch', { json: { ...ex.realtimeDispatchExample, device_id: device.body.device_id } });
    await hit('policy-compliance', { json: ex.policyComplianceExample });
    await hit('policy-compliance-freemium', { key: undefined, json: ex.policyComplianceExample });
    await hit('regulatory-updates', {}, [], '?limit=3');
    await hit('project-economics', { json: ex.projectEconomicsExample });

    // Batch and edge
    const batch = await hit('batch-process', { json: { operations: [{ type: 'interpolate', customer_id: customer, mode: 'fill_missing_blocks', data: ex.interpolateExample.data }], execution_mode: 'parallel' } });
    await hit('batch-status', {}, [batch.body.batch_id ?? 'none']);
    await hit('edge-configure', { json: { cloud_sync: false, performance_mode: 'balanced' } });
    await hit('edge-status');
  }, 300_000);

  it('reaches a 2xx answer on every JSON route of the table', () => {
    const failed = [...answers.entries()].filter(([, list]) => !list.some((a) => a.status < 300)).map(([id, list]) => `${id}: ${list.map((a) => `${a.status} ${JSON.stringify(a.body).slice(0, 200)}`).join(' | ')}`);
    expect(failed).toEqual([]);
    // GET /docs is HTML (test/e2e/docs-browser.test.ts); a route added to the table needs a step in the walk above.
    const unwalked = ROUTES.filter((r) => r.id !== 'docs' && !answers.has(r.id)).map((r) => r.id);
    expect(unwalked).toEqual([]);
  });

  it('validates each 2xx body against its route response schema', () => {
    const problems: string[] = [];
    for (const [id, list] of answers) {
      for (const answer of list.filter((a) => a.status >= 200 && a.status < 300)) {
        const schema = successSchema(route(id), answer.status);
        if (!schema) {
          problems.push(`${id}: no response schema for status ${answer.status}`);
          continue;
        }
        const parsed = schema.safeParse(answer.body);
        if (!parsed.success) problems.push(`${id}: ${z.prettifyError(parsed.error)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("meters each keyed request as its row declares: one unit of the row's quota kind and nothing else", () => {
    // A batch takes the quota of each operation, as that operation's own endpoint would.
    const batchOperationRoute: Record<string, string> = { forecast: 'get-forecast', optimize: 'dispatch-optimization', interpolate: 'interpolate' };
    const expected = (id: string, json: unknown): Record<string, number> => {
      const kinds = id === 'batch-process' ? (json as { operations: { type: string }[] }).operations.map((op) => route(batchOperationRoute[op.type]).quota) : [route(id).quota];
      const counts: Record<string, number> = {};
      for (const kind of kinds) if (kind) counts[kind] = (counts[kind] ?? 0) + 1;
      return counts;
    };
    const successes = metered.filter((m) => m.status < 300);
    expect(successes.map((m) => ({ route: m.id, added: m.added }))).toEqual(successes.map((m) => ({ route: m.id, added: expected(m.id, m.json) })));
    // Every row that declares a quota was walked with a key and reached a 2xx.
    const declared = ROUTES.filter((r) => r.quota).map((r) => r.id);
    expect(declared.filter((id) => !successes.some((m) => m.id === id))).toEqual([]);
  });
});

/** The row's schema for a 2xx status: its one schema (status 200), or the one it names for that status. */
function successSchema(row: Route, status: number): z.ZodType | undefined {
  if (row.response instanceof z.ZodType) return status === 200 ? row.response : undefined;
  return (row.response as Record<number, z.ZodType>)[status];
}

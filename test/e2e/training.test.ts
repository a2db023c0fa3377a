/**
 * Training over HTTP against the local runtime: upload -> automatic or requested training (queue ->
 * trainer worker) -> model registry -> GET /forecast -> stored results; champion/challenger; failures.
 */
import { call, registerKey, useRuntime } from '../helpers/runtime';
import { form, postForm, settled, solarCsv } from '../helpers/uploads';
import { mulberry32 } from '../helpers/seeded-random';
import { changeTier } from '../../shared/services/accounts';
import { forgetCachedKeys } from '../../shared/services/authentication';
import { runTrainingMessage } from '../../shared/services/training';
import { listModelsOfSite } from '../../shared/store/models-repo';

/** Training, inference and tuning share one process here: generous on a loaded CI machine (a guard, not a target). */
const HEAVY_MS = 120_000;
const uid = () => Math.random().toString(36).slice(2, 10);
const fields = () => ({ customer_id: `cust-${uid()}`, site_id: `site-${uid()}`, region: 'eu-central-1', location: 'Berlin' });
/** Day-to-day cloudiness, seeded: clear days and overcast ones, as a real site sees. */
const cloudy = (seed: number) => {
  const random = mulberry32(seed);
  const days: number[] = [];
  return (day: number) => (days[day] ??= 0.2 + 0.8 * random());
};

describe('training, the model registry and customer forecasts', () => {
  const runtime = useRuntime();
  let key: string;

  beforeAll(async () => {
    const account = await registerKey(runtime());
    await changeTier(account.email, 'enterprise');
    forgetCachedKeys();
    key = account.key;
  });

  async function upload(f: ReturnType<typeof fields>, csv: string) {
    const up = await postForm(runtime(), '/upload_train', key, form(f, csv));
    expect(up.status).toBe(200);
    expect(await settled(runtime(), key, up.body.upload_id)).toMatchObject({ status: 'processed' });
  }

  async function finished(jobId: string) {
    for (let i = 0; i < 600; i++) {
      const r = await call(runtime(), 'GET', `/api/training-status/${jobId}`, { key });
      if (['completed', 'failed'].includes(r.body.status)) return r.body;
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error(`job ${jobId} did not finish`);
  }

  async function train(f: ReturnType<typeof fields>, modelType: string, minimum = 168) {
    const r = await call(runtime(), 'POST', '/train', {
      key,
      json: { customer_id: f.customer_id, site_id: f.site_id, training_config: { model_type: modelType, cross_validation_folds: 7 }, data_requirements: { minimum_data_points: minimum, validation_split: 0.3, test_split: 0.15 } },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ statusCode: 200, training_job: { status: 'initiated' }, training_progress_url: `/api/training-status/${r.body.training_job.job_id}` });
    return finished(r.body.training_job.job_id);
  }

  it('trains automatically on six months of history, registers the model and serves GET /forecast', async () => {
    const f = fields();
    await upload(f, solarCsv(190 * 24, Date.UTC(2026, 5, 30, 23), 1, cloudy(1)));
    let models: Awaited<ReturnType<typeof listModelsOfSite>> = [];
    for (let i = 0; i < 600 && !models.length; i++) {
      await new Promise((res) => setTimeout(res, 100));
      models = await listModelsOfSite(f.customer_id, f.site_id);
    }
    expect(models).toEqual([expect.objectContaining({ status: 'production', model_version: 'v1', model_type: 'forecasting', training_data_points: 190 * 24 })]);

    const listed = await call(runtime(), 'POST', '/terminal/ml-models', { key, json: { customer_id: f.customer_id } });
    expect(listed.body).toMatchObject({ success: true, count: 1, model_metrics: [{ status: 'production', artifact_locations: { model: expect.stringMatching(/^s3:\/\/.+model\.json$/) } }] });

    const forecast = await call(runtime(), 'GET', `/forecast?customer_id=${f.customer_id}&site_id=${f.site_id}`, { key });
    expect(forecast.status).toBe(200);
    expect(forecast.body).toMatchObject({ customer_id: f.customer_id, site_id: f.site_id, horizon_hours: 48, metadata: { model_version: 'v1', training_data_points: 190 * 24 } });
    expect(forecast.body.forecasts).toHaveLength(48);
    // Night hours (UTC 21-03 in the data) are exactly 0; day hours follow the recent days' level.
    const byHour = new Map<number, number>(forecast.body.forecasts.map((p: { timestamp: string; predicted_power_kw: number }) => [new Date(p.timestamp).getUTCHours(), p.predicted_power_kw]));
    expect(byHour.get(0)).toBe(0);
    expect(byHour.get(12)).toBeGreaterThan(0.5);
    expect(byHour.get(12)).toBeLessThan(5.5);
    for (const p of forecast.body.forecasts) expect(p.confidence_interval.lower).toBeLessThanOrEqual(p.predicted_power_kw);

    const stored = await call(runtime(), 'POST', '/terminal/forecast', { key, json: { customer_id: f.customer_id } });
    expect(stored.body).toMatchObject({ success: true, count: 1, forecast_results: [{ forecast_id: forecast.body.forecast_id, horizon_hours: 48, model_version: 'v1' }] });
    expect(stored.body.forecast_results[0].forecast_points).toHaveLength(48);
  }, HEAVY_MS);

  it('promotes a better model and archives the first; a worse one stays challenger', async () => {
    const f = fields();
    await upload(f, solarCsv(40 * 24, Date.UTC(2026, 5, 30, 23), 1, cloudy(2)));

    const first = await train(f, 'seasonal_naive');
    expect(first).toMatchObject({ status: 'completed', progress: 100, model_artifacts: { deployment_ready: true } });
    const better = await train(f, 'ensemble');
    expect(better).toMatchObject({ status: 'completed', model_artifacts: { deployment_ready: true }, outcome: expect.stringMatching(/^promoted/) });
    const worse = await train(f, 'seasonal_naive');
    expect(worse).toMatchObject({ status: 'completed', model_artifacts: { deployment_ready: false }, outcome: expect.stringMatching(/^kept as challenger/) });

    const models = await listModelsOfSite(f.customer_id, f.site_id);
    expect(models.map((m) => [m.model_version, m.status])).toEqual([
      ['v1', 'archived'],
      ['v2', 'production'],
      ['v3', 'challenger'],
    ]);
    expect(better.model_performance.cross_validation_scores).toHaveLength(7);
    expect(Object.keys(better.model_performance.feature_importance)).toEqual(expect.arrayContaining(['lag_24h', 'rolling_mean_24h', 'hour_of_day']));
  }, HEAVY_MS);

  it('fails a job on too little data with the reason, and consumes no model', async () => {
    const f = fields();
    await upload(f, solarCsv(3 * 24));

    const job = await train(f, 'ensemble', 500);

    expect(job).toMatchObject({ status: 'failed', reason: 'The site has 72 data points; this training needs at least 500 (data_requirements.minimum_data_points)' });
    expect(await listModelsOfSite(f.customer_id, f.site_id)).toEqual([]);
  });

  it('survives a duplicate message: the job is trained once', async () => {
    const f = fields();
    await upload(f, solarCsv(20 * 24, Date.UTC(2026, 5, 30, 23), 1, cloudy(3)));
    const done = await train(f, 'ensemble');

    await runTrainingMessage({ type: 'requested', job_id: done.job_id });

    expect(await listModelsOfSite(f.customer_id, f.site_id)).toHaveLength(1);
    expect((await call(runtime(), 'GET', `/api/training-status/${done.job_id}`, { key })).body).toMatchObject({ status: 'completed', completed_at: done.completed_at });
  });

  it('answers the spec errors: 404 for an unknown or foreign job, a site or customer without a model', async () => {
    expect(await call(runtime(), 'GET', '/api/training-status/job_nope', { key })).toMatchObject({ status: 404, body: { status: 'error', error: 'Training job not found' } });
    const other = await registerKey(runtime());
    expect(await call(runtime(), 'GET', `/forecast?customer_id=cust-${uid()}`, { key: other.key })).toMatchObject({ status: 404, body: { error: 'No model found for customer' } });
    expect(await call(runtime(), 'GET', '/forecast', { key: other.key })).toMatchObject({ status: 400, body: { error: 'Missing required parameter: customer_id' } });
    // Another account's customer is reported as missing.
    expect(await call(runtime(), 'POST', '/train', { key: other.key, json: { ...fields(), training_config: { model_type: 'ensemble' } } })).toMatchObject({ status: 404, body: { error: 'Customer not found' } });
  });

  it('refuses training beyond the tier allowance with the structured error (free tier: none)', async () => {
    const free = await registerKey(runtime());
    const f = fields();
    const up = await postForm(runtime(), '/upload_train', free.key, form(f, solarCsv(72)));
    await settled(runtime(), free.key, up.body.upload_id);

    const r = await call(runtime(), 'POST', '/train', { key: free.key, json: { ...f, training_config: { model_type: 'ensemble' } } });

    expect(r.body).toMatchObject({ error: { code: 'TIER_LIMIT_EXCEEDED', details: { current_tier: 'free', limit: 0 } } });
  });

  it('joins stored forecasts with the actuals that arrive later in GET /results', async () => {
    const f = fields();
    const end = Date.UTC(2026, 5, 30, 23);
    await upload(f, solarCsv(20 * 24, end, 1, cloudy(4)));
    await train(f, 'ensemble');
    const forecast = await call(runtime(), 'GET', `/forecast?customer_id=${f.customer_id}&site_id=${f.site_id}&horizon_hours=24`, { key });
    expect(forecast.status).toBe(200);
    // The next day's actuals arrive as a nowcast.
    const next = solarCsv(24, end + 24 * 3_600_000);
    const up = await postForm(runtime(), '/upload_nowcast', key, form(f, next));
    await settled(runtime(), key, up.body.upload_id);

    const results = await call(runtime(), 'GET', `/results?customer_id=${f.customer_id}&site_id=${f.site_id}`, { key });

    expect(results.status).toBe(200);
    const data = results.body.results.forecast_data as { predicted_value: number; actual_value: number | null; accuracy: number | null }[];
    expect(data).toHaveLength(24);
    expect(data.every((p) => p.actual_value !== null)).toBe(true);
    const errors = data.reduce((s, p) => s + Math.abs(p.actual_value! - p.predicted_value), 0);
    const total = data.reduce((s, p) => s + Math.abs(p.actual_value!), 0);
    expect(results.body.results.performance_metrics.overall_accuracy).toBeCloseTo(Math.max(0, 1 - errors / total), 3);
    expect(results.body.results.performance_metrics.model_version).toBe('v1');
    expect(results.body.results.business_insights.peak_demand_management).toMatch(/^Highest forecast/);
    expect((await call(runtime(), 'GET', `/api/forecast-results?customer_id=${f.customer_id}&site_id=${f.site_id}`, { key })).body).toEqual(results.body);
  });
});

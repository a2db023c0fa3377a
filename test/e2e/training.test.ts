/**
 * Training over HTTP against the local runtime: upload -> automatic or requested training (queue ->
 * trainer worker) -> model registry -> GET /forecast -> stored results; champion/challenger; failures.
 */
import { call, registerKey, useRuntime } from '../helpers/runtime';
import { form, postForm, settled, solarCsv } from '../helpers/uploads';
import { mulberry32 } from '../helpers/seeded-random';
import { changeTier } from '../../shared/services/accounts/accounts';
import { forgetCachedKeys } from '../../shared/access/authentication';
import { runTrainingMessage } from '../../shared/services/training/training';
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

  async function upload(f: ReturnType<typeof fields>, csv: string, as = key) {
    const up = await postForm(runtime(), '/upload_train', as, form(f, csv));
    expect(up.status).toBe(200);
    const status = await settled(runtime(), as, up.body.upload_id);
    expect(status).toMatchObject({ status: 'processed' });
    return status;
  }

  async function finished(jobId: string, as = key) {
    for (let i = 0; i < 1200; i++) {
      const r = await call(runtime(), 'GET', `/api/training-status/${jobId}`, { key: as });
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
    const status = await upload(f, solarCsv(190 * 24, Date.UTC(2026, 5, 30, 23), 1, cloudy(1)));
    // The upload names the job it queued: the test waits on that job, not on time.
    expect(status.training).toMatchObject({ queued: true, job_id: expect.stringMatching(/^job_auto_/), reason: expect.stringContaining("one unit of the enterprise tier's monthly training quota taken") });
    expect(await finished(status.training.job_id)).toMatchObject({ status: 'completed', outcome: 'promoted to production (the site had no production model)' });
    const models = await listModelsOfSite(f.customer_id, f.site_id);
    expect(models).toEqual([expect.objectContaining({ status: 'production', model_version: 'v1', model_type: 'forecasting', training_data_points: 190 * 24 })]);

    const listed = await call(runtime(), 'POST', '/terminal/ml-models', { key, json: { customer_id: f.customer_id } });
    expect(listed.body).toMatchObject({ success: true, count: 1, model_metrics: [{ status: 'production', artifact_locations: { model: expect.stringMatching(/^s3:\/\/.+model\.json$/) } }] });
    // No neural-network fields passed off as real: named as not applicable, and the folds named as folds.
    expect(listed.body.model_metrics[0]).toMatchObject({
      hyperparameters: { layers: [], learning_rate: 0, dropout: 0, not_applicable: ['layers', 'learning_rate', 'dropout'], members: expect.any(Array) },
      training_metrics: { epochs: 1, early_stop_epoch: 1, cross_validation_folds: 14, loss_metric: expect.stringMatching(/^mean squared error/) },
      validation_accuracy: models[0].validation_accuracy,
      accuracy_metric: expect.stringMatching(/^1 - WAPE/),
      validation_mape_percent: models[0].metrics!.mape_percent,
    });
    const offered = (await call(runtime(), 'GET', '/api/models/marketplace', { key })).body;
    expect(offered.available_models.find((m: { model_id: string }) => m.model_id === models[0].model_id)).toMatchObject({
      accuracy: models[0].validation_accuracy,
      price: 'no separate charge: trained for your site within the monthly training quota of the professional (10 training jobs a month) and enterprise (unlimited training jobs a month) tiers',
    });

    const forecast = await call(runtime(), 'GET', `/forecast?customer_id=${f.customer_id}&site_id=${f.site_id}`, { key });
    expect(forecast.status).toBe(200);
    expect(forecast.body).toMatchObject({ customer_id: f.customer_id, site_id: f.site_id, horizon_hours: 48, metadata: { model_version: 'v1', training_data_points: 190 * 24 } });
    expect(forecast.body.forecasts).toHaveLength(48);
    // The data ends on 2026-06-30 23:00: the forecast starts there, says how old the data is and warns.
    expect(forecast.body).toMatchObject({ forecast_start: '2026-07-01T00:00:00.000Z', data_end: '2026-06-30T23:00:00.000Z' });
    expect(forecast.body.data_age_hours).toBeCloseTo((Date.parse(forecast.body.generated_at) - Date.UTC(2026, 5, 30, 23)) / 3_600_000, 0);
    expect(forecast.body.warnings).toEqual([expect.stringContaining('the whole forecast (2026-07-01T00:00:00.000Z to 2026-07-02T23:00:00.000Z) lies before the request')]);
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
    expect(models[1]).toMatchObject({ previous_production_model_id: models[0].model_id, status_history: [{ action: 'trained', status: 'production', by: 'training', from_production_version: 'v1' }] });
    expect(better.model_performance.cross_validation_scores).toHaveLength(7);
    expect(better.model_performance.accuracy).toBe(models[1].validation_accuracy);

    // The user overrides the trainer: the challenger goes to production, then is rolled back to v2.
    const promoted = await call(runtime(), 'POST', `/api/models/${models[2].model_id}/promote`, { key });
    expect(promoted).toMatchObject({ status: 200, body: { model: { model_version: 'v3', status: 'production' }, previous_production: { model_version: 'v2', status: 'archived' } } });
    const served = await call(runtime(), 'GET', `/forecast?customer_id=${f.customer_id}&site_id=${f.site_id}&horizon_hours=24`, { key });
    expect(served.body.metadata.model_version).toBe('v3');
    const rolledBack = await call(runtime(), 'POST', `/api/models/${models[2].model_id}/rollback`, { key });
    expect(rolledBack).toMatchObject({ status: 200, body: { model: { model_version: 'v2', status: 'production' }, rolled_back: { model_version: 'v3', status: 'archived' } } });
    expect((await listModelsOfSite(f.customer_id, f.site_id)).map((m) => [m.model_version, m.status])).toEqual([
      ['v1', 'archived'],
      ['v2', 'production'],
      ['v3', 'archived'],
    ]);
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

  it('queues no automatic training for a tier without training, and says why in the upload status', async () => {
    const free = await registerKey(runtime());
    const f = fields();

    const status = await upload(f, solarCsv(190 * 24), free.key);

    expect(status.training).toEqual({ queued: false, reason: 'the free tier includes no model training (model_training_per_month: 0): no automatic training' });
    expect((await call(runtime(), 'GET', '/api/usage', { key: free.key })).body.usage.model_training_jobs).toBe(0);
    expect(await listModelsOfSite(f.customer_id, f.site_id)).toEqual([]);
  });

  it('counts automatic training against the monthly training quota, and queues it once per site', async () => {
    const pro = await registerKey(runtime());
    await changeTier(pro.email, 'professional');
    forgetCachedKeys();
    const f = fields();

    const first = await upload(f, solarCsv(190 * 24, Date.UTC(2026, 5, 30, 23), 1, cloudy(5)), pro.key);
    const second = await upload(f, solarCsv(24, Date.UTC(2026, 6, 1, 23)), pro.key);

    expect(first.training).toMatchObject({ queued: true, job_id: expect.any(String) });
    expect(second.training).toMatchObject({ queued: false, job_id: first.training.job_id, reason: expect.stringMatching(/^automatic training was already queued for this site at /) });
    expect((await call(runtime(), 'GET', '/api/usage', { key: pro.key })).body.usage.model_training_jobs).toBe(1);
    expect(await finished(first.training.job_id, pro.key)).toMatchObject({ status: 'completed' });
  }, HEAVY_MS);

  it('joins stored forecasts with the actuals that arrive later in GET /results, each forecast and model apart', async () => {
    const f = fields();
    const end = Date.UTC(2026, 5, 30, 23);
    await upload(f, solarCsv(20 * 24, end, 1, cloudy(4)));
    await train(f, 'ensemble');
    const forecastNow = () => call(runtime(), 'GET', `/forecast?customer_id=${f.customer_id}&site_id=${f.site_id}&horizon_hours=24`, { key });
    const first = await forecastNow();
    expect(first.status).toBe(200);
    // A second model (the same data: a tie, so a challenger) promoted by the user, and a forecast with it.
    await train(f, 'ensemble');
    const [, v2] = await listModelsOfSite(f.customer_id, f.site_id);
    expect((await call(runtime(), 'POST', `/api/models/${v2.model_id}/promote`, { key })).status).toBe(200);
    const second = await forecastNow();
    expect(second.body.metadata.model_version).toBe('v2');
    // The next day's actuals arrive as a nowcast.
    const next = solarCsv(24, end + 24 * 3_600_000);
    const up = await postForm(runtime(), '/upload_nowcast', key, form(f, next));
    await settled(runtime(), key, up.body.upload_id);

    const results = await call(runtime(), 'GET', `/results?customer_id=${f.customer_id}&site_id=${f.site_id}`, { key });

    expect(results.status).toBe(200);
    type Point = { forecast_id: string; model_version: string; timestamp: string; predicted_value: number; actual_value: number | null; confidence_interval: [number, number] };
    const data = results.body.results.forecast_data as Point[];
    expect(data).toHaveLength(48);
    expect(data.every((p) => p.actual_value !== null)).toBe(true);
    // Every hour twice, once under each forecast_id, never merged.
    expect(data.filter((p) => p.forecast_id === first.body.forecast_id).map((p) => p.model_version)).toEqual(Array(24).fill('v1'));
    expect(data.filter((p) => p.forecast_id === second.body.forecast_id).map((p) => p.model_version)).toEqual(Array(24).fill('v2'));
    const accuracyOf = (points: Point[]) => Math.max(0, 1 - points.reduce((s, p) => s + Math.abs(p.actual_value! - p.predicted_value), 0) / points.reduce((s, p) => s + Math.abs(p.actual_value!), 0));
    const ofForecast = (id: string) => data.filter((p) => p.forecast_id === id);
    const scored = (points: Point[]) => points.filter((p) => !(p.actual_value === 0 && (p.predicted_value === 0 || (p.confidence_interval[0] === 0 && p.confidence_interval[1] === 0))));
    const hitRate = (points: Point[]) => scored(points).filter((p) => p.confidence_interval[0] <= p.actual_value! && p.actual_value! <= p.confidence_interval[1]).length / scored(points).length;
    const { forecasts, models, performance_metrics: metrics } = results.body.results;
    expect(forecasts.map((x: { forecast_id: string; model_version: string }) => [x.forecast_id, x.model_version])).toEqual([
      [first.body.forecast_id, 'v1'],
      [second.body.forecast_id, 'v2'],
    ]);
    for (const x of forecasts) {
      expect(x.accuracy).toBeCloseTo(accuracyOf(ofForecast(x.forecast_id)), 3);
      // Night hours (nothing forecast, nothing produced) are no misses of the interval.
      expect(x.night_points_excluded).toBeGreaterThan(0);
      expect(x.interval_points_scored).toBe(scored(ofForecast(x.forecast_id)).length);
      expect(x.interval_points_scored + x.night_points_excluded).toBe(24);
      expect(x.interval_hit_rate).toBeCloseTo(hitRate(ofForecast(x.forecast_id)), 3);
    }
    expect(models.map((m: { model_version: string; forecasts: number }) => [m.model_version, m.forecasts])).toEqual([
      ['v1', 1],
      ['v2', 1],
    ]);
    // performance_metrics: the model of the latest forecast, over its forecasts only.
    expect(metrics).toMatchObject({ model_version: 'v2', forecasts: 1 });
    expect(metrics.overall_accuracy).toBeCloseTo(accuracyOf(ofForecast(second.body.forecast_id)), 3);
    expect(results.body.results.business_insights.peak_demand_management).toMatch(/^Highest forecast/);
    expect((await call(runtime(), 'GET', `/api/forecast-results?customer_id=${f.customer_id}&site_id=${f.site_id}`, { key })).body).toEqual(results.body);
  }, HEAVY_MS);
});

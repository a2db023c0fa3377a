/**
 * Training benchmark, through the local runtime as a customer uses it: one year of hourly and one year of
 * 15-minute data (the synthetic Berlin rooftop year of bench/ingest-data.ts) uploaded with POST
 * /upload_train, trained with POST /train, and served with GET /forecast. Reports the worker's training
 * time (job started to completed), the stored artifact size, and GET /forecast latency with the model warm.
 * Writes bench/results/training.{json,md}.
 */
import { enterpriseRuntime } from './enterprise-runtime';
import { yearCsv } from './ingest-data';
import { roundHalfUp } from '../shared/domain/rounding';
import { writeResults } from './results-files';

const TARGET_TRAINING_SECONDS_15_MIN = 60;
const TARGET_FORECAST_MS = 300;
const WARM_CALLS = 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function benchTraining(): Promise<void> {
  const { runtime, apiKey: api_key } = await enterpriseRuntime('train');
  try {
    const headers = { 'x-api-key': api_key };
    const json = async (path: string, init: RequestInit = {}) => {
      const res = await fetch(`${runtime.url}${path}`, { ...init, headers: { ...headers, ...(init.body && typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}) } });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bench reads a few known fields of the answers
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const results: Record<string, unknown> = {};
    for (const step of [60, 15]) {
      const ids = { customer_id: `bench-${step}`, site_id: `year-${step}min` };
      const form = new FormData();
      for (const [k, v] of Object.entries({ ...ids, region: 'eu-central-1', location: 'Berlin' })) form.append(k, v);
      form.append('file', new Blob([yearCsv(step)], { type: 'text/csv' }), 'year.csv');
      const ack = (await (await fetch(`${runtime.url}/upload_train`, { method: 'POST', headers, body: form })).json()) as { upload_id: string };
      for (let s = (await json(`/api/uploads/${ack.upload_id}`)).body; !['processed', 'failed'].includes(s.status); s = (await json(`/api/uploads/${ack.upload_id}`)).body) await sleep(200);
      // The upload of a year also starts automatic training; the requested job below follows it, and the
      // champion/challenger comparison against the automatic model is part of what is timed.
      const train = await json('/train', { method: 'POST', body: JSON.stringify({ ...ids, training_config: { model_type: 'ensemble' } }) });
      const jobId = train.body.training_job.job_id as string;
      let status = (await json(`/api/training-status/${jobId}`)).body;
      while (!['completed', 'failed'].includes(status.status)) {
        await sleep(250);
        status = (await json(`/api/training-status/${jobId}`)).body;
      }
      if (status.status !== 'completed') throw new Error(`training of the ${step}-minute year failed: ${status.reason}`);
      const query = `/forecast?customer_id=${ids.customer_id}&site_id=${ids.site_id}&horizon_hours=48`;
      const coldStarted = performance.now();
      const first = await json(query);
      const coldMs = performance.now() - coldStarted;
      if (first.status !== 200) throw new Error(`GET /forecast answered ${first.status}: ${JSON.stringify(first.body)}`);
      const warm: number[] = [];
      for (let k = 0; k < WARM_CALLS; k++) {
        const started = performance.now();
        await json(query);
        warm.push(performance.now() - started);
      }
      warm.sort((a, b) => a - b);
      results[`${step}_minute_year`] = {
        rows: (await json(`/api/uploads/${ack.upload_id}`)).body.rows,
        training_seconds: roundHalfUp((Date.parse(status.completed_at) - Date.parse(status.started_at)) / 1000, 2),
        artifact_size_mb: status.model_artifacts.size_mb,
        test_accuracy: status.model_performance.validation_accuracy,
        member_weights: status.model_performance.member_weights,
        outcome: status.outcome,
        forecast_first_call_ms: Math.round(coldMs),
        forecast_warm_median_ms: Math.round(warm[Math.floor(warm.length / 2)]),
        forecast_points: first.body.forecasts.length,
      };
    }
    const q = results['15_minute_year'] as { training_seconds: number; forecast_warm_median_ms: number };
    const out = {
      measured_at: new Date().toISOString(),
      data: 'synthetic Berlin 8 kW rooftop year (bench/ingest-data.ts), uploaded over HTTP',
      ...results,
      targets: {
        training_15_minute_year_seconds: q.training_seconds,
        training_ratio_to_target: roundHalfUp(q.training_seconds / TARGET_TRAINING_SECONDS_15_MIN, 3),
        forecast_warm_ms: q.forecast_warm_median_ms,
        forecast_ratio_to_target: roundHalfUp(q.forecast_warm_median_ms / TARGET_FORECAST_MS, 3),
        wanted: `training a 15-minute year under ${TARGET_TRAINING_SECONDS_15_MIN} s; GET /forecast warm under ${TARGET_FORECAST_MS} ms`,
      },
    };
    const md = ['# Training benchmark', '', '```json', JSON.stringify(out, null, 2), '```', ''].join('\n');
    writeResults('training', out, md);
  } finally {
    await runtime.close();
  }
}

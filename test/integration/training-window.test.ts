/**
 * Training and serving on a bounded window (issue 20, item 2), against the embedded stores: a site whose
 * 5-minute history is longer than regularise accepts trains on its last TRAINING_WINDOW_DAYS, averaged to
 * 15 minutes, and serves from the last SERVING_HISTORY_DAYS at the model's step.
 */
import { useRuntime } from '../helpers/runtime';
import { writeFiveMinuteSite } from '../../bench/scale/training';
import { MAX_GRID_POINTS } from '../../shared/domain/forecasting/regularise';
import { forecastWithModel, SERVING_HISTORY_DAYS } from '../../shared/domain/training/serve';
import { TRAINING_WINDOW_DAYS } from '../../shared/domain/training/window';
import { loadSiteModelData } from '../../shared/services/forecasting/site-model-data';
import { loadArtifact, runTrainingMessage } from '../../shared/services/training/training';
import { listModelsOfSite } from '../../shared/store/models-repo';
import { getSite } from '../../shared/store/sites-repo';
import { createTrainingJob, getTrainingJob } from '../../shared/store/training-jobs-repo';

const DAY = 86_400_000;
const MINUTE = 60_000;
const END = Date.UTC(2026, 5, 30, 23, 55);
const uid = () => Math.random().toString(36).slice(2, 10);

describe('training on a window of a long 5-minute history', () => {
  useRuntime();

  it('trains a site with 2.5 years of 5-minute data on its last 400 days at 15 minutes, and serves at 15 minutes', async () => {
    // Prepare: more 5-minute points than regularise takes at once, which training used to refuse.
    const ids = { account_id: `acct_${uid()}`, customer_id: `cust-${uid()}`, site_id: `site-${uid()}` };
    const rows = await writeFiveMinuteSite(ids, 2.5, END);
    expect(rows).toBeGreaterThan(MAX_GRID_POINTS);
    const now = new Date().toISOString();
    const jobId = `job_${uid()}`;
    await createTrainingJob({
      job_id: jobId,
      ...ids,
      origin: 'requested',
      status: 'initiated',
      stage: 'queued',
      progress: 0,
      // One cheap member keeps the test short; the window and the step are the same for every model type.
      training_config: { model_type: 'seasonal_naive', cross_validation_folds: 3 },
      data_requirements: { minimum_data_points: 168, validation_split: 0.2, test_split: 0.05 },
      training_features: [],
      created_at: now,
      updated_at: now,
      estimated_completion: now,
    });

    // Act
    await runTrainingMessage({ type: 'requested', job_id: jobId });

    // Assess: the job completed on the window, averaged to 15-minute steps.
    const job = await getTrainingJob(jobId);
    expect(job).toMatchObject({ status: 'completed', stage: 'completed', progress: 100 });
    const [model] = await listModelsOfSite(ids.customer_id, ids.site_id);
    const windowStart = Math.floor((END - TRAINING_WINDOW_DAYS * DAY) / (15 * MINUTE)) * 15 * MINUTE;
    const windowEnd = Math.floor(END / (15 * MINUTE)) * 15 * MINUTE;
    expect(model).toMatchObject({ status: 'production', training_data_points: TRAINING_WINDOW_DAYS * 96 + 1, training_data_window: { start: new Date(windowStart).toISOString(), end: new Date(windowEnd).toISOString() } });
    const artifact = await loadArtifact(model);
    expect(artifact.stepMinutes).toBe(15);

    // Serving reads only its window, at the model's step, and forecasts at that step.
    const site = (await getSite(ids.customer_id, ids.site_id))!;
    const data = await loadSiteModelData(site, { sinceMs: END - SERVING_HISTORY_DAYS * DAY, weather: false, stepMinutes: artifact.stepMinutes });
    expect(data.series.stepMinutes).toBe(15);
    expect(data.series.t[0]).toBe(Math.floor((END - SERVING_HISTORY_DAYS * DAY) / (15 * MINUTE)) * 15 * MINUTE);
    expect(data.series.y).toHaveLength(SERVING_HISTORY_DAYS * 96 + 1);
    const points = forecastWithModel(artifact, data.series, data.context, 96);
    expect(points).toHaveLength(96);
    expect(points[1].t - points[0].t).toBe(15 * MINUTE);
    // Seasonal naive repeats the last day: the load-like day stays between its night and noon levels (roughly 15 to 65 kW).
    for (const p of points) {
      expect(p.value).toBeGreaterThan(10);
      expect(p.value).toBeLessThan(70);
    }
  }, 120_000);
});

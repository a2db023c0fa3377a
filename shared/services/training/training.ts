/**
 * Training (ARCHITECTURE 5, flow 2): POST /train creates jobs and queues them; the trainer worker loads the
 * site's data, trains (shared/domain/training), stores the artifacts, registers the model as challenger and
 * promotes it when it beats production on the same test window; GET /api/training-status reports progress.
 */
import { createHash, randomUUID } from 'node:crypto';
import { config } from '../../config';
import { BadRequest, NotFound, TierLimitExceeded } from '../../errors';
import { monthlyLimit } from '../../domain/accounts/tiers';
import { log } from '../../logger';
import { ForecastInputError } from '../../domain/forecasting/regularise';
import { ENSEMBLE } from '../../domain/forecasting/engine';
import { ALL_MEMBERS } from '../../domain/forecasting/members';
import { ACCURACY_METRIC } from '../../domain/training/accuracy';
import { FEATURE_MODEL, featureLayout, type FeatureConfig } from '../../domain/training/feature-model';
import { candidateMembers, dayAheadOnWindow, trainModel, TrainingDataError, type ModelArtifact, type TrainingReport } from '../../domain/training/train';
import { modelStepMinutes, TRAINING_WINDOW_DAYS, trainingWindowStart } from '../../domain/training/window';
import { modelArtifactKey } from '../../domain/uploads/object-keys';
import { publishEvent } from '../../events/event-bus';
import { enqueue } from '../../events/queues';
import type { TrainingMessage } from '../../schemas/queue-messages';
import { getObjectTextIfExists, putObject } from '../../store/bucket';
import { withLock } from '../../store/locks';
import { changeModelStatus, listModelsOfSite, saveModel, type ModelRecord, type ModelStatus } from '../../store/models-repo';
import { getAccount } from '../../store/accounts-repo';
import { getSite, listSites, markTrainingRequested, type SiteRecord } from '../../store/sites-repo';
import { listCustomers } from '../../store/tenants-repo';
import { claimTrainingJob, createTrainingJob, getTrainingJob, updateTrainingJob, type TrainingJobRecord } from '../../store/training-jobs-repo';
import type { Caller } from '../../access/authentication';
import { consumeQuota, refundQuota, withQuota } from '../../access/quota';
import { loadSiteModelData } from '../forecasting/site-model-data';
import { findOwnedCustomer } from '../accounts/tenants';
import { roundHalfUp } from '../../domain/rounding';
import { DAY_MS, iso } from '../../domain/time';

export interface TrainingRequest {
  customer_id?: string;
  site_id?: string;
  training_config: {
    model_type: string;
    hyperparameter_tuning?: boolean;
    cross_validation_folds?: number;
    early_stopping?: boolean;
    feature_engineering?: { weather_features?: boolean; calendar_features?: boolean; lag_features?: number[]; rolling_statistics?: number[] };
  };
  data_requirements?: { minimum_data_points?: number; validation_split?: number; test_split?: number };
}

/** Defaults where a request leaves a setting out (also what automatic training uses). */
export const TRAINING_DEFAULTS = {
  model_type: 'ensemble',
  cross_validation_folds: 14,
  feature_engineering: { weather_features: true, calendar_features: true, lag_features: [24, 168], rolling_statistics: [24] },
  data_requirements: { minimum_data_points: 168, validation_split: 0.2, test_split: 0.1 },
} as const;

/** Stages and the progress reported when each begins. */
const STAGES = { 'loading data': 10, 'feature engineering': 30, 'cross-validation': 45, fitting: 75, registering: 90 } as const;
/** A worker holds a job this long; a crashed worker's job is taken again after it (the queue's visibility time-out is longer). */
const LEASE_SECONDS = 900;
/** Intervals are calibrated for leads up to a week (the longest GET /forecast horizon). */
const CALIBRATED_HOURS = 168;

function featureConfigOf(req: TrainingRequest['training_config']): FeatureConfig {
  const fe = { ...TRAINING_DEFAULTS.feature_engineering, ...req.feature_engineering };
  return { lagHours: [...fe.lag_features], rollingHours: [...fe.rolling_statistics], calendar: fe.calendar_features, weather: fe.weather_features };
}

/** The feature names a configuration trains on, as the job reports them. */
const trainingFeatures = (features: FeatureConfig) => Object.keys(featureLayout(features, features.weather ? ['ghi_wm2', 'temperature_c', 'wind_speed_ms'] : []).groups);

/** Sites a request trains: the one named, or every site of the customer (or of the account) with data. */
async function sitesToTrain(caller: Caller, req: TrainingRequest): Promise<SiteRecord[]> {
  if (req.site_id && !req.customer_id) throw new BadRequest('Missing required field: customer_id (site_id names a site of a customer)');
  if (req.customer_id) {
    const customer = await findOwnedCustomer(caller, req.customer_id);
    if (!customer) throw new NotFound('Customer not found');
    if (req.site_id) {
      const site = await getSite(req.customer_id, req.site_id);
      if (!site) throw new NotFound('Site not found');
      return [site];
    }
  }
  const customers = req.customer_id ? [req.customer_id] : (await listCustomers(caller.accountId)).map((c) => c.customer_id);
  const sites = (await Promise.all(customers.map((c) => listSites(c)))).flat().filter((s) => (s.coverage?.rows ?? 0) > 0);
  if (!sites.length) throw new BadRequest('No site with uploaded data to train on: upload historical data first (POST /upload_train)');
  return sites;
}

function newJob(site: SiteRecord, accountId: string, jobId: string, origin: TrainingJobRecord['origin'], req: TrainingRequest): TrainingJobRecord {
  const now = Date.now();
  // The rows trained on: at most the window, at the members' step (domain/training/window.ts).
  const interval = site.coverage?.interval_minutes || 60;
  const rows = Math.min(site.coverage?.rows ?? 0, Math.round((TRAINING_WINDOW_DAYS * 1440) / modelStepMinutes(interval)));
  // A rough estimate from measured runs: a few seconds plus about a second per 10,000 rows.
  const seconds = 5 + Math.ceil(rows / 10_000);
  return {
    job_id: jobId,
    account_id: accountId,
    customer_id: site.customer_id,
    site_id: site.site_id,
    origin,
    status: 'initiated',
    stage: 'queued',
    progress: 0,
    training_config: { ...TRAINING_DEFAULTS, ...req.training_config },
    data_requirements: { ...TRAINING_DEFAULTS.data_requirements, ...req.data_requirements },
    training_features: trainingFeatures(featureConfigOf(req.training_config)),
    created_at: iso(now),
    updated_at: iso(now),
    estimated_completion: iso(now + seconds * 1000),
  };
}

/**
 * Training options the trainer cannot honour as asked, named in the answer (as the forecasts' `unused_inputs`):
 * members are always chosen and weighted on the cross-validation folds, and every fit is closed-form or a
 * fixed procedure, so there is no further search to switch on and no iteration to stop early.
 */
function unusedTrainingInputs(config: TrainingRequest['training_config']): string[] {
  const unused: string[] = [];
  if (config.hyperparameter_tuning) unused.push('hyperparameter_tuning: no search is run beyond what every training does (members chosen and weighted on the cross-validation folds)');
  if (config.early_stopping) unused.push('early_stopping: does not apply: the models are fitted in closed form or by a fixed procedure, not by epochs that could stop early');
  return unused;
}

/** POST /train: one job per site, queued; one unit of the monthly training quota per request. */
export async function startTraining(caller: Caller, req: TrainingRequest) {
  const sites = await sitesToTrain(caller, req);
  const known = [ENSEMBLE, ...ALL_MEMBERS.map((m) => m.name), FEATURE_MODEL];
  // Whether a known model suits the site's series (solar, load, ...) is checked when the data is loaded.
  if (!known.includes(req.training_config.model_type)) throw new BadRequest(`Invalid request: training_config.model_type '${req.training_config.model_type}' is not one of ${known.join(', ')}`);
  return withQuota(caller, 'model_training_jobs', async () => {
    const jobs = sites.map((site) => newJob(site, caller.accountId, `job_${randomUUID()}`, 'requested', req));
    for (const job of jobs) {
      await createTrainingJob(job);
      await enqueue('training', { type: 'requested', job_id: job.job_id });
    }
    const view = (job: TrainingJobRecord) => ({ job_id: job.job_id, status: job.status, estimated_completion: job.estimated_completion, training_features: job.training_features, customer_id: job.customer_id, site_id: job.site_id });
    return {
      statusCode: 200,
      training_job: view(jobs[0]),
      training_progress_url: `/api/training-status/${jobs[0].job_id}`,
      ...(jobs.length > 1 ? { additional_jobs: jobs.slice(1).map((j) => ({ ...view(j), training_progress_url: `/api/training-status/${j.job_id}` })) } : {}),
      unused_inputs: unusedTrainingInputs(req.training_config),
    };
  });
}

/** GET /api/training-status/{job_id}: another account's job is reported exactly like a missing one. */
export async function trainingStatus(caller: Caller, jobId: string) {
  const job = await getTrainingJob(jobId);
  if (!job || job.account_id !== caller.accountId) throw new NotFound('Training job not found');
  return {
    job_id: job.job_id,
    status: job.status,
    progress: job.progress,
    stage: job.stage,
    customer_id: job.customer_id,
    site_id: job.site_id,
    created_at: job.created_at,
    updated_at: job.updated_at,
    ...(job.started_at ? { started_at: job.started_at } : {}),
    ...(job.completed_at ? { completed_at: job.completed_at } : {}),
    ...(job.model_performance ? { model_performance: job.model_performance } : {}),
    ...(job.model_artifacts ? { model_artifacts: job.model_artifacts } : {}),
    ...(job.outcome ? { outcome: job.outcome } : {}),
    ...(job.reason ? { reason: job.reason } : {}),
  };
}

/** What a processed upload did about automatic training (GET /api/uploads/{upload_id}, `training`). */
export interface UploadTraining {
  queued: boolean;
  reason: string;
  job_id?: string;
  training_progress_url?: string;
}

/** One automatic job per site and request time, so a duplicate message finds the same job. */
const automaticJobId = (customerId: string, siteId: string, requestedAt: string) =>
  `job_auto_${createHash('sha256').update(`${customerId}\n${siteId}\n${requestedAt}`).digest('hex').slice(0, 24)}`;

/**
 * Automatic training (README, "Training and the model registry"): a historical upload that brings a site's
 * history to TRAINING_MIN_HISTORY_DAYS queues one job for the site, once, for an account whose tier has a
 * monthly training quota above 0, taking one unit of it as POST /train does. Anything else queues nothing and
 * says why: the upload status shows it.
 */
export async function automaticTraining(upload: { account_id: string; kind: string }, site: SiteRecord, coverage: { first: string | null; last: string | null }): Promise<UploadTraining> {
  const minimumDays = config().TRAINING_MIN_HISTORY_DAYS;
  if (upload.kind !== 'historical') return { queued: false, reason: 'only historical uploads start automatic training; POST /train retrains on the site\'s latest data' };
  const spanDays = coverage.first && coverage.last ? (Date.parse(coverage.last) - Date.parse(coverage.first)) / DAY_MS : 0;
  if (spanDays < minimumDays) return { queued: false, reason: `the site's history spans ${roundHalfUp(spanDays, 1, 0)} days; automatic training starts at ${minimumDays} days (POST /train trains on less)` };
  const already = (at: string) => ({ queued: false, reason: `automatic training was already queued for this site at ${at}`, job_id: automaticJobId(site.customer_id, site.site_id, at), training_progress_url: `/api/training-status/${automaticJobId(site.customer_id, site.site_id, at)}` });
  if (site.training_requested_at) return already(site.training_requested_at);
  const account = upload.account_id ? await getAccount(upload.account_id) : undefined;
  if (!account) return { queued: false, reason: 'no account owns this upload' };
  if (monthlyLimit(account.tier, 'model_training_jobs', config().ENTERPRISE_QUOTA) === 0) {
    return { queued: false, reason: `the ${account.tier} tier includes no model training (model_training_per_month: 0): no automatic training` };
  }
  const owner: Caller = { accountId: account.account_id, email: account.email, tier: account.tier, keyHash: '' };
  try {
    await consumeQuota(owner, 'model_training_jobs');
  } catch (err) {
    if (err instanceof TierLimitExceeded) return { queued: false, reason: `not queued: ${err.message}` };
    throw err;
  }
  const requestedAt = new Date().toISOString();
  if (!(await markTrainingRequested(site.customer_id, site.site_id, requestedAt))) {
    await refundQuota(owner, 'model_training_jobs');
    const current = await getSite(site.customer_id, site.site_id);
    return already(current?.training_requested_at ?? requestedAt);
  }
  const jobId = automaticJobId(site.customer_id, site.site_id, requestedAt);
  await createTrainingJob(newJob(site, account.account_id, jobId, 'automatic', { training_config: { model_type: TRAINING_DEFAULTS.model_type } }));
  await enqueue('training', { type: 'automatic', account_id: account.account_id, customer_id: site.customer_id, site_id: site.site_id, requested_at: requestedAt });
  return { queued: true, reason: `the site's history spans ${roundHalfUp(spanDays, 1, 0)} days (automatic training starts at ${minimumDays}); one unit of the ${account.tier} tier's monthly training quota taken`, job_id: jobId, training_progress_url: `/api/training-status/${jobId}` };
}

/** The job an automatic message stands for: one per site and request time, so a duplicate finds the same job. */
async function jobOfMessage(message: TrainingMessage): Promise<TrainingJobRecord | undefined> {
  if (message.type === 'requested') return getTrainingJob(message.job_id);
  const site = await getSite(message.customer_id, message.site_id);
  if (!site) return undefined;
  const jobId = automaticJobId(message.customer_id, message.site_id, message.requested_at);
  // Created when the job was queued (automaticTraining); created here for a message queued before that was so.
  await createTrainingJob(newJob(site, message.account_id, jobId, 'automatic', { training_config: { model_type: TRAINING_DEFAULTS.model_type } }));
  return getTrainingJob(jobId);
}

/** Stores the three artifacts; returns their URIs and the total size. */
async function storeArtifacts(job: TrainingJobRecord, modelId: string, artifact: ModelArtifact, report: TrainingReport) {
  const { featureModel, ...model } = artifact;
  const parts = {
    model: { ...model, feature_model: featureModel && { names: featureModel.names, beta: featureModel.beta, lambda: featureModel.lambda } },
    encoders: { feature_names: featureModel?.names ?? [], mean: featureModel?.mean ?? [], scale: featureModel?.scale ?? [], timezone: artifact.timezone ?? 'UTC', country: artifact.country ?? null, step_minutes: artifact.stepMinutes },
    config: { training_config: job.training_config, data_requirements: job.data_requirements, training_points: report.trainingPoints, window: { start: iso(report.window.start), end: iso(report.window.end) } },
  };
  let bytes = 0;
  const locations = {} as Record<keyof typeof parts, string>;
  for (const [part, content] of Object.entries(parts) as [keyof typeof parts, unknown][]) {
    const key = modelArtifactKey(job.customer_id, job.site_id, modelId, part);
    const body = JSON.stringify(content);
    bytes += Buffer.byteLength(body);
    await putObject(key, body, 'application/json');
    locations[part] = `s3://${config().DATA_BUCKET}/${key}`;
  }
  return { locations, sizeMb: bytes / 1_048_576 };
}

/** A stored model's artifact (the model part, with the feature model re-joined from the encoders). */
export async function loadArtifact(model: ModelRecord): Promise<ModelArtifact> {
  const read = async (part: 'model' | 'encoders') => JSON.parse((await getObjectTextIfExists(modelArtifactKey(model.customer_id, model.site_id, model.model_id, part))) ?? 'null');
  const [stored, encoders] = await Promise.all([read('model'), read('encoders')]);
  if (!stored) throw new Error(`the artifact of model ${model.model_id} is missing`);
  const { feature_model: fm, ...rest } = stored;
  return { ...rest, featureModel: fm && encoders && { ...fm, mean: encoders.mean, scale: encoders.scale } };
}

/** Champion/challenger: the new model is production when there is none, or when it beats production's configuration on the same test days. */
async function decideStatus(report: TrainingReport, production: ModelRecord | undefined, data: Awaited<ReturnType<typeof loadSiteModelData>>, testFrom: number): Promise<{ status: ModelStatus; outcome: string }> {
  if (!production) return { status: 'production', outcome: 'promoted to production (the site had no production model)' };
  const champion = await loadArtifact(production);
  // A champion fitted at another step (trained before the data was averaged to the members' step) has intervals
  // and lead blocks in its own steps: it cannot be run on this grid, and the model on the members' step replaces it.
  if (champion.stepMinutes !== data.series.stepMinutes) {
    return { status: 'production', outcome: `promoted: production ${production.model_version} was trained on ${champion.stepMinutes}-minute steps, the new model on ${data.series.stepMinutes}-minute steps (the last ${TRAINING_WINDOW_DAYS} days averaged), which it serves at` };
  }
  const members = candidateMembers(champion.kind, champion.features, 'ensemble');
  const run = dayAheadOnWindow(data.series, data.context, members, champion.combination ?? champion.weights, testFrom);
  let se = 0;
  let count = 0;
  run.actual.forEach((a, i) => {
    if (Number.isFinite(a) && Number.isFinite(run.forecast[i])) {
      se += (a - run.forecast[i]) ** 2;
      count++;
    }
  });
  const championRmse = count ? Math.sqrt(se / count) : Infinity;
  const window = `${run.days} test days`;
  if (report.test.rmse < championRmse) return { status: 'production', outcome: `promoted: test RMSE ${roundHalfUp(report.test.rmse, 4, 0)} against production ${production.model_version}'s ${roundHalfUp(championRmse, 4, 0)} on the same ${window}` };
  return { status: 'challenger', outcome: `kept as challenger: test RMSE ${roundHalfUp(report.test.rmse, 4, 0)} against production ${production.model_version}'s ${roundHalfUp(championRmse, 4, 0)} on the same ${window}` };
}

async function registerModel(job: TrainingJobRecord, site: SiteRecord, report: TrainingReport, data: Awaited<ReturnType<typeof loadSiteModelData>>, testFrom: number) {
  return withLock(`models#${job.customer_id}#${job.site_id}`, async () => {
    const existing = await listModelsOfSite(job.customer_id, job.site_id);
    const version = Math.max(0, ...existing.map((m) => m.version)) + 1;
    // Newest first: a crash between saving a promoted model and archiving the old one leaves two, healed below.
    const productions = existing.filter((m) => m.status === 'production');
    const production = productions.at(-1);
    const modelId = `mdl_${randomUUID()}`;
    const { locations, sizeMb } = await storeArtifacts(job, modelId, report.artifact, report);
    const decision = await decideStatus(report, production, data, testFrom);
    const folds = report.crossValidationScores.length;
    const record: ModelRecord & { version: number } = {
      model_id: modelId,
      customer_id: job.customer_id,
      site_id: job.site_id,
      account_id: job.account_id,
      version,
      model_name: `${report.artifact.kind}-forecast-${job.site_id}`,
      model_version: `v${version}`,
      model_type: 'forecasting',
      // Saved with its final status in one write, so no reader sees a promoted model as a challenger.
      status: decision.status,
      last_trained_at: new Date().toISOString(),
      training_data_window: { start: iso(report.window.start), end: iso(report.window.end) },
      // Statistical members, no neural network: no layers, learning rate or dropout (model-registry.ts modelRecord).
      hyperparameters: {
        layers: [],
        learning_rate: 0,
        dropout: 0,
        optimizer: 'closed-form ridge and grid search; ensemble weights stacked per lead block by cross-validation',
        members: Object.keys(report.artifact.weights),
        ridge_lambda: report.artifact.featureModel ? roundHalfUp(report.artifact.featureModel.lambda, 6, 0) : null,
      },
      training_metrics: { epochs: 1, train_loss: roundHalfUp(report.cvMse, 4, 0), validation_loss: roundHalfUp(report.test.mse, 4, 0), early_stop_epoch: 1, cross_validation_folds: folds },
      artifact_locations: locations,
      validation_accuracy: roundHalfUp(report.test.accuracy, 4, 0),
      metrics: { training_rmse: roundHalfUp(Math.sqrt(report.cvMse), 4, 0), validation_rmse: roundHalfUp(report.test.rmse, 4, 0), mape_percent: roundHalfUp(report.test.mape, 4, 0), smape_percent: roundHalfUp(report.test.smape, 4, 0) },
      training_data_points: report.trainingPoints,
      series_kind: report.artifact.kind,
      region: site.region,
      ...(decision.status === 'production' && production ? { previous_production_model_id: production.model_id } : {}),
      status_history: [{ action: 'trained', status: decision.status, at: new Date().toISOString(), by: 'training', from_production_version: production?.model_version ?? null, reason: decision.outcome }],
    };
    await saveModel(record);
    if (decision.status === 'production') {
      for (const old of productions) {
        await changeModelStatus(old, 'production', { action: 'archived', status: 'archived', at: new Date().toISOString(), by: 'training', from_production_version: old.model_version, reason: `replaced by ${record.model_version} (${decision.outcome})` });
      }
    }
    return { record, sizeMb, outcome: decision.outcome };
  });
}

/** Runs one training message (the trainer worker). Data problems fail the job with the reason; other errors are rethrown for the queue to retry. */
export async function runTrainingMessage(message: TrainingMessage, attempt = 1, maxAttempts = 3): Promise<void> {
  const job = await jobOfMessage(message);
  if (!job) return log.warn('training message for an unknown job or site dropped', { message });
  if (!(await claimTrainingJob(job.job_id, LEASE_SECONDS))) return log.info('training job already taken or finished', { job_id: job.job_id, status: job.status });
  const stage = (name: keyof typeof STAGES) => updateTrainingJob(job.job_id, { stage: name, progress: STAGES[name] });
  try {
    await stage('loading data');
    const site = await getSite(job.customer_id, job.site_id);
    if (!site) throw new TrainingDataError(`Site ${job.site_id} of customer ${job.customer_id} no longer exists`);
    const tc = job.training_config as TrainingRequest['training_config'];
    const dr = job.data_requirements as Required<NonNullable<TrainingRequest['data_requirements']>>;
    const features = featureConfigOf(tc);
    let data;
    try {
      // The last TRAINING_WINDOW_DAYS only, read from the store's months that hold them, at the members' step: a
      // site of any length loads the same window, and is never refused for its history (domain/training/window.ts).
      const lastMs = site.coverage?.last ? Date.parse(site.coverage.last) : undefined;
      data = await loadSiteModelData(site, { sinceMs: lastMs === undefined ? undefined : trainingWindowStart(lastMs), weather: features.weather, stepMinutes: 'model' });
    } catch (err) {
      if (err instanceof ForecastInputError) throw new TrainingDataError(`The site's data cannot be trained on: ${err.message}`);
      throw err;
    }
    const perDay = Math.round(1440 / data.series.stepMinutes);
    const report = await trainModel(data.series, data.context, {
      modelType: tc.model_type,
      folds: tc.cross_validation_folds ?? TRAINING_DEFAULTS.cross_validation_folds,
      validationSplit: dr.validation_split,
      testSplit: dr.test_split,
      minimumPoints: dr.minimum_data_points,
      features,
      horizonSteps: Math.round((CALIBRATED_HOURS * 60) / data.series.stepMinutes),
      onStage: (name) => stage(name),
    });
    await stage('registering');
    const testDays = report.test.days;
    const testFrom = data.series.y.length - testDays * perDay;
    const { record, sizeMb, outcome } = await registerModel(job, site, report, data, testFrom);
    const performance = {
      // The spec's validation_accuracy names three other metrics (mape in percent, rmse in kW, r_squared); the accuracy is the one of every other answer.
      validation_accuracy: { mape: roundHalfUp(report.test.mape, 4, 0), rmse: roundHalfUp(report.test.rmse, 4, 0), r_squared: roundHalfUp(report.test.r2, 4, 0) },
      accuracy: roundHalfUp(report.test.accuracy, 4, 0),
      accuracy_metric: `${ACCURACY_METRIC}, on the held-out test days; cross_validation_scores are the same per fold`,
      cross_validation_scores: report.crossValidationScores,
      feature_importance: report.featureImportance,
      member_weights: Object.fromEntries(Object.entries(report.artifact.weights).map(([k, v]) => [k, roundHalfUp(v, 4, 0)])),
      test_days: testDays,
    };
    const artifacts = { model_id: record.model_id, deployment_ready: record.status === 'production', size_mb: roundHalfUp(sizeMb, 6, 0) };
    await updateTrainingJob(job.job_id, { status: 'completed', stage: 'completed', progress: 100, model_performance: performance, model_artifacts: artifacts, outcome, completed_at: new Date().toISOString() });
    await publishEvent('training_completed', job.account_id, {
      job_id: job.job_id,
      customer_id: job.customer_id,
      site_id: job.site_id,
      model_id: record.model_id,
      model_version: record.model_version,
      model_status: record.status,
      validation_accuracy: performance.validation_accuracy,
    });
  } catch (err) {
    if (err instanceof TrainingDataError || attempt >= maxAttempts) {
      const reason = err instanceof TrainingDataError ? err.message : `training failed after ${attempt} attempts: ${(err as Error).message}`;
      await updateTrainingJob(job.job_id, { status: 'failed', stage: 'failed', reason, completed_at: new Date().toISOString() });
      log.info('training job failed', { job_id: job.job_id, reason });
      return;
    }
    // Released for the queue's next delivery.
    await updateTrainingJob(job.job_id, { status: 'initiated', stage: 'retrying', reason: `attempt ${attempt} failed: ${(err as Error).message}`, lease_until: 0 });
    throw err;
  }
}

/**
 * Training a site's model: choose and weight forecasting members by rolling-origin cross-validation on the
 * training part of the series, measure the chosen configuration day-ahead on the held-out test part, and
 * keep what serving needs (members, weights, feature settings, interval quantiles per lead). The members are
 * re-fitted on the latest data when the model serves (they fit in milliseconds); what training fixes is the
 * choice, the weights, the feature regression's design and the interval calibration.
 */
import { residualQuantiles, pooledResiduals, MIN_RESIDUALS_PER_LEAD } from '../forecasting/conformal';
import { combineForecasts, ensembleValidation, hasWeight, meanWeights, type Combination } from '../forecasting/ensemble';
import { stackMembers } from '../forecasting/stacking';
import { ENSEMBLE, stackingOptions } from '../forecasting/engine';
import { ALL_MEMBERS } from '../forecasting/members';
import { mape, r2, rmse, smape, wapeAccuracy } from '../forecasting/metrics';
import { validateMember, type MemberValidation } from '../forecasting/validation';
import { stepsPerDay, type FitContext, type ForecastMember, type RegularSeries } from '../forecasting/types';
import { featureRegressionMember, fitFeatureModel, heldOutRows, permutationImportance, type FeatureConfig } from './feature-model';

/** The training data does not allow the job (too few points, nothing to fit): the job fails with this reason. */
export class TrainingDataError extends Error {}

/** Interval coverages stored with a model; a forecast asks for one of them. */
export const MODEL_COVERAGES = [0.8, 0.9, 0.95] as const;

export interface TrainingOptions {
  /** 'ensemble' or one member's name (`feature_regression` included). */
  modelType: string;
  /** Cross-validation folds (days), at most. */
  folds: number;
  /** Share of the training part the folds may cover. */
  validationSplit: number;
  /** Share of the series held out at its end for the test. */
  testSplit: number;
  minimumPoints: number;
  features: FeatureConfig;
  /** Lead times the intervals are calibrated for, in steps (the longest forecast it serves well). */
  horizonSteps: number;
  /** Called as the stages advance (loading data is the caller's). */
  onStage?: (stage: 'feature engineering' | 'cross-validation' | 'fitting') => Promise<void> | void;
}

/** What a trained model keeps: the artifact's content. */
export interface ModelArtifact {
  kind: FitContext['kind'];
  stepMinutes: number;
  timezone?: string;
  country?: string;
  latitude?: number;
  longitude?: number;
  modelType: string;
  /** Each member's weight averaged over the horizon (reported as member_weights). */
  weights: Record<string, number>;
  /** The weights per block of leads that serving combines with (absent in artifacts trained before stacking). */
  combination?: Combination;
  features: FeatureConfig;
  /** Per coverage, per lead: the residual quantiles added to the point forecast. */
  intervals: Record<string, { lo: number[]; hi: number[] }>;
  /** The feature regression fitted on the whole series: coefficients by feature (the encoders hold the scaling). */
  featureModel?: { names: string[]; beta: number[]; mean: number[]; scale: number[]; lambda: number };
}

export interface TrainingReport {
  artifact: ModelArtifact;
  /** Accuracy (1 - sum|error| / sum|actual|, floored at 0) of each cross-validation fold, latest first. */
  crossValidationScores: number[];
  /** The chosen configuration's day-ahead errors on the test part. */
  test: { rmse: number; mape: number; smape: number; r2: number; accuracy: number; mse: number; days: number };
  /** MSE of the chosen configuration over the cross-validation folds. */
  cvMse: number;
  featureImportance: Record<string, number>;
  trainingPoints: number;
  window: { start: number; end: number };
}

/** 1 - WAPE, 0 when nothing was measured. */
const accuracyOf = (actual: readonly number[], forecast: readonly number[]) => wapeAccuracy(actual, forecast) || 0;

const sliceSeries = (s: RegularSeries, from: number, to: number): RegularSeries => ({ t: s.t.slice(from, to), y: s.y.slice(from, to), stepMinutes: s.stepMinutes });
/** The context over [from, to) of the series; the horizon's weather is what follows `to` in the history. */
const sliceContext = (c: FitContext, from: number, to: number, ahead = 0): FitContext => ({
  ...c,
  history: c.history && Object.fromEntries(Object.entries(c.history).map(([k, v]) => [k, v.slice(from, to)])),
  future: c.history && Object.fromEntries(Object.entries(c.history).map(([k, v]) => [k, v.slice(to, to + ahead)])),
});

/** Members a configuration may use for a series kind. */
export function candidateMembers(kind: FitContext['kind'], features: FeatureConfig, modelType: string): ForecastMember[] {
  const all = [...ALL_MEMBERS.filter((m) => m.supports(kind)), featureRegressionMember(features)];
  if (modelType === ENSEMBLE) return all;
  const one = all.find((m) => m.name === modelType);
  if (!one) throw new TrainingDataError(`Unknown model_type '${modelType}' for a ${kind} series; use one of: ${[ENSEMBLE, ...all.map((m) => m.name)].join(', ')}`);
  return [one];
}

/**
 * Day-ahead forecasts of a configuration (members and weights) over the days from `from` to the end:
 * for each day, the members fitted on everything before it. The test of a new model, and the same
 * window's test of the production model it is compared with.
 */
export function dayAheadOnWindow(series: RegularSeries, context: FitContext, members: readonly ForecastMember[], weights: Record<string, number> | Combination, from: number): { actual: number[]; forecast: number[]; days: number } {
  const perDay = stepsPerDay(series.stepMinutes);
  const actual: number[] = [];
  const forecast: number[] = [];
  let days = 0;
  for (let origin = from; origin + perDay <= series.y.length; origin += perDay) {
    const history = sliceSeries(series, 0, origin);
    const dayContext = sliceContext(context, 0, origin, perDay);
    const byMember: Record<string, number[]> = {};
    for (const m of members) {
      if (!hasWeight(weights, m.name) || m.minHistory(series.stepMinutes) > origin) continue;
      try {
        byMember[m.name] = m.fit(history, dayContext).predict(perDay);
      } catch {
        // A member that cannot fit this day is left out and the others renormalised, as when serving.
      }
    }
    actual.push(...series.y.slice(origin, origin + perDay));
    forecast.push(...combineForecasts(byMember, weights, perDay));
    days++;
  }
  return { actual, forecast, days };
}

/** Trains on a regular series; see the module comment. @throws TrainingDataError */
export async function trainModel(series: RegularSeries, context: FitContext, options: TrainingOptions): Promise<TrainingReport> {
  const n = series.y.length;
  const known = series.y.filter(Number.isFinite).length;
  if (known < options.minimumPoints) {
    throw new TrainingDataError(`The site has ${known} data points; this training needs at least ${options.minimumPoints} (data_requirements.minimum_data_points)`);
  }
  const perDay = stepsPerDay(series.stepMinutes);
  const totalDays = Math.floor(n / perDay);
  const testDays = options.testSplit > 0 ? Math.max(1, Math.round(totalDays * options.testSplit)) : 0;
  const trainEnd = n - testDays * perDay;
  if (trainEnd < 3 * perDay) throw new TrainingDataError(`The site has ${totalDays} days of data; after the ${testDays}-day test split fewer than three days remain to train on`);
  await options.onStage?.('feature engineering');
  const members = candidateMembers(context.kind, options.features, options.modelType);
  const trainSeries = sliceSeries(series, 0, trainEnd);
  const trainContext = sliceContext(context, 0, trainEnd);
  const trainDays = Math.floor(trainEnd / perDay);
  const folds = Math.max(1, Math.min(options.folds, Math.floor(trainDays * options.validationSplit)));

  await options.onStage?.('cross-validation');
  const validations: MemberValidation[] = [];
  for (const member of members) {
    if (member.minHistory(series.stepMinutes) > trainEnd - perDay) continue;
    try {
      const record = validateMember(trainSeries, member, trainContext, { horizonSteps: options.horizonSteps, folds });
      if (record.origins.length && Number.isFinite(record.metrics.rmse)) validations.push(record);
    } catch {
      // The member cannot fit this series (e.g. no feature row is complete): it drops out of the choice.
    }
  }
  if (!validations.length) throw new TrainingDataError(`No model could be validated on ${trainDays} days of training data: send more history, or choose model_type ensemble`);
  const stacking = options.modelType === ENSEMBLE ? stackMembers(validations, options.horizonSteps, series.stepMinutes, stackingOptions(context.kind)) : undefined;
  const combination: Combination = stacking?.combination ?? [{ fromLead: 0, toLead: options.horizonSteps, weights: { [validations[0].member]: 1 } }];
  const weights = meanWeights(combination, options.horizonSteps);
  const chosen = stacking ? ensembleValidation(stacking, trainSeries.y.slice(0, Math.min(...validations.flatMap((v) => v.origins))), perDay, 0) : validations[0];
  const crossValidationScores = chosen.predictions.map((p, k) => Math.round(accuracyOf(chosen.actuals[k], p) * 1e4) / 1e4);

  await options.onStage?.('fitting');
  const intervals: ModelArtifact['intervals'] = {};
  for (const coverage of MODEL_COVERAGES) {
    const lo: number[] = [];
    const hi: number[] = [];
    for (let j = 0; j < options.horizonSteps; j++) {
      const { residuals, folds: units } = pooledResiduals(chosen.residualsByLead, j, MIN_RESIDUALS_PER_LEAD);
      const q = residualQuantiles(residuals, coverage, units);
      lo.push(Number.isFinite(q.lo) ? q.lo : 0);
      hi.push(Number.isFinite(q.hi) ? q.hi : 0);
    }
    intervals[String(coverage)] = { lo, hi };
  }
  const test = testDays ? dayAheadOnWindow(series, context, members, combination, trainEnd) : { actual: chosen.actuals.flat(), forecast: chosen.predictions.flat(), days: chosen.origins.length };
  const testRmse = rmse(test.actual, test.forecast);

  // The feature regression on the training part, its importances on the held-out rows; then refitted on all.
  let featureImportance: Record<string, number> = {};
  let featureModel: ModelArtifact['featureModel'];
  try {
    const onTrain = fitFeatureModel(trainSeries, sliceContext(context, 0, trainEnd, n - trainEnd), options.features);
    const held = heldOutRows(series, context, options.features, onTrain, testDays ? trainEnd : Math.max(0, trainEnd - perDay * folds));
    featureImportance = permutationImportance(onTrain, held.rows, held.targets);
    const onAll = fitFeatureModel(series, { ...context, future: context.history && Object.fromEntries(Object.keys(context.history).map((k) => [k, [NaN]])) }, options.features);
    featureModel = { names: onAll.layout.names, beta: onAll.ridge.beta, mean: onAll.ridge.mean, scale: onAll.ridge.scale, lambda: onAll.ridge.lambda };
  } catch {
    // Too few complete feature rows: the model is trained without the feature regression's report.
  }

  return {
    artifact: {
      kind: context.kind,
      stepMinutes: series.stepMinutes,
      timezone: context.timezone,
      country: context.country,
      latitude: context.latitude,
      longitude: context.longitude,
      modelType: options.modelType,
      weights,
      combination,
      features: options.features,
      intervals,
      featureModel,
    },
    crossValidationScores,
    test: {
      rmse: testRmse,
      mse: testRmse ** 2,
      mape: mape(test.actual, test.forecast),
      smape: smape(test.actual, test.forecast),
      r2: r2(test.actual, test.forecast),
      accuracy: accuracyOf(test.actual, test.forecast),
      days: test.days,
    },
    cvMse: chosen.metrics.rmse ** 2,
    featureImportance,
    trainingPoints: known,
    window: { start: series.t[0], end: series.t[n - 1] },
  };
}


/**
 * The `ensemble` model: members weighted inversely to their rolling-origin validation MSE (Bates & Granger
 * 1969 with the covariances ignored, the variant that holds up in practice: Smith & Wallis 2009), keeping
 * the best few. Its own validation record combines the members' fold forecasts with the same weights, so
 * its conformal intervals are calibrated like any member's.
 */
import { pointMetrics } from './metrics';
import type { MemberValidation } from './validation';

/** Members the ensemble keeps at most (the rest get weight 0). */
export const ENSEMBLE_BEST_K = 3;

const mse = (v: MemberValidation) => v.metrics.rmse ** 2;

/**
 * Weights by member name, summing to 1: 1/MSE among the best `bestK` members by validation MSE; a member
 * with zero error takes all the weight (shared with any other perfect member). Members without a finite
 * validation error get 0 unless no member has one, in which case the weights are equal.
 */
export function ensembleWeights(validations: readonly MemberValidation[], bestK = ENSEMBLE_BEST_K): Record<string, number> {
  const weights: Record<string, number> = Object.fromEntries(validations.map((v) => [v.member, 0]));
  const scored = validations.filter((v) => Number.isFinite(mse(v))).sort((a, b) => mse(a) - mse(b));
  if (scored.length === 0) {
    validations.forEach((v) => (weights[v.member] = 1 / validations.length));
    return weights;
  }
  const kept = scored.slice(0, Math.max(1, bestK));
  const perfect = kept.filter((v) => mse(v) === 0);
  const raw = perfect.length ? perfect.map((v) => [v.member, 1] as const) : kept.map((v) => [v.member, 1 / mse(v)] as const);
  const total = raw.reduce((s, [, w]) => s + w, 0);
  raw.forEach(([name, w]) => (weights[name] = w / total));
  return weights;
}

/** Weighted combination of forecasts; a NaN member forecast is left out and the others renormalised. */
export function combineForecasts(forecasts: Readonly<Record<string, readonly number[]>>, weights: Readonly<Record<string, number>>, steps: number): number[] {
  return Array.from({ length: steps }, (_, j) => {
    let sum = 0;
    let total = 0;
    for (const [name, w] of Object.entries(weights)) {
      const value = forecasts[name]?.[j];
      if (w > 0 && value !== undefined && Number.isFinite(value)) {
        sum += w * value;
        total += w;
      }
    }
    return total > 0 ? sum / total : NaN;
  });
}

/**
 * The ensemble's validation record from its members' fold forecasts, fold by fold (folds are matched on
 * their origin, so a member that skipped a fold for want of history is simply absent from it).
 */
export function ensembleValidation(validations: readonly MemberValidation[], weights: Readonly<Record<string, number>>, inSample: readonly number[], season: number): MemberValidation {
  const used = validations.filter((v) => (weights[v.member] ?? 0) > 0);
  const origins = [...new Set(used.flatMap((v) => v.origins))].sort((a, b) => b - a);
  const horizon = used[0]?.predictions[0]?.length ?? 0;
  const residualsByLead: number[][] = Array.from({ length: horizon }, () => []);
  const predictions: number[][] = [];
  const actuals: number[][] = [];
  for (const origin of origins) {
    const forecasts: Record<string, number[]> = {};
    let actual: number[] | undefined;
    for (const v of used) {
      const fold = v.origins.indexOf(origin);
      if (fold < 0) continue;
      forecasts[v.member] = v.predictions[fold];
      actual ??= v.actuals[fold];
    }
    const combined = combineForecasts(forecasts, weights, horizon);
    actual!.forEach((a, j) => {
      const residual = a - combined[j];
      if (Number.isFinite(residual)) residualsByLead[j].push(residual);
    });
    predictions.push(combined);
    actuals.push(actual!);
  }
  return {
    member: 'ensemble',
    origins,
    predictions,
    actuals,
    residualsByLead,
    metrics: pointMetrics(actuals.flat(), predictions.flat(), inSample, season),
    meanMs: used.reduce((s, v) => s + v.meanMs, 0),
  };
}


/**
 * Combining member forecasts (the `ensemble` model; its weights come from ./stacking): a weighted mean per
 * lead, and the ensemble's own validation record, so its conformal intervals are calibrated like any member's.
 */
import { pointMetrics } from './metrics';
import type { StackingResult } from './stacking';
import type { MemberValidation } from './validation';

/** Weights of the members over a block of leads [fromLead, toLead) (0-based steps after the origin). */
export interface WeightBlock {
  fromLead: number;
  toLead: number;
  weights: Record<string, number>;
}

/** Per-block weights; leads past the last block take its weights. */
export type Combination = WeightBlock[];

/** The weights at a lead: its block's, or the last block's beyond the end. */
export function weightsAt(combination: Combination, lead: number): Record<string, number> {
  return (combination.find((b) => lead >= b.fromLead && lead < b.toLead) ?? combination[combination.length - 1]).weights;
}

/** Each member's weight averaged over the horizon's leads (the single figure reported per member). */
export function meanWeights(combination: Combination, horizonSteps: number): Record<string, number> {
  const out: Record<string, number> = {};
  combination.forEach((block, b) => {
    const to = b === combination.length - 1 ? Math.max(block.toLead, horizonSteps) : block.toLead;
    const share = (Math.min(to, horizonSteps) - Math.min(block.fromLead, horizonSteps)) / horizonSteps;
    for (const [name, w] of Object.entries(block.weights)) out[name] = (out[name] ?? 0) + (share === 1 ? w : w * share);
  });
  return out;
}

/** Whether a member has a positive weight anywhere in a set of weights or a combination. */
export function hasWeight(weights: Readonly<Record<string, number>> | Combination, member: string): boolean {
  return Array.isArray(weights) ? weights.some((b) => (b.weights[member] ?? 0) > 0) : ((weights as Record<string, number>)[member] ?? 0) > 0;
}

/**
 * Weighted combination of forecasts with one set of weights, or per-lead-block weights; a member's NaN forecast
 * is left out and the others renormalised.
 */
export function combineForecasts(forecasts: Readonly<Record<string, readonly number[]>>, weights: Readonly<Record<string, number>> | Combination, steps: number): number[] {
  return Array.from({ length: steps }, (_, j) => {
    const at = Array.isArray(weights) ? weightsAt(weights, j) : (weights as Record<string, number>);
    let sum = 0;
    let total = 0;
    for (const [name, w] of Object.entries(at)) {
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
 * The ensemble's validation record: its metrics from the in-sample combination (never worse than the best
 * member, see ./stacking), its residuals from the out-of-fold combination, which is what a new day will see.
 */
export function ensembleValidation(stacking: StackingResult, inSample: readonly number[], season: number, meanMs: number): MemberValidation {
  const horizon = stacking.actuals[0]?.length ?? 0;
  const residualsByLead: number[][] = Array.from({ length: horizon }, () => []);
  stacking.outOfFold.forEach((forecast, f) =>
    forecast.forEach((p, j) => {
      const residual = stacking.actuals[f][j] - p;
      if (Number.isFinite(residual)) residualsByLead[j].push(residual);
    }),
  );
  return {
    member: 'ensemble',
    origins: stacking.origins,
    predictions: stacking.predictions,
    actuals: stacking.actuals,
    residualsByLead,
    metrics: pointMetrics(stacking.actuals.flat(), stacking.predictions.flat(), inSample, season),
    meanMs,
  };
}

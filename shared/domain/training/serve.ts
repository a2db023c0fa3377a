/**
 * Forecasting with a trained model: its members, re-fitted on the latest data, combined with the weights
 * training chose, and the intervals training calibrated (per lead; leads beyond the calibrated horizon
 * take the last one's). Solar output stays exactly 0 where recent nights were dark.
 */
import { combineForecasts, hasWeight } from '../forecasting/ensemble';
import { ENSEMBLE, zeroAtObservedNight } from '../forecasting/engine';
import type { FitContext, RegularSeries } from '../forecasting/types';
import { stepsPerDay } from '../forecasting/types';
import { candidateMembers, MODEL_COVERAGES, type ModelArtifact } from './train';

export interface ServedPoint {
  t: number;
  value: number;
  lower: number;
  upper: number;
}

/** Days of the latest data the members are re-fitted on (as the engine keeps for load and solar). */
export const SERVING_HISTORY_DAYS = 56;

/** The stored coverage nearest to the one asked for. */
export const nearestCoverage = (coverage: number) => MODEL_COVERAGES.reduce((best, c) => (Math.abs(c - coverage) < Math.abs(best - coverage) ? c : best));

export function forecastWithModel(artifact: ModelArtifact, fullSeries: RegularSeries, context: FitContext, horizonSteps: number, coverage = 0.9): ServedPoint[] {
  const keep = SERVING_HISTORY_DAYS * stepsPerDay(fullSeries.stepMinutes);
  const from = Math.max(0, fullSeries.y.length - keep);
  const series: RegularSeries = { t: fullSeries.t.slice(from), y: fullSeries.y.slice(from), stepMinutes: fullSeries.stepMinutes };
  const recentContext: FitContext = { ...context, history: context.history && Object.fromEntries(Object.entries(context.history).map(([k, v]) => [k, v.slice(from)])) };
  const weights = artifact.combination ?? artifact.weights;
  const members = candidateMembers(artifact.kind, artifact.features, ENSEMBLE).filter((m) => hasWeight(weights, m.name));
  const byMember: Record<string, number[]> = {};
  for (const member of members) {
    if (member.minHistory(series.stepMinutes) > series.y.length) continue;
    try {
      byMember[member.name] = member.fit(series, recentContext).predict(horizonSteps);
    } catch {
      // Left out and the others renormalised: the latest data may not suit every member.
    }
  }
  if (!Object.keys(byMember).length) throw new RangeError('None of the model members could be fitted to the latest data');
  const nonNegative = artifact.kind === 'solar' || artifact.kind === 'wind' || series.y.every((v) => !Number.isFinite(v) || v >= 0);
  let point = combineForecasts(byMember, weights, horizonSteps).map((v) => (nonNegative ? Math.max(0, v) : v));
  if (artifact.kind === 'solar') point = zeroAtObservedNight(series, point);
  const { lo, hi } = artifact.intervals[String(nearestCoverage(coverage))];
  const stepMs = series.stepMinutes * 60_000;
  const last = series.t[series.t.length - 1];
  return point.map((value, j) => {
    if (artifact.kind === 'solar' && value === 0) return { t: last + (j + 1) * stepMs, value, lower: 0, upper: 0 };
    const k = Math.min(j, lo.length - 1);
    const lower = Math.min(value, value + lo[k]);
    return { t: last + (j + 1) * stepMs, value, lower: nonNegative ? Math.max(0, lower) : lower, upper: Math.max(value, value + hi[k]) };
  });
}

/**
 * Scoring stored forecasts against the actuals that arrived later: accuracy (1 - WAPE, accuracy.ts) and the
 * share of actuals inside the forecast interval, per forecast and per model.
 */
import { wapeAccuracy } from '../forecasting/metrics';

export interface ScoredPoint {
  predicted: number;
  actual: number | null;
  lower: number;
  upper: number;
}

/**
 * A night point: nothing forecast and nothing produced (a [0, 0] interval, or a zero forecast, with a zero
 * actual). A zero-width interval cannot hold a measured value other than its bound, so counting such points
 * would score hours that nobody forecasts as misses; they say nothing about the interval's calibration.
 */
export const isNightPoint = (p: ScoredPoint): boolean => p.actual === 0 && (p.predicted === 0 || (p.lower === 0 && p.upper === 0));

/** 1 - WAPE over the points with an actual; null without any non-zero actual. */
export function accuracyOf(points: readonly ScoredPoint[]): number | null {
  const known = points.filter((p) => p.actual !== null);
  const value = wapeAccuracy(known.map((p) => p.actual!), known.map((p) => p.predicted));
  return Number.isFinite(value) ? value : null;
}

export interface IntervalScore {
  /** Share of the scored actuals inside [lower, upper]; null when none was scored. */
  hitRate: number | null;
  /** Actuals scored: known and not night. */
  scored: number;
  outside: number;
  nightExcluded: number;
}

/** How often the actuals fell inside the forecast interval, night points left out (isNightPoint). */
export function intervalScore(points: readonly ScoredPoint[]): IntervalScore {
  const known = points.filter((p) => p.actual !== null);
  const scored = known.filter((p) => !isNightPoint(p));
  const outside = scored.filter((p) => p.actual! < p.lower || p.actual! > p.upper).length;
  return { hitRate: scored.length ? (scored.length - outside) / scored.length : null, scored: scored.length, outside, nightExcluded: known.length - scored.length };
}

/**
 * Which values of a regular series quality_enhancement replaces (stuck or stale runs, stale.ts; outliers,
 * outliers.ts), for the cleaning (clean-series.ts) and for the stored-series view, which labels them and
 * replaces nothing (GET /api/sites/{site_id}/series).
 */
import { outliersOf } from './outliers';
import { staleIndices } from './stale';
import { known, type CleanOptions, type Series } from './types';

export type FlagOptions = Pick<CleanOptions, 'detectOutliers' | 'detectStale' | 'kind' | 'capacity'>;

/** The values with the flagged ones set to NaN, and the flagged indices of each kind (ascending). */
export function flagValues(series: Series, options: FlagOptions): { y: number[]; staleIndices: number[]; outlierIndices: number[] } {
  const y = series.y.map((v) => (known(v) ? v : NaN));
  // Stale runs first: a flat run has no spike for the Hampel filter, and its repeats would skew the neighbours' median.
  const stale = options.detectStale ? staleIndices(y, { stepMinutes: series.stepMinutes, kind: options.kind }) : [];
  for (const i of stale) y[i] = NaN;
  const outliers = options.detectOutliers ? outliersOf(y, options) : [];
  for (const i of outliers) y[i] = NaN;
  return { y, staleIndices: stale, outlierIndices: outliers };
}

/** A stored value as the view labels it: kept, absent (`missing`), or flagged by the detectors. */
export const POINT_QUALITIES = ['original', 'missing', 'outlier', 'stale'] as const;
export type PointQuality = (typeof POINT_QUALITIES)[number];

/** Each value's label (NaN is `missing`) and how many values carry each label. */
export function labelQuality(series: Series, options: Pick<CleanOptions, 'kind' | 'capacity'>): { quality: PointQuality[]; counts: Record<PointQuality, number> } {
  const flagged = flagValues(series, { ...options, detectOutliers: true, detectStale: true });
  const quality = series.y.map((v): PointQuality => (known(v) ? 'original' : 'missing'));
  for (const i of flagged.staleIndices) quality[i] = 'stale';
  for (const i of flagged.outlierIndices) quality[i] = 'outlier';
  const counts = Object.fromEntries(POINT_QUALITIES.map((q) => [q, 0])) as Record<PointQuality, number>;
  for (const q of quality) counts[q]++;
  return { quality, counts };
}

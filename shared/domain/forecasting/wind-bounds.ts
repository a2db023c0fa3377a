/**
 * Physical bounds of wind power forecasts: output lies between 0 and the rated power (IEC 61400-12-1 reads
 * a power curve as rising from cut-in to a plateau at rated power). The rated power is the caller's
 * `options.ratedPowerKw` when given, else estimated from the history.
 */
import type { FitContext } from './types';

/**
 * Quantile of the history taken as its rated power: high enough that a turbine that reached rated power for
 * one hour in 56 days of 10-minute data is read at rated, low enough that a handful of spikes (logger
 * glitches) are not.
 */
export const RATED_POWER_QUANTILE = 0.999;

/** The `q` quantile of the finite values (linear between order statistics), NaN when there are none. */
export function finiteQuantile(values: readonly number[], q: number): number {
  const sorted = Float64Array.from(values.filter(Number.isFinite)).sort();
  if (sorted.length === 0) return NaN;
  const position = q * (sorted.length - 1);
  const lo = Math.floor(position);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (position - lo) * (sorted[hi] - sorted[lo]);
}

/**
 * Rated power: `options.ratedPowerKw` when positive; else the larger of the history's high quantile and the
 * plateau of a fitted power curve (`plateau`, when there is one), since a calm history may never reach it.
 */
export function ratedPower(y: readonly number[], context: FitContext, plateau?: number): number {
  const given = context.options?.ratedPowerKw;
  if (typeof given === 'number' && given > 0) return given;
  const high = finiteQuantile(y, RATED_POWER_QUANTILE);
  const estimate = Math.max(Number.isFinite(high) ? high : 0, plateau !== undefined && Number.isFinite(plateau) ? plateau : 0);
  return estimate > 0 ? estimate : Infinity;
}

/** A forecast clipped to [0, rated]; a NaN stays NaN (no forecast is not a forecast of zero). */
export const clampPower = (value: number, rated: number) => Math.min(rated, Math.max(0, value));

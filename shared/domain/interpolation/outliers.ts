/** Outliers (quality_enhancement): a Hampel filter on the residual from the neighbouring values, plus physical bounds. */
import { known, type CleanOptions } from './types';

/** Hampel filter (Hampel 1974; Pearson 2002): half-window in steps and threshold in scaled MADs. */
export const HAMPEL_HALF_WINDOW = 3;
export const HAMPEL_K = 3;
/** Negative generation beyond this share of the series' maximum is impossible (inverter self-consumption is smaller). */
const NEGATIVE_SHARE = 0.02;

/**
 * Outliers: physical bounds, then a Hampel filter on the values themselves (the median of the neighbours is
 * the reference: a ramp's neighbours bracket its value, a spike's do not).
 */
export function outliersOf(y: readonly number[], options: Pick<CleanOptions, 'kind' | 'capacity'>): number[] {
  const out: number[] = [];
  const max = Math.max(0, ...y.filter(known));
  const residual = y;
  for (let i = 0; i < y.length; i++) {
    if (!known(y[i])) continue;
    const generation = options.kind === 'solar' || options.kind === 'wind';
    if ((generation && y[i] < -NEGATIVE_SHARE * max) || (options.capacity !== undefined && y[i] > 1.2 * options.capacity)) {
      out.push(i);
      continue;
    }
    const window: number[] = [];
    for (let j = Math.max(0, i - HAMPEL_HALF_WINDOW); j <= Math.min(y.length - 1, i + HAMPEL_HALF_WINDOW); j++) if (j !== i && known(residual[j])) window.push(residual[j]);
    if (window.length < 3) continue;
    window.sort((p, q) => p - q);
    const median = window[Math.floor(window.length / 2)];
    const mad = 1.4826 * [...window.map((w) => Math.abs(w - median))].sort((p, q) => p - q)[Math.floor(window.length / 2)];
    // A floor on the MAD keeps a flat stretch (night zeros) from flagging the first morning value.
    const scale = Math.max(mad, 0.02 * (max || 1));
    if (Math.abs(residual[i] - median) > HAMPEL_K * scale) out.push(i);
  }
  return out;
}

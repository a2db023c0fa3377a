/**
 * Prediction intervals by split conformal prediction per lead time (Vovk et al. 2005; Lei et al. 2018,
 * split conformal): the empirical quantiles of out-of-sample residuals at each lead, with the finite-sample
 * correction, added to the point forecast. Neighbouring leads are pooled when a lead has few residuals.
 */

/** Residuals a lead's interval is computed from at least; neighbouring leads are pooled until there are this many. */
export const MIN_RESIDUALS_PER_LEAD = 30;

export interface ConformalOptions {
  /** Clip the lower bound at 0 (solar, wind, any series that cannot go negative). */
  nonNegative?: boolean;
  /** Where the point is exactly 0 (solar at night), the interval is [0, 0]. */
  zeroWherePointZero?: boolean;
  /** @default MIN_RESIDUALS_PER_LEAD */
  minResiduals?: number;
}

export interface Intervals {
  lower: number[];
  upper: number[];
}

/** The k-th smallest (1-based, clamped to 1..n) of sorted values. */
const orderStatistic = (sorted: readonly number[], k: number) => sorted[Math.min(sorted.length, Math.max(1, k)) - 1];

/**
 * Conformal quantiles of residuals (actual - forecast) for a central interval of `coverage`:
 * the lower at the floor((n + 1) alpha/2)-th and the upper at the ceil((n + 1)(1 - alpha/2))-th order
 * statistic (clamped to the sample, which with very few residuals makes the interval the sample's range).
 */
export function residualQuantiles(residuals: readonly number[], coverage: number): { lo: number; hi: number } {
  if (!(coverage > 0 && coverage < 1)) throw new RangeError(`coverage must be strictly between 0 and 1, got ${coverage}`);
  if (residuals.length === 0) return { lo: NaN, hi: NaN };
  const sorted = [...residuals].sort((a, b) => a - b);
  const n = sorted.length;
  const alpha = 1 - coverage;
  // 1 - 0.9 is 0.0999...98 in binary: the epsilon keeps (n + 1) alpha/2 = 2 from flooring to 1.
  const EPSILON = 1e-9;
  return { lo: orderStatistic(sorted, Math.floor((n + 1) * (alpha / 2) + EPSILON)), hi: orderStatistic(sorted, Math.ceil((n + 1) * (1 - alpha / 2) - EPSILON)) };
}

/** The residuals of lead j pooled with its neighbours (j +- w, w growing) until there are enough. */
export function pooledResiduals(residualsByLead: readonly (readonly number[])[], lead: number, minResiduals: number): number[] {
  const pooled = [...(residualsByLead[lead] ?? [])];
  for (let w = 1; pooled.length < minResiduals && (lead - w >= 0 || lead + w < residualsByLead.length); w++) {
    if (lead - w >= 0) pooled.push(...residualsByLead[lead - w]);
    if (lead + w < residualsByLead.length) pooled.push(...residualsByLead[lead + w]);
  }
  return pooled;
}

/**
 * Interval of each lead: point + the conformal residual quantiles at that lead. Always lower <= point <= upper;
 * a lead without any residual gets the degenerate interval [point, point].
 */
export function conformalIntervals(point: readonly number[], residualsByLead: readonly (readonly number[])[], coverage: number, options: ConformalOptions = {}): Intervals {
  const minResiduals = options.minResiduals ?? MIN_RESIDUALS_PER_LEAD;
  const lower: number[] = [];
  const upper: number[] = [];
  point.forEach((p, j) => {
    if (options.zeroWherePointZero && p === 0) {
      lower.push(0);
      upper.push(0);
      return;
    }
    const { lo, hi } = residualQuantiles(pooledResiduals(residualsByLead, j, minResiduals), coverage);
    let l = Number.isFinite(lo) ? Math.min(p, p + lo) : p;
    const u = Number.isFinite(hi) ? Math.max(p, p + hi) : p;
    if (options.nonNegative) l = Math.min(p, Math.max(0, l));
    lower.push(l);
    upper.push(u);
  });
  return { lower, upper };
}

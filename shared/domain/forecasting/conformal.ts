/**
 * Prediction intervals by split conformal prediction per lead time (Vovk et al. 2005; Lei et al. 2018,
 * split conformal): the empirical quantiles of out-of-sample residuals at each lead, with the finite-sample
 * correction, added to the point forecast. Neighbouring leads are pooled when a lead has few residuals.
 *
 * The exchangeable units are the validation folds (days), not the points: a day's errors at neighbouring
 * leads move together (a level error lasts the day), so pooling 5 leads of 3 days gives 3 samples, not 15.
 * The finite-sample correction therefore counts folds: the quantile level is ceil((F + 1)(1 - alpha/2)) / F
 * of the pooled residuals for F folds (Taylor demand, Holt-Winters, 28 days: coverage of a 90% interval
 * 0.76 when points were counted, 0.86 to 0.9 when folds are).
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

/**
 * Conformal quantiles of residuals (actual - forecast) for a central interval of `coverage`, with the
 * finite-sample correction for `units` exchangeable units (default: every residual is one): the lower at
 * level floor((u + 1) alpha/2) / u and the upper at ceil((u + 1)(1 - alpha/2)) / u of the sorted residuals
 * (clamped to the sample, which with very few units makes the interval the sample's range).
 */
export function residualQuantiles(residuals: readonly number[], coverage: number, units = residuals.length): { lo: number; hi: number } {
  if (!(coverage > 0 && coverage < 1)) throw new RangeError(`coverage must be strictly between 0 and 1, got ${coverage}`);
  if (residuals.length === 0) return { lo: NaN, hi: NaN };
  const sorted = [...residuals].sort((a, b) => a - b);
  const n = sorted.length;
  const u = Math.max(1, units);
  const alpha = 1 - coverage;
  // 1 - 0.9 is 0.0999...98 in binary: the epsilon keeps (u + 1) alpha/2 = 2 from flooring to 1.
  const EPSILON = 1e-9;
  const loLevel = Math.floor((u + 1) * (alpha / 2) + EPSILON) / u;
  const hiLevel = Math.ceil((u + 1) * (1 - alpha / 2) - EPSILON) / u;
  // The k-th smallest for a level (inverse empirical distribution), clamped to 1..n.
  const at = (level: number) => sorted[Math.min(n, Math.max(1, Math.ceil(level * n - EPSILON))) - 1];
  return { lo: at(loLevel), hi: at(hiLevel) };
}

/**
 * The residuals of lead j pooled with its neighbours (j +- w, w growing) until there are enough, and the
 * number of folds they come from (the most residuals any one pooled lead has).
 */
export function pooledResiduals(residualsByLead: readonly (readonly number[])[], lead: number, minResiduals: number): { residuals: number[]; folds: number } {
  const pooled = [...(residualsByLead[lead] ?? [])];
  let folds = pooled.length;
  for (let w = 1; pooled.length < minResiduals && (lead - w >= 0 || lead + w < residualsByLead.length); w++) {
    for (const j of [lead - w, lead + w]) {
      if (j < 0 || j >= residualsByLead.length) continue;
      pooled.push(...residualsByLead[j]);
      folds = Math.max(folds, residualsByLead[j].length);
    }
  }
  return { residuals: pooled, folds };
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
    const { residuals, folds } = pooledResiduals(residualsByLead, j, minResiduals);
    const { lo, hi } = residualQuantiles(residuals, coverage, folds);
    let l = Number.isFinite(lo) ? Math.min(p, p + lo) : p;
    const u = Number.isFinite(hi) ? Math.max(p, p + hi) : p;
    if (options.nonNegative) l = Math.min(p, Math.max(0, l));
    lower.push(l);
    upper.push(u);
  });
  return { lower, upper };
}

/**
 * Paired bootstrap over forecast origins (Efron & Tibshirani 1993, percentile intervals): errors within a
 * day move together, so the resampled unit is the origin, and both models of a ratio are resampled with the
 * same origins (paired), which cancels the difficulty of the days drawn.
 */
import { mulberry32 } from '../../shared/domain/seeded-random';

export interface BootstrapOptions {
  /** @default 1000 */
  resamples?: number;
  /** @default 0.95 */
  level?: number;
  /** @default 18 */
  seed?: number;
}

export interface Estimate {
  estimate: number;
  lo: number;
  hi: number;
}

/**
 * Percentile interval of a statistic of `units` units, resampled with replacement. `statistic` gets how many
 * times each unit was drawn (so sums stay O(units) per resample); NaN statistics are left out of the quantiles.
 */
export function bootstrap(units: number, statistic: (weights: readonly number[]) => number, options: BootstrapOptions = {}): Estimate {
  const resamples = options.resamples ?? 1000;
  const level = options.level ?? 0.95;
  const random = mulberry32(options.seed ?? 18);
  const estimate = statistic(new Array<number>(units).fill(1));
  const draws: number[] = [];
  const weights = new Array<number>(units);
  for (let b = 0; b < resamples && units > 0; b++) {
    weights.fill(0);
    for (let k = 0; k < units; k++) weights[Math.floor(random() * units)]++;
    const value = statistic(weights);
    if (Number.isFinite(value)) draws.push(value);
  }
  if (draws.length === 0) return { estimate, lo: NaN, hi: NaN };
  draws.sort((a, b) => a - b);
  const at = (q: number) => draws[Math.min(draws.length - 1, Math.max(0, Math.floor(q * draws.length)))];
  return { estimate, lo: at((1 - level) / 2), hi: at(1 - (1 - level) / 2) };
}

/** Per-origin sums of a loss for two models over the steps both forecast: the pair a ratio is built from. */
export interface PairedSums {
  a: number[];
  b: number[];
}

/**
 * Ratio of two models' mean losses (sum_a / sum_b over the same steps), with its paired bootstrap interval;
 * `root` takes the square root (RMSE ratios from squared errors).
 */
export function pairedRatio(sums: PairedSums, options: BootstrapOptions & { root?: boolean } = {}): Estimate {
  const transform = options.root ? Math.sqrt : (x: number) => x;
  return bootstrap(
    sums.a.length,
    (w) => {
      let a = 0;
      let b = 0;
      w.forEach((k, i) => {
        a += k * sums.a[i];
        b += k * sums.b[i];
      });
      return b > 0 ? transform(a / b) : NaN;
    },
    options,
  );
}

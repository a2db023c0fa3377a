/**
 * Variance-stabilising transforms of prices (Uniejewski, Weron & Ziel 2018, J. Financ. Econom. 16(2)): each is
 * fitted per hour on a calibration window, LEAR is estimated on transformed prices and its forecasts pass
 * through the inverse. Spikes and negative prices weigh less in the fit than on the price scale.
 *
 * - `asinh`: asinh((x - median) / MAD), the paper's eq. 11 and epftoolbox's default ("invariant" transform);
 * - `npit`: the probability integral transform of the window's empirical distribution followed by the
 *   standard normal quantile, Phi^-1(F(x)) (the paper's N-PIT). Its inverse cannot leave the window's range.
 *
 * The paper's mirror-log lost to both on the tune periods (LEAR on Nord Pool 2013-16 and Belgium 2015-18, 28 days).
 */
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';

/** MAD to standard deviation for normal data: 1 / Phi^-1(0.75). */
export const MAD_TO_SD = 1.482602218505602;

export const PRICE_TRANSFORMS = ['asinh', 'npit'] as const;
export type PriceTransformName = (typeof PRICE_TRANSFORMS)[number];

export interface PriceTransform {
  forward(x: number): number;
  inverse(z: number): number;
}

/** Median and scaled median absolute deviation, the location and scale of the invariant transform. */
export interface InvariantScaler {
  median: number;
  mad: number;
}

export function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (!sorted.length) return 0;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median and MAD (scaled to a normal standard deviation) of the finite values; a zero MAD falls back to 1. */
export function fitInvariantScaler(values: ArrayLike<number>): InvariantScaler {
  const list = Array.from(values);
  const m = median(list);
  const mad = median(list.map((v) => Math.abs(v - m))) * MAD_TO_SD;
  return { median: m, mad: mad > 0 ? mad : 1 };
}

/** asinh((x - median) / MAD) (Uniejewski, Weron & Ziel 2018, eq. 11). */
export function asinhTransform(x: number, scaler: InvariantScaler): number {
  return Math.asinh((x - scaler.median) / scaler.mad);
}

export function inverseAsinhTransform(z: number, scaler: InvariantScaler): number {
  return Math.sinh(z) * scaler.mad + scaler.median;
}

/** Index of the last element of ascending `sorted` at most x (-1 when x is below them all). */
function floorIndex(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  if (!(x >= sorted[0])) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid] <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Linear interpolation of y over ascending x at `at`, held flat beyond the ends. */
function interpolate(xs: Float64Array, ys: Float64Array, at: number): number {
  const i = floorIndex(xs, at);
  if (i < 0) return ys[0];
  if (i >= xs.length - 1) return ys[ys.length - 1];
  const w = (at - xs[i]) / (xs[i + 1] - xs[i]);
  return ys[i] + w * (ys[i + 1] - ys[i]);
}

/**
 * N-PIT on the window's values: each distinct value sits at the mean plotting position (rank - 0.5) / n of its
 * ties, mapped through Phi^-1, and values between are interpolated linearly (in both directions).
 */
function fitNpit(values: ArrayLike<number>): PriceTransform {
  const sorted = Array.from(values).filter(Number.isFinite).sort((a, b) => a - b);
  const n = sorted.length;
  if (n < 2) return { forward: () => 0, inverse: () => sorted[0] ?? 0 };
  const xs: number[] = [];
  const zs: number[] = [];
  for (let i = 0; i < n; ) {
    let j = i;
    while (j + 1 < n && sorted[j + 1] === sorted[i]) j++;
    xs.push(sorted[i]);
    zs.push(normalQuantile((i + j) / 2 / n + 0.5 / n, 0, 1));
    i = j + 1;
  }
  if (xs.length < 2) return { forward: () => 0, inverse: () => xs[0] };
  const x = Float64Array.from(xs);
  const z = Float64Array.from(zs);
  return { forward: (value) => interpolate(x, z, value), inverse: (value) => interpolate(z, x, value) };
}

/** The transform `name` fitted on one hour's values over a calibration window. */
export function fitPriceTransform(name: PriceTransformName, values: ArrayLike<number>): PriceTransform {
  if (name === 'npit') return fitNpit(values);
  const scaler = fitInvariantScaler(values);
  return { forward: (x) => asinhTransform(x, scaler), inverse: (z) => inverseAsinhTransform(z, scaler) };
}

/**
 * The one rounding rule for figures in answers: half away from zero at `decimals` places, so 1.005 -> 1.01
 * and -2.5 -> -3 (Math.round alone gives 1 and -2: the scaled binary value sits just below the half, and
 * Math.round breaks ties toward +infinity). Non-finite values pass through; -0 becomes 0.
 */
export function round(x: number, decimals: number): number {
  if (!Number.isFinite(x)) return x;
  const scale = 10 ** decimals;
  // One relative epsilon lifts a product like 1.005 * 100 = 100.49999999999999 back onto its half.
  const magnitude = Math.round(Math.abs(x) * scale * (1 + Number.EPSILON)) / scale;
  return Math.sign(x) * magnitude + 0;
}

/** `round` for a value that may be null (a metric that does not exist for the input). */
export const roundOrNull = (x: number | null, decimals: number): number | null => (x === null ? null : round(x, decimals));

/**
 * Math.round's rule at `decimals` places: ties toward +infinity, on the binary product (so -2.5 -> -2 and
 * 1.005 -> 1, where `round` gives -3 and 1.01). The figures of the answers and benches written before `round`
 * keep it, so none of their published numbers moved. A non-finite value passes through, or becomes
 * `nonFinite` where one is given (0 where the figure must be a number, null where it may be absent); -0 becomes 0.
 */
export function roundHalfUp(x: number, decimals: number): number;
export function roundHalfUp<F>(x: number, decimals: number, nonFinite: F): number | F;
export function roundHalfUp<F>(x: number, decimals: number, nonFinite?: F): number | F {
  if (nonFinite !== undefined && !Number.isFinite(x)) return nonFinite;
  const scale = 10 ** decimals;
  return Math.round(x * scale) / scale + 0;
}

/** `roundHalfUp` for a value that may be null. */
export const roundHalfUpOrNull = (x: number | null, decimals: number): number | null => (x === null ? null : roundHalfUp(x, decimals));

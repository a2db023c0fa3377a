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

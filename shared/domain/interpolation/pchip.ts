/** `pchip`: monotone cubic Hermite interpolation (PCHIP, Fritsch & Carlson 1980) through three known values either side of the gap. */
import { edgesKnown, known } from './types';

/** Fritsch-Carlson slopes at the nodes (x increasing), monotone where the data are. */
function pchipSlopes(x: number[], y: number[]): number[] {
  const n = x.length;
  const h = x.slice(1).map((xi, i) => xi - x[i]);
  const delta = h.map((hi, i) => (y[i + 1] - y[i]) / hi);
  const d = new Array<number>(n).fill(0);
  for (let i = 1; i < n - 1; i++) {
    if (delta[i - 1] * delta[i] > 0) {
      const w1 = 2 * h[i] + h[i - 1];
      const w2 = h[i] + 2 * h[i - 1];
      d[i] = (w1 + w2) / (w1 / delta[i - 1] + w2 / delta[i]);
    }
  }
  // End slopes: the one-sided three-point formula, kept monotone (Moler, Numerical Computing with MATLAB, pchip).
  const end = (h0: number, h1: number, d0: number, d1: number) => {
    let s = ((2 * h0 + h1) * d0 - h0 * d1) / (h0 + h1);
    if (Math.sign(s) !== Math.sign(d0)) s = 0;
    else if (Math.sign(d0) !== Math.sign(d1) && Math.abs(s) > Math.abs(3 * d0)) s = 3 * d0;
    return s;
  };
  if (n === 2) d[0] = d[1] = delta[0];
  else {
    d[0] = end(h[0], h[1], delta[0], delta[1]);
    d[n - 1] = end(h[n - 2], h[n - 3], delta[n - 2], delta[n - 3]);
  }
  return d;
}

/** Known neighbours of a gap [a, b]: up to `k` on each side, nearest first. */
function neighbours(y: readonly number[], a: number, b: number, k: number): number[] {
  const left: number[] = [];
  for (let i = a - 1; i >= 0 && left.length < k; i--) if (known(y[i])) left.unshift(i);
  const right: number[] = [];
  for (let i = b + 1; i < y.length && right.length < k; i++) if (known(y[i])) right.push(i);
  return [...left, ...right];
}

export function pchipFill(y: readonly number[], a: number, b: number): number[] | null {
  const left = a - 1;
  const right = b + 1;
  if (!edgesKnown(y, a, b)) return null;
  const out: number[] = [];
  const nodes = neighbours(y, a, b, 3);
  const xs = nodes;
  const ys = nodes.map((i) => y[i]);
  const d = pchipSlopes(xs, ys);
  const k = xs.indexOf(left);
  const h = right - left;
  for (let i = a; i <= b; i++) {
    const s = (i - left) / h;
    const h00 = 2 * s ** 3 - 3 * s ** 2 + 1;
    const h10 = s ** 3 - 2 * s ** 2 + s;
    const h01 = -2 * s ** 3 + 3 * s ** 2;
    const h11 = s ** 3 - s ** 2;
    out.push(h00 * y[left] + h10 * h * d[k] + h01 * y[right] + h11 * h * d[k + 1]);
  }
  return out;
}

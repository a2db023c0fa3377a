/**
 * Ridge regression on standardised features with an intercept (Hoerl & Kennard 1970), the penalty chosen
 * on the last rows: the linear core of the load regression and of trained feature models. The solve is
 * ml-matrix's Cholesky; only the normal equations are accumulated here, sparsely.
 */
import { CholeskyDecomposition, Matrix, solve } from 'ml-matrix';

/** Ridge penalties tried, as a multiple of the row count on standardised features. */
export const RIDGE_LAMBDAS = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1];

export interface Ridge {
  beta: number[];
  mean: number[];
  scale: number[];
  lambda: number;
}

/**
 * Gram matrix and cross-products of standardised rows with an intercept column first. Built from the raw
 * sums over the non-zero entries (most features are one-hot calendar dummies, about 10 of 90 are non-zero
 * per row) and standardised afterwards: sum((x_a - m_a)(x_b - m_b)) = S_ab - m_a s_b - m_b s_a + n m_a m_b.
 */
function normalEquations(rows: number[][], targets: number[], mean: number[], scale: number[]): { gram: Matrix; xty: Matrix } {
  const p = mean.length;
  const n = rows.length;
  const raw = new Float64Array(p * p);
  const sums = new Float64Array(p);
  const crossY = new Float64Array(p);
  let sumY = 0;
  const nonZero: number[] = [];
  for (let r = 0; r < n; r++) {
    const x = rows[r];
    const target = targets[r];
    sumY += target;
    nonZero.length = 0;
    for (let c = 0; c < p; c++) if (x[c] !== 0) nonZero.push(c);
    for (const a of nonZero) {
      sums[a] += x[a];
      crossY[a] += x[a] * target;
      for (const b of nonZero) raw[a * p + b] += x[a] * x[b];
    }
  }
  const gram = new Matrix(p + 1, p + 1);
  const xty = new Matrix(p + 1, 1);
  gram.set(0, 0, n);
  xty.set(0, 0, sumY);
  for (let a = 0; a < p; a++) {
    const centred = (sums[a] - n * mean[a]) / scale[a];
    gram.set(0, a + 1, centred);
    gram.set(a + 1, 0, centred);
    xty.set(a + 1, 0, (crossY[a] - mean[a] * sumY) / scale[a]);
    for (let b = a; b < p; b++) {
      const value = (raw[a * p + b] - mean[a] * sums[b] - mean[b] * sums[a] + n * mean[a] * mean[b]) / (scale[a] * scale[b]);
      gram.set(a + 1, b + 1, value);
      gram.set(b + 1, a + 1, value);
    }
  }
  return { gram, xty };
}

/** Closed-form ridge, (X'X + lambda n D) b = X'y, D = I without the intercept (Hoerl & Kennard 1970). */
function solveRidge(gram: Matrix, xty: Matrix, lambda: number, n: number): number[] {
  const a = gram.clone();
  for (let c = 1; c < a.rows; c++) a.set(c, c, a.get(c, c) + lambda * n);
  const chol = new CholeskyDecomposition(a);
  const b = chol.isPositiveDefinite() ? chol.solve(xty) : solve(a, xty);
  return b.getColumn(0);
}

export function predictRow(model: Ridge, x: number[]): number {
  let s = model.beta[0];
  for (let c = 0; c < x.length; c++) s += (model.beta[c + 1] * (x[c] - model.mean[c])) / model.scale[c];
  return s;
}

/** Fits ridge on the usable rows, choosing lambda by the error on the last `validation` rows. */
export function fitRidge(rows: number[][], targets: number[], validation: number): Ridge {
  const p = rows[0].length;
  const mean = new Array<number>(p).fill(0);
  const scale = new Array<number>(p).fill(0);
  for (const x of rows) for (let c = 0; c < p; c++) mean[c] += x[c] / rows.length;
  for (const x of rows) for (let c = 0; c < p; c++) scale[c] += (x[c] - mean[c]) ** 2 / rows.length;
  // A constant column (no holidays in the history) standardises to zeros and keeps a zero coefficient.
  for (let c = 0; c < p; c++) scale[c] = Math.sqrt(scale[c]) || 1;

  const cut = rows.length - validation;
  const train = normalEquations(rows.slice(0, cut), targets.slice(0, cut), mean, scale);
  const held = normalEquations(rows.slice(cut), targets.slice(cut), mean, scale);
  let bestLambda = RIDGE_LAMBDAS[0];
  let bestSse = Infinity;
  for (const lambda of RIDGE_LAMBDAS) {
    const model = { beta: solveRidge(train.gram, train.xty, lambda, cut), mean, scale, lambda };
    let sse = 0;
    for (let r = cut; r < rows.length; r++) sse += (targets[r] - predictRow(model, rows[r])) ** 2;
    if (sse < bestSse) {
      bestSse = sse;
      bestLambda = lambda;
    }
  }
  const all = { gram: train.gram.add(held.gram), xty: train.xty.add(held.xty) };
  return { beta: solveRidge(all.gram, all.xty, bestLambda, rows.length), mean, scale, lambda: bestLambda };
}


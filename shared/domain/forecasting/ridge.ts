/**
 * Ridge regression on standardised features with an intercept (Hoerl & Kennard 1970), the penalty chosen
 * on the last rows: the linear core of the load regression and of trained feature models. The normal equations
 * are accumulated here, sparsely, and solved by Cholesky (solveRidge says why not ml-matrix's).
 */
import { Matrix, solve } from 'ml-matrix';

/** Ridge penalties tried, as a multiple of the row count on standardised features. */
export const RIDGE_LAMBDAS = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1];

export interface Ridge {
  beta: number[];
  mean: number[];
  scale: number[];
  lambda: number;
}

/**
 * Raw sums of a run of rows: the Gram matrix over the non-zero entries (most features are one-hot calendar
 * dummies, about 10 of 90 are non-zero per row), the column sums and the cross-products with the target. They are
 * standardised afterwards (`standardised`), so one pass can serve fits of several prefixes of the same rows.
 */
export interface RawSums {
  count: number;
  gram: Float64Array;
  sums: Float64Array;
  crossY: Float64Array;
  sumY: number;
}

export const emptySums = (p: number): RawSums => ({ count: 0, gram: new Float64Array(p * p), sums: new Float64Array(p), crossY: new Float64Array(p), sumY: 0 });

export const copySums = (s: RawSums): RawSums => ({ count: s.count, gram: s.gram.slice(), sums: s.sums.slice(), crossY: s.crossY.slice(), sumY: s.sumY });

/** Adds rows [from, to) to `into` (in order: a prefix accumulated in one pass equals one accumulated alone, bit for bit). */
export function accumulate(into: RawSums, rows: readonly number[][], targets: readonly number[], from: number, to: number): RawSums {
  const p = into.sums.length;
  const { gram, sums, crossY } = into;
  const nonZero: number[] = [];
  for (let r = from; r < to; r++) {
    const x = rows[r];
    const target = targets[r];
    into.sumY += target;
    nonZero.length = 0;
    for (let c = 0; c < p; c++) if (x[c] !== 0) nonZero.push(c);
    for (const a of nonZero) {
      sums[a] += x[a];
      crossY[a] += x[a] * target;
      for (const b of nonZero) gram[a * p + b] += x[a] * x[b];
    }
  }
  into.count += to - from;
  return into;
}

/**
 * Gram matrix and cross-products of standardised rows with an intercept column first, from raw sums:
 * sum((x_a - m_a)(x_b - m_b)) = S_ab - m_a s_b - m_b s_a + n m_a m_b.
 */
function standardised(raw: RawSums, mean: number[], scale: number[]): Normal {
  const p = mean.length;
  const size = p + 1;
  const n = raw.count;
  const gram = new Float64Array(size * size);
  const xty = new Float64Array(size);
  gram[0] = n;
  xty[0] = raw.sumY;
  for (let a = 0; a < p; a++) {
    const centred = (raw.sums[a] - n * mean[a]) / scale[a];
    gram[a + 1] = centred;
    gram[(a + 1) * size] = centred;
    xty[a + 1] = (raw.crossY[a] - mean[a] * raw.sumY) / scale[a];
    for (let b = a; b < p; b++) {
      const value = (raw.gram[a * p + b] - mean[a] * raw.sums[b] - mean[b] * raw.sums[a] + n * mean[a] * mean[b]) / (scale[a] * scale[b]);
      gram[(a + 1) * size + b + 1] = value;
      gram[(b + 1) * size + a + 1] = value;
    }
  }
  return { size, gram, xty };
}

/** Normal equations of the standardised rows with the intercept first: a `size` x `size` Gram matrix, row-major. */
interface Normal {
  size: number;
  gram: Float64Array;
  xty: Float64Array;
}

const plus = (a: Normal, b: Normal): Normal => ({ size: a.size, gram: a.gram.map((v, i) => v + b.gram[i]), xty: a.xty.map((v, i) => v + b.xty[i]) });

/**
 * Closed-form ridge, (X'X + lambda n D) b = X'y, D = I without the intercept (Hoerl & Kennard 1970), by an
 * in-place Cholesky factorisation: ml-matrix's, through its element accessors, took 1.7 ms at 88 x 88 against
 * 0.6 ms here, and a load forecast's validation makes about a hundred of these solves. A matrix that is not
 * positive definite (a feature constant in the fitted rows with lambda tiny) goes to ml-matrix's general solve.
 */
function solveRidge({ size, gram, xty }: Normal, lambda: number, n: number): number[] {
  const l = gram.slice();
  for (let c = 1; c < size; c++) l[c * size + c] += lambda * n;
  for (let j = 0; j < size; j++) {
    const rowJ = j * size;
    let d = l[rowJ + j];
    for (let k = 0; k < j; k++) d -= l[rowJ + k] * l[rowJ + k];
    if (!(d > 0)) return generalSolve(gram, xty, size, lambda, n);
    d = Math.sqrt(d);
    l[rowJ + j] = d;
    for (let i = j + 1; i < size; i++) {
      const rowI = i * size;
      let v = l[rowI + j];
      for (let k = 0; k < j; k++) v -= l[rowI + k] * l[rowJ + k];
      l[rowI + j] = v / d;
    }
  }
  const x = Array.from(xty);
  for (let i = 0; i < size; i++) {
    let v = x[i];
    for (let k = 0; k < i; k++) v -= l[i * size + k] * x[k];
    x[i] = v / l[i * size + i];
  }
  for (let i = size - 1; i >= 0; i--) {
    let v = x[i];
    for (let k = i + 1; k < size; k++) v -= l[k * size + i] * x[k];
    x[i] = v / l[i * size + i];
  }
  return x;
}

function generalSolve(gram: Float64Array, xty: Float64Array, size: number, lambda: number, n: number): number[] {
  const a = new Matrix(size, size);
  for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) a.set(i, j, gram[i * size + j] + (i === j && i > 0 ? lambda * n : 0));
  return solve(a, Matrix.columnVector(Array.from(xty))).getColumn(0);
}

export function predictRow(model: Ridge, x: number[]): number {
  let s = model.beta[0];
  for (let c = 0; c < x.length; c++) s += (model.beta[c + 1] * (x[c] - model.mean[c])) / model.scale[c];
  return s;
}

/**
 * Fits ridge on the first `count` rows (all by default), choosing lambda by the error on the last `validation`
 * of them. `trainSums`, when given, are the raw sums of the rows before the validation rows (accumulated once
 * for several prefixes of the same rows, as the load regression's validation folds do); the fit is the same.
 */
export function fitRidge(rows: readonly number[][], targets: readonly number[], validation: number, count = rows.length, trainSums?: RawSums): Ridge {
  const p = rows[0].length;
  const mean = new Array<number>(p).fill(0);
  const scale = new Array<number>(p).fill(0);
  for (let r = 0; r < count; r++) for (let c = 0; c < p; c++) mean[c] += rows[r][c] / count;
  for (let r = 0; r < count; r++) for (let c = 0; c < p; c++) scale[c] += (rows[r][c] - mean[c]) ** 2 / count;
  // A constant column (no holidays in the history) standardises to zeros and keeps a zero coefficient.
  for (let c = 0; c < p; c++) scale[c] = Math.sqrt(scale[c]) || 1;

  const cut = count - validation;
  if (trainSums && trainSums.count !== cut) throw new RangeError(`ridge: sums of ${trainSums.count} rows given for a training part of ${cut}`);
  const train = standardised(trainSums ?? accumulate(emptySums(p), rows, targets, 0, cut), mean, scale);
  const held = standardised(accumulate(emptySums(p), rows, targets, cut, count), mean, scale);
  let bestLambda = RIDGE_LAMBDAS[0];
  let bestSse = Infinity;
  for (const lambda of RIDGE_LAMBDAS) {
    const model = { beta: solveRidge(train, lambda, cut), mean, scale, lambda };
    let sse = 0;
    for (let r = cut; r < count; r++) sse += (targets[r] - predictRow(model, rows[r])) ** 2;
    if (sse < bestSse) {
      bestSse = sse;
      bestLambda = lambda;
    }
  }
  return { beta: solveRidge(plus(train, held), bestLambda, count), mean, scale, lambda: bestLambda };
}

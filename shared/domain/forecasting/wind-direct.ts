/**
 * Direct multi-step linear regression for wind power: one ridge regression per lead k of y(t+k) on features
 * known at t (the direct strategy of Ben Taieb, Bontempi, Atiya & Sorjamaa 2012, Expert Syst. Appl.
 * 39:7067-7083: it does not compound the errors of an iterated one-step model). Features are shared by
 * every lead, so one Gram matrix serves them all and a lead costs one pass of cross-products plus a small
 * solve; an optional regressor of each lead's own (a forecast of the power at t+k) borders that matrix.
 */
import { CholeskyDecomposition, Matrix, solve } from 'ml-matrix';

/** Share of the fitted rows (the latest) on which each lead chooses among nested candidate models. */
export const VALIDATION_FRACTION = 0.25;
/** Ridge penalty as a fraction of each column's sum of squares (the same on standardised features): conditioning only. */
export const DIRECT_RIDGE = 1e-4;
/** Leads fitted one by one before the grid thins out (see leadGrid). */
export const DENSE_LEADS = 6;
/** Ratio of successive fitted leads past the dense ones. */
export const LEAD_GRID_RATIO = 1.2;

/** One lead's regression: y = intercept + beta . x (+ gamma z with the lead's own regressor z). */
export interface LeadModel {
  intercept: number;
  beta: Float64Array;
  gamma: number;
}

export interface DirectFit {
  /** Fitted leads (steps), increasing; leads between are interpolated (modelAt). */
  grid: number[];
  /** Models on the shared features only, one per grid lead. */
  plain: LeadModel[];
  /** Models with the lead's own regressor as well, when one was given. */
  withExtra: LeadModel[] | null;
}

/** Mean of the finite values in y[i - width + 1 .. i] for every i (NaN where there is none), by running sums. */
export function trailingMean(y: ArrayLike<number>, width: number): Float64Array {
  const n = y.length;
  const out = new Float64Array(n);
  let sum = 0;
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (Number.isFinite(y[i])) {
      sum += y[i];
      count++;
    }
    const leaving = i - width;
    if (leaving >= 0 && Number.isFinite(y[leaving])) {
      sum -= y[leaving];
      count--;
    }
    out[i] = count > 0 ? sum / count : NaN;
  }
  return out;
}

/**
 * Leads with a regression of their own: each of the first `DENSE_LEADS`, then about 20% apart up to K.
 * Coefficients change smoothly with the lead, so a 48-hour horizon at 10 minutes needs 26 regressions, not 288.
 */
export function leadGrid(K: number): number[] {
  const grid: number[] = [];
  for (let k = 1; k <= Math.min(K, DENSE_LEADS); k++) grid.push(k);
  while (grid[grid.length - 1] < K) grid.push(Math.min(K, Math.ceil(grid[grid.length - 1] * LEAD_GRID_RATIO)));
  return grid;
}

/** The model at lead k: a grid lead's own, the interpolation of the two grid leads around it, or the last one past them. */
export function modelAt(grid: readonly number[], models: readonly LeadModel[], k: number): LeadModel {
  const hi = grid.findIndex((g) => g >= k);
  if (hi < 0) return models[models.length - 1];
  if (grid[hi] === k || hi === 0) return models[hi];
  const f = (k - grid[hi - 1]) / (grid[hi] - grid[hi - 1]);
  const a = models[hi - 1];
  const b = models[hi];
  const mix = (u: number, v: number) => u + f * (v - u);
  return { intercept: mix(a.intercept, b.intercept), beta: a.beta.map((u, c) => mix(u, b.beta[c])), gamma: mix(a.gamma, b.gamma) };
}

/** Ridge solve of (A + penalty) x = b over the indices `use` of a q x q system; the intercept (index 0) is not penalised. */
function ridgeSolve(A: Float64Array, q: number, b: Float64Array, use: readonly number[]): Float64Array {
  const size = use.length;
  const M = new Matrix(size, size);
  const B = new Matrix(size, 1);
  use.forEach((u, a) => {
    use.forEach((v, c) => M.set(a, c, A[u * q + v]));
    if (u !== 0) M.set(a, a, A[u * q + u] * (1 + DIRECT_RIDGE) + 1e-12);
    B.set(a, 0, b[u]);
  });
  const chol = new CholeskyDecomposition(M);
  const x = (chol.isPositiveDefinite() ? chol.solve(B) : solve(M, B)).getColumn(0);
  const out = new Float64Array(q);
  use.forEach((u, a) => (out[u] = x[a]));
  return out;
}

/**
 * Fits every grid lead on the rows i >= firstRow where every feature (columns[c][i]), every target
 * y[i + k] and every extra regressor extra(k)[i] is finite; null with too few such rows.
 *
 * `nested` lists candidate models as counts of leading columns (e.g. [4, 7]: the first 4 columns, or all 7);
 * each lead keeps the candidate (and, in `withExtra`, with or without the extra regressor) whose error is
 * least on the last `VALIDATION_FRACTION` of the rows when fitted on the rows before, then refits it on
 * all rows. Every candidate is a block of one Gram matrix, so the choice costs small solves only.
 */
export function fitDirect(
  columns: readonly ArrayLike<number>[],
  y: ArrayLike<number>,
  grid: readonly number[],
  firstRow: number,
  extra?: (k: number) => Float64Array,
  nested: readonly number[] = [columns.length],
): DirectFit | null {
  const n = y.length;
  const p = columns.length;
  const q = p + 2; // intercept, features, extra regressor
  const K = grid[grid.length - 1];
  const extras = extra ? grid.map(extra) : null;
  // nextGap[i]: the first index >= i whose target is missing, so a row's K targets are checked at once.
  const nextGap = new Int32Array(n + 1);
  nextGap[n] = n;
  for (let i = n - 1; i >= 0; i--) nextGap[i] = Number.isFinite(y[i]) ? nextGap[i + 1] : i;
  // 0/1 row weights: the sums below then run over whole arrays, as
  // cross-correlations of each feature with the target shifted by the lead.
  const row = new Float64Array(n);
  let m = 0;
  for (let i = firstRow; i + K < n; i++) {
    if (nextGap[i + 1] <= i + K) continue;
    let ok = true;
    for (let c = 0; c < p && ok; c++) ok = Number.isFinite(columns[c][i]);
    for (let g = 0; extras && g < grid.length && ok; g++) ok = Number.isFinite(extras[g][i]);
    if (ok) {
      row[i] = 1;
      m++;
    }
  }
  if (m < 4 * (q + 2)) return null;
  // The held-out rows are the valid rows from index `cut` on (the latest VALIDATION_FRACTION of them).
  let cut = n;
  for (let i = n - 1, seen = 0; i >= 0 && seen < m * VALIDATION_FRACTION; i--) {
    if (row[i]) {
      seen++;
      cut = i;
    }
  }

  // Explicit loops throughout: TypedArray.from with a map function is an order of magnitude slower in V8.
  // Columns: 0 the intercept, 1..p the features less their mean (for conditioning), p + 1 the extra.
  const target = new Float64Array(n);
  for (let i = 0; i < n; i++) target[i] = Number.isFinite(y[i]) ? y[i] : 0;
  const targetSquared = new Float64Array(n);
  for (let i = 0; i < n; i++) targetSquared[i] = target[i] * target[i];
  const design: Float64Array[] = [row];
  for (let c = 0; c < p; c++) {
    const col = columns[c];
    let s = 0;
    for (let i = 0; i < n; i++) if (row[i]) s += col[i];
    const mean = s / m;
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = row[i] ? col[i] - mean : 0;
    design.push(out);
  }
  /** The sum over i >= from of u[i] v[i + shift]; u is a design column, zero off the rows. */
  const dot = (u: Float64Array, v: Float64Array, from: number, shift = 0) => {
    let s = 0;
    for (let i = from; i + shift < n; i++) s += u[i] * v[i + shift];
    return s;
  };
  // Gram matrices of all rows and of the held-out rows; the training rows' are their difference.
  const gramAll = new Float64Array(q * q);
  const gramHeld = new Float64Array(q * q);
  for (let a = 0; a <= p; a++) {
    for (let b = a; b <= p; b++) {
      gramAll[a * q + b] = gramAll[b * q + a] = dot(design[a], design[b], 0);
      gramHeld[a * q + b] = gramHeld[b * q + a] = dot(design[a], design[b], cut);
    }
  }
  const candidates: number[][] = [...new Set(nested)].map((count) => Array.from({ length: count + 1 }, (_, c) => c));
  const withExtraCandidates = extras ? [...candidates, ...candidates.map((use) => [...use, p + 1])] : [];

  const plain: LeadModel[] = [];
  const withExtra: LeadModel[] | null = extras ? [] : null;
  const xyAll = new Float64Array(q);
  const xyHeld = new Float64Array(q);
  const gramTrain = new Float64Array(q * q);
  const xyTrain = new Float64Array(q);
  grid.forEach((k, g) => {
    for (let a = 0; a <= p; a++) {
      xyAll[a] = dot(design[a], target, 0, k);
      xyHeld[a] = dot(design[a], target, cut, k);
    }
    const yyHeld = dot(row, targetSquared, cut, k);
    if (extras) {
      const z = new Float64Array(n);
      for (let i = 0; i < n; i++) z[i] = row[i] ? extras[g][i] : 0;
      for (let a = 0; a <= p; a++) {
        gramAll[a * q + p + 1] = gramAll[(p + 1) * q + a] = dot(design[a], z, 0);
        gramHeld[a * q + p + 1] = gramHeld[(p + 1) * q + a] = dot(design[a], z, cut);
      }
      gramAll[(p + 1) * q + p + 1] = dot(z, z, 0);
      gramHeld[(p + 1) * q + p + 1] = dot(z, z, cut);
      xyAll[p + 1] = dot(z, target, 0, k);
      xyHeld[p + 1] = dot(z, target, cut, k);
    }
    for (let a = 0; a < q * q; a++) gramTrain[a] = gramAll[a] - gramHeld[a];
    for (let a = 0; a < q; a++) xyTrain[a] = xyAll[a] - xyHeld[a];
    // Held-out squared error of coefficients b: y'y - 2 b'X'y + b'X'X b over the held-out rows.
    const heldError = (b: Float64Array) => {
      let e = yyHeld;
      for (let a = 0; a < q; a++) {
        if (b[a] === 0) continue;
        e -= 2 * b[a] * xyHeld[a];
        for (let c = 0; c < q; c++) e += b[a] * gramHeld[a * q + c] * b[c];
      }
      return e;
    };
    const best = (options: number[][]) => {
      let chosen = options[0];
      let least = Infinity;
      for (const use of options) {
        const error = heldError(ridgeSolve(gramTrain, q, xyTrain, use));
        if (error < least) {
          least = error;
          chosen = use;
        }
      }
      const b = ridgeSolve(gramAll, q, xyAll, chosen);
      return { intercept: b[0], beta: b.subarray(1, p + 1), gamma: b[p + 1] };
    };
    plain.push(best(candidates));
    if (withExtra) withExtra.push(best(withExtraCandidates));
  });
  // Back from centred features to raw ones.
  const means = columns.map((col) => {
    let s = 0;
    for (let i = 0; i < n; i++) if (row[i]) s += col[i];
    return s / m;
  });
  const raw = (model: LeadModel): LeadModel => {
    let intercept = model.intercept;
    for (let c = 0; c < p; c++) intercept -= model.beta[c] * means[c];
    return { ...model, intercept };
  };
  return { grid: [...grid], plain: plain.map(raw), withExtra: withExtra ? withExtra.map(raw) : null };
}

/** A fitted model's forecast at lead k from the features at the origin (and the lead's extra regressor). */
export function predictLead(fit: DirectFit, k: number, origin: ArrayLike<number>, extra = NaN): number {
  const useExtra = fit.withExtra !== null && Number.isFinite(extra);
  const model = modelAt(fit.grid, useExtra ? fit.withExtra! : fit.plain, k);
  let value = model.intercept + (useExtra ? model.gamma * extra : 0);
  for (let c = 0; c < origin.length; c++) value += model.beta[c] * origin[c];
  return value;
}

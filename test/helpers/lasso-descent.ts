/**
 * Cyclic coordinate descent for the lasso at a single lambda, with covariance updates (Friedman, Hastie & Tibshirani
 * 2010, J. Stat. Softw. 33(1), section 2.2) plus exact active-set steps: the oracle the unit tests check the LEAR
 * member's LARS path against (shared/domain/forecasting/lasso.ts). It was the member's estimator before LARS.
 *
 * Objective: (1 / 2n) * ||y - X b||^2 + lambda * sum_j w_j |b_j|, w_j optional penalty factors.
 */
import { Matrix } from 'ml-matrix';
import { choleskySubstitute, type LassoProblem, type LassoSolution } from '../../shared/domain/forecasting/lasso';

/** Coordinate-descent passes over the active set between exact steps. */
const ACTIVE_SWEEPS_BEFORE_EXACT = 5;
/** Exact active-set steps tried per lambda before plain coordinate descent finishes alone. */
const MAX_EXACT_STEPS = 20;

export interface SolveOptions {
  /** Penalty factor per feature (w_j above). @default 1 for every feature */
  weights?: Float64Array;
  /**
   * Stop when no coefficient's contribution moves by more than `tolerance` times the standard deviation of y
   * (|delta b_j| * sd(x_j) / sd(y)). @default 1e-4, scikit-learn's default tolerance
   */
  tolerance?: number;
  /** Cap on full plus active-set sweeps per lambda, as scikit-learn's max_iter. @default 2500 */
  maxSweeps?: number;
}

/** The lasso's proximal step for one coordinate: sign(z) * max(|z| - gamma, 0). */
export function softThreshold(z: number, gamma: number): number {
  if (z > gamma) return z - gamma;
  if (z < -gamma) return z + gamma;
  return 0;
}

/**
 * Solves A x = b for a symmetric positive definite m x m block (row-major) by Cholesky, in place on small
 * typed arrays (the exact step runs thousands of times per fit); null when A is not numerically definite.
 */
function solvePositiveDefinite(a: Float64Array, b: Float64Array, m: number): Float64Array | null {
  const scale = Math.max(...Array.from({ length: m }, (_, i) => a[i * m + i]));
  for (let j = 0; j < m; j++) {
    let d = a[j * m + j];
    for (let k = 0; k < j; k++) d -= a[j * m + k] * a[j * m + k];
    if (!(d > 1e-10 * scale)) return null;
    const root = Math.sqrt(d);
    a[j * m + j] = root;
    for (let i = j + 1; i < m; i++) {
      let s = a[i * m + j];
      for (let k = 0; k < j; k++) s -= a[i * m + k] * a[j * m + k];
      a[i * m + j] = s / root;
    }
  }
  return choleskySubstitute(a, m, m, b);
}

/** Sufficient statistics of centred X (n x p) and y, with the Gram matrix from ml-matrix. */
export function lassoProblem(x: Matrix, y: ArrayLike<number>): LassoProblem {
  const n = x.rows;
  const p = x.columns;
  const gram = Float64Array.from(x.gram().to1DArray());
  const xty = Float64Array.from(x.transposeMultiply(Matrix.columnVector(Array.from(y))).to1DArray());
  let yty = 0;
  for (let i = 0; i < n; i++) yty += y[i] * y[i];
  return { n, p, gram, xty, yty };
}

/**
 * A coordinate-descent solver that keeps b and the gradient q = (X'y - X'X b) / n, so that one coordinate
 * update costs O(1) when the coefficient stays put and O(p) when it moves (the covariance-update form).
 */
export class LassoSolver {
  readonly beta: Float64Array;
  private readonly q: Float64Array;

  constructor(
    readonly problem: LassoProblem,
    start?: Float64Array,
  ) {
    const { p, n, xty } = problem;
    this.beta = new Float64Array(p);
    this.q = new Float64Array(p);
    for (let j = 0; j < p; j++) this.q[j] = xty[j] / n;
    if (start) for (let j = 0; j < p; j++) if (start[j] !== 0) this.move(j, start[j]);
  }

  private move(j: number, delta: number): void {
    const { p, n, gram } = this.problem;
    this.beta[j] += delta;
    const row = j * p;
    const scale = delta / n;
    for (let k = 0; k < p; k++) this.q[k] -= gram[row + k] * scale;
  }

  /** One pass over the given coordinates; returns the largest scaled change. */
  private sweep(coordinates: ArrayLike<number>, lambda: number, weights: Float64Array | undefined): number {
    const { p, n, gram } = this.problem;
    let largest = 0;
    for (let c = 0; c < coordinates.length; c++) {
      const j = coordinates[c];
      const d = gram[j * p + j] / n;
      if (d <= 0) continue;
      const w = weights ? weights[j] : 1;
      const old = this.beta[j];
      const next = Number.isFinite(w) ? softThreshold(this.q[j] + d * old, lambda * w) / d : 0;
      if (next !== old) {
        this.move(j, next - old);
        largest = Math.max(largest, Math.abs(next - old) * Math.sqrt(d));
      }
    }
    return largest;
  }

  /**
   * Minimise the objective at one lambda, warm started from the current coefficients. Coordinate descent
   * finds the active set and its signs; then the optimality conditions on that set, X_A'X_A b_A =
   * X_A'y - n lambda w_A s_A, are solved exactly (Cholesky), stepping back to the first sign change when the
   * signs disagree, as LARS does. Correlated features (prices of adjacent hours) make plain coordinate
   * descent crawl; the exact step ends it once the active set is right.
   */
  solve(lambda: number, options: SolveOptions = {}): LassoSolution {
    const { p } = this.problem;
    const tolerance = (options.tolerance ?? 1e-4) * Math.sqrt(this.problem.yty / this.problem.n);
    const maxSweeps = options.maxSweeps ?? 2500;
    const weights = options.weights;
    const all = Int32Array.from({ length: p }, (_, j) => j);
    let sweeps = 0;
    let exactSteps = 0;
    while (sweeps < maxSweeps) {
      const change = this.sweep(all, lambda, weights);
      sweeps++;
      if (change <= tolerance) break;
      const active = Int32Array.from(all.filter((j) => this.beta[j] !== 0));
      for (let k = 0; k < ACTIVE_SWEEPS_BEFORE_EXACT && sweeps < maxSweeps; k++, sweeps++) {
        if (this.sweep(active, lambda, weights) <= tolerance) break;
      }
      if (exactSteps++ < MAX_EXACT_STEPS && this.exactStep(active, lambda, weights) && this.optimal(lambda, weights)) break;
    }
    return { lambda, beta: Float64Array.from(this.beta), rss: this.rss(), df: this.df() };
  }

  /** Subgradient conditions: |q_j| <= lambda w_j off the active set, q_j = lambda w_j sign(b_j) on it. */
  private optimal(lambda: number, weights: Float64Array | undefined): boolean {
    const slack = 1e-7 * Math.sqrt(this.problem.yty / this.problem.n) + 1e-12;
    for (let j = 0; j < this.problem.p; j++) {
      const bound = lambda * (weights ? weights[j] : 1);
      if (!Number.isFinite(bound)) continue;
      if (this.beta[j] === 0 ? Math.abs(this.q[j]) > bound + slack : Math.abs(this.q[j] - bound * Math.sign(this.beta[j])) > slack) return false;
    }
    return true;
  }

  /** The exact solution on the active set with its current signs; false when it could not be taken whole. */
  private exactStep(active: Int32Array, lambda: number, weights: Float64Array | undefined): boolean {
    const m = active.length;
    if (!m) return true;
    const { p, n, gram, xty } = this.problem;
    const block = new Float64Array(m * m);
    const rhs = new Float64Array(m);
    for (let a = 0; a < m; a++) {
      const row = active[a] * p;
      for (let b = 0; b < m; b++) block[a * m + b] = gram[row + active[b]];
      const j = active[a];
      rhs[a] = xty[j] - n * lambda * (weights ? weights[j] : 1) * Math.sign(this.beta[j]);
    }
    const target = solvePositiveDefinite(block, rhs, m);
    if (!target) return false;
    // Go from b to the target, stopping where the first coefficient would cross zero.
    let step = 1;
    let crossing = -1;
    for (let a = 0; a < m; a++) {
      const now = this.beta[active[a]];
      if (Math.sign(target[a]) !== Math.sign(now)) {
        const t = now / (now - target[a]);
        if (t < step) {
          step = t;
          crossing = a;
        }
      }
    }
    for (let a = 0; a < m; a++) {
      const j = active[a];
      const next = a === crossing ? 0 : this.beta[j] + step * (target[a] - this.beta[j]);
      if (next !== this.beta[j]) this.move(j, next - this.beta[j]);
    }
    return crossing === -1;
  }

  /** ||y - Xb||^2 = y'y - b'X'y - n b'q, since X'X b = X'y - n q. */
  rss(): number {
    const { p, n, xty, yty } = this.problem;
    let bxy = 0;
    let bq = 0;
    for (let j = 0; j < p; j++) {
      bxy += this.beta[j] * xty[j];
      bq += this.beta[j] * this.q[j];
    }
    return Math.max(yty - bxy - n * bq, 0);
  }

  df(): number {
    let count = 0;
    for (const b of this.beta) if (b !== 0) count++;
    return count;
  }
}

export interface LassoFit {
  intercept: number;
  /** Coefficients in the units of the original features. */
  coefficients: number[];
  lambda: number;
}

/**
 * A lasso fit on raw data at a given lambda: centres X and y (and, with `standardize`, scales each column to
 * unit variance, so lambda penalises every feature alike), then maps the coefficients back.
 */
export function fitLasso(x: Matrix, y: ArrayLike<number>, lambda: number, options: SolveOptions & { standardize?: boolean } = {}): LassoFit {
  const n = x.rows;
  const means = x.mean('column');
  const scales = options.standardize ? x.standardDeviation('column', { mean: means, unbiased: false }).map((s) => (s > 0 ? s : 1)) : means.map(() => 1);
  const centred = x.clone();
  for (let i = 0; i < n; i++) for (let j = 0; j < x.columns; j++) centred.set(i, j, (x.get(i, j) - means[j]) / scales[j]);
  let yMean = 0;
  for (let i = 0; i < n; i++) yMean += y[i] / n;
  const yc = Array.from({ length: n }, (_, i) => y[i] - yMean);
  const solution = new LassoSolver(lassoProblem(centred, yc)).solve(lambda, options);
  const coefficients = Array.from(solution.beta, (b, j) => b / scales[j]);
  const intercept = yMean - coefficients.reduce((sum, b, j) => sum + b * means[j], 0);
  return { intercept, coefficients, lambda };
}

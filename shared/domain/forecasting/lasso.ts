/**
 * The LASSO estimator of the LEAR price member, on the Gram matrix of standardised features: the exact path by LARS
 * with the lasso modification (`larsLassoPath`), and LARS-IC's information criterion to pick lambda on it, as LEAR
 * does. The unit tests check it against cyclic coordinate descent (test/helpers/lasso-descent.ts).
 *
 * Objective (scikit-learn's convention, so lambda means the same as `alpha` there):
 *   (1 / 2n) * ||y - X b||^2 + lambda * sum_j |b_j|
 * X and y are expected centred (the intercept is handled by the caller).
 */

/** Sufficient statistics of a centred least-squares problem. */
export interface LassoProblem {
  /** Number of observations. */
  n: number;
  /** Number of features. */
  p: number;
  /** Gram matrix X'X, p x p, row-major. */
  gram: Float64Array;
  /** X'y, length p. */
  xty: Float64Array;
  /** y'y (of the centred y). */
  yty: number;
}

export interface LassoSolution {
  lambda: number;
  beta: Float64Array;
  /** Residual sum of squares ||y - X b||^2. */
  rss: number;
  /** Degrees of freedom of the lasso: the number of non-zero coefficients (Zou, Hastie & Tibshirani 2007). */
  df: number;
}

/**
 * Solves (L L') x = rhs by forward then back substitution, L the lower Cholesky factor of an m x m block held
 * row-major in `l` with rows `stride` apart, into `out` when given (the tests' coordinate descent solves with it too).
 */
export function choleskySubstitute(l: Float64Array, stride: number, m: number, rhs: Float64Array, out?: Float64Array): Float64Array {
  const x = out ?? new Float64Array(m);
  for (let i = 0; i < m; i++) x[i] = rhs[i];
  for (let i = 0; i < m; i++) {
    for (let k = 0; k < i; k++) x[i] -= l[i * stride + k] * x[k];
    x[i] /= l[i * stride + i];
  }
  // L' x = z by columns of L', which are L's rows: contiguous, where L's columns are a stride apart.
  for (let i = m - 1; i >= 0; i--) {
    const row = i * stride;
    const xi = (x[i] /= l[row + i]);
    for (let k = 0; k < i; k++) x[k] -= l[row + k] * xi;
  }
  return x;
}

/**
 * LARS-IC's criterion as used by LEAR (scikit-learn <= 1.1 `LassoLarsIC`; Zou, Hastie & Tibshirani 2007,
 * eq. 2.15-2.16): n * MSE / var(y) + K * df, with K = 2 (AIC) or log n (BIC). The noise variance is taken
 * as var(y), which keeps the choice defined when there are more features than observations.
 */
export function informationCriterion(solution: LassoSolution, problem: LassoProblem, kind: 'aic' | 'bic' = 'aic'): number {
  const k = kind === 'aic' ? 2 : Math.log(problem.n);
  return (problem.n * (solution.rss / problem.n)) / (problem.yty / problem.n + Number.EPSILON) + k * solution.df;
}

export interface LarsOptions {
  /** Stop at this lambda (the path's last point is the solution there). @default 0 */
  lambdaMin?: number;
  /** Stop once a knot's degrees of freedom exceed this. @default min(n - 1, p) */
  maxActive?: number;
  /**
   * Called at every knot; return false to stop the path (e.g. when no later knot can win a criterion). With `keep:
   * 'last'` the solution's beta is the path's working array, valid during the call only: copy it to keep it. It must
   * not walk another path (the work arrays are shared, see `scratch`).
   */
  onKnot?: (solution: LassoSolution) => boolean;
  /**
   * The knots returned: all of them, or only the last (a price forecast walks thousands of paths and wants one knot
   * of each: a copy of the coefficients per knot was a sixth of LARS's time). @default 'all'
   */
  keep?: 'all' | 'last';
}

/**
 * The path's work arrays, reused from call to call: a price forecast walks thousands of short paths, and allocating
 * them (a p x p factor among them) per path, and a solution vector per step, was a fifth of LARS's time. A path is
 * synchronous and walks no other (onKnot may not either), so one set serves every call; each worker thread loads
 * its own copy of the module.
 */
const scratch = {
  chol: new Float64Array(0),
  vectors: new Float64Array(0),
  flags: new Uint8Array(0),
};

function larsScratch(p: number) {
  if (scratch.chol.length < p * p) scratch.chol = new Float64Array(p * p);
  if (scratch.vectors.length < 5 * p) scratch.vectors = new Float64Array(5 * p);
  if (scratch.flags.length < 2 * p) scratch.flags = new Uint8Array(2 * p);
  const vector = (k: number) => scratch.vectors.subarray(k * p, (k + 1) * p);
  scratch.flags.fill(0, 0, 2 * p);
  const beta = vector(0).fill(0);
  return { chol: scratch.chol, beta, c: vector(1), a: vector(2), signs: vector(3), w: vector(4), isActive: scratch.flags.subarray(0, p), excluded: scratch.flags.subarray(p, 2 * p) };
}

/**
 * The exact lasso path by least angle regression with the lasso modification (Efron, Hastie, Johnstone &
 * Tibshirani 2004, Ann. Stat. 32(2), section 3.1), on the Gram matrix: the estimator of scikit-learn's
 * LassoLarsIC that LEAR uses. Each step moves the active coefficients along the equiangular direction until
 * an inactive feature's correlation ties (it joins) or an active coefficient reaches zero (it leaves). The
 * Cholesky factor of the active Gram block grows by one row per join and is downdated after a leave. Returns
 * the solutions at the knots, lambda decreasing, ending at `lambdaMin` when given.
 */
export function larsLassoPath(problem: LassoProblem, options: LarsOptions = {}): LassoSolution[] {
  const { n, p, gram, xty, yty } = problem;
  const lambdaMin = options.lambdaMin ?? 0;
  const maxActive = Math.min(options.maxActive ?? n - 1, p);
  // c = X'(y - X b); chol: the lower factor of the active block, stride p (every entry written before it is read);
  // excluded: features collinear with the active set.
  const { beta, c, a, signs, w: direction, isActive, excluded, chol } = larsScratch(p);
  c.set(xty);
  const active: number[] = [];
  const path: LassoSolution[] = [];
  let largestDiagonal = -Infinity;
  for (let j = 0; j < p; j++) largestDiagonal = Math.max(largestDiagonal, gram[j * p + j]);
  const diagonalFloor = 1e-10 * largestDiagonal;

  // Only active features have non-zero coefficients (a leaver's is set to 0).
  const rss = () => {
    let s = yty;
    for (const j of active) s -= beta[j] * (xty[j] + c[j]);
    return Math.max(s, 0);
  };
  const df = () => {
    let count = 0;
    for (const j of active) if (beta[j] !== 0) count++;
    return count;
  };
  const keepAll = options.keep !== 'last';
  let lastLambda = 0;
  const record = (lambda: number) => {
    lastLambda = lambda;
    if (!keepAll && !options.onKnot) return true;
    const solution = { lambda, beta: keepAll ? beta.slice() : beta, rss: rss(), df: df() };
    if (keepAll) path.push(solution);
    return options.onKnot ? options.onKnot(solution) : true;
  };
  const finish = () => (keepAll ? path : [{ lambda: lastLambda, beta: beta.slice(), rss: rss(), df: df() }]);
  /** Appends feature j to the factor; false when it is (numerically) a combination of the active ones. */
  const grow = (j: number): boolean => {
    const m = active.length;
    let d = gram[j * p + j];
    for (let a = 0; a < m; a++) {
      let s = gram[j * p + active[a]];
      for (let k = 0; k < a; k++) s -= chol[m * p + k] * chol[a * p + k];
      const value = s / chol[a * p + a];
      chol[m * p + a] = value;
      d -= value * value;
    }
    if (!(d > diagonalFloor)) return false;
    chol[m * p + m] = Math.sqrt(d);
    active.push(j);
    isActive[j] = 1;
    return true;
  };
  const rebuild = () => {
    const members = active.splice(0);
    for (const j of members) isActive[j] = 0;
    for (const j of members) if (!grow(j)) excluded[j] = 1;
  };
  /**
   * Drops the k-th active feature from the factor in O(m^2): its row is removed and the rows below, one entry too
   * long, are rotated back to triangular by Givens rotations (Golub & Van Loan, section 6.5.4); a rebuild where a
   * rotation meets a zero pivot.
   */
  const drop = (k: number) => {
    const m = active.length;
    isActive[active[k]] = 0;
    active.splice(k, 1);
    for (let i = k; i < m - 1; i++) for (let col = 0; col <= i + 1; col++) chol[i * p + col] = chol[(i + 1) * p + col];
    for (let i = k; i < m - 1; i++) {
      const x = chol[i * p + i];
      const y = chol[i * p + i + 1];
      const r = Math.hypot(x, y);
      if (!(r > 0)) return rebuild();
      const cos = x / r;
      const sin = y / r;
      for (let row = i; row < m - 1; row++) {
        const u = chol[row * p + i];
        const v = chol[row * p + i + 1];
        chol[row * p + i] = cos * u + sin * v;
        chol[row * p + i + 1] = cos * v - sin * u;
      }
    }
  };
  /** Solves (L L') x = rhs on the active block. */
  const solveActive = (rhs: Float64Array): Float64Array => choleskySubstitute(chol, p, active.length, rhs, direction);

  let C = 0;
  for (let j = 0; j < p; j++) C = Math.max(C, Math.abs(c[j]));
  if (!record(C / n) || C / n <= lambdaMin) return finish();
  // The first joiners: every feature at the maximum correlation.
  for (let j = 0; j < p; j++) if (Math.abs(c[j]) >= C * (1 - 1e-12) && !grow(j)) excluded[j] = 1;

  for (let iteration = 0; iteration < 8 * p && active.length; iteration++) {
    const m = active.length;
    for (let k = 0; k < m; k++) signs[k] = Math.sign(c[active[k]]) || 1;
    const w = solveActive(signs); // G_AA w = s_A, so a_j = s_j on the active set
    // a = G[:, A] w over the active rows of the symmetric Gram (contiguous), four rows per pass over a.
    a.fill(0);
    let q = 0;
    for (; q + 3 < m; q += 4) {
      const [r0, r1, r2, r3] = [active[q] * p, active[q + 1] * p, active[q + 2] * p, active[q + 3] * p];
      const [w0, w1, w2, w3] = [w[q], w[q + 1], w[q + 2], w[q + 3]];
      for (let j = 0; j < p; j++) a[j] += gram[r0 + j] * w0 + gram[r1 + j] * w1 + gram[r2 + j] * w2 + gram[r3 + j] * w3;
    }
    for (; q < m; q++) {
      const row = active[q] * p;
      const wq = w[q];
      for (let j = 0; j < p; j++) a[j] += gram[row + j] * wq;
    }
    // The step gamma lowers every active |c_j| from C to C - gamma.
    let gamma = C - n * lambdaMin;
    let joiner = -1;
    let leaver = -1;
    for (let j = 0; j < p; j++) {
      if (isActive[j] || excluded[j]) continue;
      const g1 = (C - c[j]) / (1 - a[j]);
      if (g1 > 1e-12 * C && g1 < gamma) {
        gamma = g1;
        joiner = j;
      }
      const g2 = (C + c[j]) / (1 + a[j]);
      if (g2 > 1e-12 * C && g2 < gamma) {
        gamma = g2;
        joiner = j;
      }
    }
    for (let k = 0; k < m; k++) {
      const j = active[k];
      const g = -beta[j] / w[k];
      if (g > 1e-12 * C && g < gamma) {
        gamma = g;
        leaver = k;
        joiner = -1;
      }
    }
    for (let k = 0; k < m; k++) beta[active[k]] += gamma * w[k];
    for (let j = 0; j < p; j++) c[j] -= gamma * a[j];
    C -= gamma;
    if (leaver >= 0) {
      beta[active[leaver]] = 0;
      drop(leaver);
    } else if (joiner >= 0 && !grow(joiner)) {
      excluded[joiner] = 1;
    }
    if (!record(Math.max(C / n, lambdaMin))) break;
    if (joiner < 0 && leaver < 0) break; // reached lambdaMin (or zero)
    if (active.length >= maxActive || C <= 0) break;
  }
  return finish();
}

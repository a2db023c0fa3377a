/**
 * The `ensemble` model's combination: stacking per horizon block (Wolpert 1992; Breiman 1996, "Stacked
 * regressions", with non-negative weights; here on the simplex, the forecast-combination form of Timmermann
 * 2006), shrunk toward the best member by leave-one-fold-out cross-validation over the rolling origins.
 *
 * For each block of leads (the first hours, the rest of the day, later days), the weights that minimise the
 * squared error of the members' fold forecasts over the simplex are computed, and so is the best single member.
 * The combination is w = lambda * stacked + (1 - lambda) * best, with lambda in LAMBDAS chosen by the error on
 * each fold when both are estimated on the other folds. Squared error is convex in w and the best member is a
 * point of the simplex, so on the validation folds the result is never worse than the best member (and, the
 * baselines being members, never worse than persistence or seasonal naive); the cross-validated shrinkage stops
 * a handful of folds from buying weights that do not hold (the inverse-MSE ensemble kept weak members: with
 * irradiance it lost to its own clear-sky member, 864 W against 756 W).
 *
 * The same cross-validation yields the combination's out-of-fold forecasts: each fold's forecast combined with
 * weights fitted without that fold. Those residuals, not the in-sample ones, calibrate the intervals.
 *
 * A kind may name an anchor (StackingOptions): the member the shrinkage pulls toward instead of the member best on
 * the folds, where the literature and every data set agree on the strongest member and a fortnight of folds is too
 * few to overturn it (prices: LEAR). The shrinkage can then be chosen by absolute error, the loss prices are scored by.
 */
import { combineForecasts, type Combination } from './ensemble';
import type { MemberValidation } from './validation';

export interface StackingResult {
  combination: Combination;
  /** Origins (latest first) the combination was validated on. */
  origins: number[];
  /** Per fold, the combined forecast with in-sample weights (validation metrics). */
  predictions: number[][];
  /** Per fold, the combined forecast with weights fitted without that fold (interval calibration). */
  outOfFold: number[][];
  actuals: number[][];
  /** The shrinkage toward the best member chosen per block (1 = pure stacking). */
  lambdas: number[];
}

/** Block boundaries in hours of lead: the first hours (persistence), the rest of the day, then by day. */
export const BLOCK_EDGES_HOURS = [1, 3, 6, 12, 24, 48, 96] as const;
/** A block holds at least this many (fold, lead) points, else it is merged with the next. */
export const MIN_BLOCK_POINTS = 48;
/** Shrinkage levels tried, from the best member alone (0) to the stacked weights (1). */
export const LAMBDAS = [0, 0.25, 0.5, 0.75, 1] as const;
/**
 * Fewest folds the stacking needs; with fewer (prices: 7), the best member over the whole horizon takes every
 * block. On prices' tune periods, 14 origins each, the engine against LEAR was 1.003 / 0.877 / 1.027 / 1.081
 * (Nord Pool and Belgium, with and without fundamentals) stacking 7 folds, 0.950 / 0.741 / 1.043 / 1.080 picking.
 */
const MIN_FOLDS = 8;
const GRADIENT_STEPS = 200;

export interface StackingOptions {
  /**
   * The member the shrinkage pulls toward (and the one taken with too few folds) instead of the best on the folds:
   * the first of these that takes part.
   */
  anchor?: readonly string[];
  /** The loss of the leave-one-fold-out choice of the shrinkage and of a block's own weights: squared by default. */
  loss?: 'squared' | 'absolute';
  /** false: one set of weights for the whole horizon, no blocks by lead (a day-ahead auction clears every hour at once). */
  byLead?: boolean;
  /**
   * Trimming (Timmermann 2006, section 7.2; Granger & Jeon 2004): members whose mean absolute error on the folds is
   * more than this many times the best member's take no part (the anchor always does). Their errors are large and
   * correlated with the others', and the stacking buys cancellations among them that do not hold.
   */
  trim?: number;
  /**
   * The one-standard-error rule (Hastie, Tibshirani & Friedman 2009, section 7.10) for the shrinkage: the smallest
   * lambda whose leave-one-fold-out error is within one standard error of the best lambda's (the standard error of
   * the fold-by-fold difference between lambda 0 and the best), so the folds must show a gain beyond their own noise
   * before the weights leave the anchor.
   */
  oneStandardError?: boolean;
  /**
   * Errors relative to the actual (percentage errors) in every choice: the weights, the shrinkage and the trimming.
   * For a series judged by its MAPE (load): in kilowatts, the peak hours' errors outweigh the night's in the fit.
   */
  relative?: boolean;
}

/** Lead blocks [from, to) over a horizon, each with at least `minPoints` points over `folds` folds. */
export function leadBlocks(horizonSteps: number, stepMinutes: number, folds: number, minPoints = MIN_BLOCK_POINTS): [number, number][] {
  const edges = BLOCK_EDGES_HOURS.map((h) => Math.round((h * 60) / stepMinutes)).filter((e) => e > 0 && e < horizonSteps);
  const blocks: [number, number][] = [];
  let from = 0;
  for (const edge of [...edges, horizonSteps]) {
    if (edge <= from) continue;
    if ((edge - from) * folds < minPoints && edge < horizonSteps) continue;
    blocks.push([from, edge]);
    from = edge;
  }
  // A short tail joins the block before it.
  if (blocks.length > 1) {
    const [a, b] = blocks[blocks.length - 1];
    if ((b - a) * folds < minPoints) {
      blocks.pop();
      blocks[blocks.length - 1][1] = b;
    }
  }
  return blocks;
}

/** Euclidean projection onto the probability simplex (Duchi, Shalev-Shwartz, Singer & Chandra 2008). */
export function projectToSimplex(v: readonly number[]): number[] {
  const out = new Array<number>(v.length);
  projectInto(Float64Array.from(v), new Float64Array(v.length), out);
  return out;
}

/** projectToSimplex into `out`, with `sorted` as scratch space: the stacking projects thousands of times a forecast. */
function projectInto(v: Float64Array, sorted: Float64Array, out: number[] | Float64Array): void {
  sorted.set(v);
  sorted.sort();
  let cumulative = 0;
  let theta = 0;
  // Largest first, as the algorithm reads them.
  for (let i = 0, r = sorted.length - 1; r >= 0; i++, r--) {
    cumulative += sorted[r];
    const t = (cumulative - 1) / (i + 1);
    if (sorted[r] - t > 0) theta = t;
  }
  for (let i = 0; i < v.length; i++) out[i] = Math.max(0, v[i] - theta);
}

/** Largest eigenvalue of a symmetric positive semi-definite matrix, by power iteration. */
function largestEigenvalue(gram: readonly (readonly number[])[]): number {
  const k = gram.length;
  let v = new Float64Array(k).fill(1 / Math.sqrt(k));
  let w = new Float64Array(k);
  let lambda = 0;
  for (let step = 0; step < 50; step++) {
    for (let i = 0; i < k; i++) {
      let s = 0;
      for (let j = 0; j < k; j++) s += gram[i][j] * v[j];
      w[i] = s;
    }
    const norm = Math.hypot(...w);
    if (!(norm > 0)) return 0;
    for (let i = 0; i < k; i++) w[i] /= norm;
    [v, w] = [w, v];
    if (Math.abs(norm - lambda) <= 1e-9 * norm) return norm;
    lambda = norm;
  }
  return lambda;
}

/**
 * argmin over the simplex of w'Gw - 2b'w (the squared error with G = X'X, b = X'a) by accelerated projected
 * gradient descent (FISTA, Beck & Teboulle 2009) with step 1/L, L the largest eigenvalue of G.
 */
export function simplexLeastSquares(gram: readonly (readonly number[])[], b: readonly number[]): number[] {
  const k = b.length;
  const lipschitz = largestEigenvalue(gram) * 1.01;
  if (!(lipschitz > 0)) return new Array<number>(k).fill(1 / k);
  // Typed scratch arrays, swapped rather than reallocated: the same iterates as allocating ones, several times faster.
  let w = new Float64Array(k).fill(1 / k);
  let projected = new Float64Array(k);
  const y = Float64Array.from(w);
  const next = new Float64Array(k);
  const sorted = new Float64Array(k);
  let t = 1;
  for (let step = 0; step < GRADIENT_STEPS; step++) {
    for (let i = 0; i < k; i++) {
      let g = -b[i];
      for (let j = 0; j < k; j++) g += gram[i][j] * y[j];
      next[i] = y[i] - g / lipschitz;
    }
    projectInto(next, sorted, projected);
    const tNext = (1 + Math.sqrt(1 + 4 * t * t)) / 2;
    let moved = 0;
    for (let i = 0; i < k; i++) moved = Math.max(moved, Math.abs(projected[i] - w[i]));
    for (let i = 0; i < k; i++) y[i] = projected[i] + ((t - 1) / tNext) * (projected[i] - w[i]);
    [w, projected] = [projected, w];
    t = tNext;
    if (moved < 1e-6) break;
  }
  return Array.from(w);
}

/** Normal equations of a set of points: X'X, X'a, a'a and each member's squared error. */
interface Normal {
  gram: number[][];
  b: number[];
  aa: number;
  memberSse: number[];
}

/** Squared error of weights w from the normal equations: w'Gw - 2b'w + a'a. */
const sse = (n: Normal, w: readonly number[]) => {
  let total = n.aa;
  for (let i = 0; i < w.length; i++) {
    total -= 2 * n.b[i] * w[i];
    for (let j = 0; j < w.length; j++) total += w[i] * n.gram[i][j] * w[j];
  }
  return total;
};

function normalEquations(points: readonly number[][], k: number): Normal {
  const gram = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const b = new Array<number>(k).fill(0);
  const memberSse = new Array<number>(k).fill(0);
  let aa = 0;
  for (const p of points) {
    aa += p[k] * p[k];
    for (let i = 0; i < k; i++) {
      b[i] += p[i] * p[k];
      memberSse[i] += (p[k] - p[i]) ** 2;
      for (let j = 0; j < k; j++) gram[i][j] += p[i] * p[j];
    }
  }
  return { gram, b, aa, memberSse };
}

/** total - part, element by element (the normal equations without one fold). */
const without = (total: Normal, part: Normal): Normal => ({
  gram: total.gram.map((row, i) => row.map((x, j) => x - part.gram[i][j])),
  b: total.b.map((x, i) => x - part.b[i]),
  aa: total.aa - part.aa,
  memberSse: total.memberSse.map((x, i) => x - part.memberSse[i]),
});

const negated = (n: Normal): Normal => ({ gram: n.gram.map((r) => r.map((x) => -x)), b: n.b.map((x) => -x), aa: -n.aa, memberSse: n.memberSse.map((x) => -x) });
const sum = (parts: readonly Normal[], k: number): Normal => parts.reduce((t, p) => without(t, negated(p)), normalEquations([], k));

const unit = (k: number, i: number) => Array.from({ length: k }, (_, j) => (j === i ? 1 : 0));
const argmin = (xs: readonly number[]) => xs.reduce((best, x, i) => (x < xs[best] ? i : best), 0);
const mix = (lambda: number, stacked: readonly number[], best: readonly number[]) => stacked.map((s, i) => lambda * s + (1 - lambda) * best[i]);

/** Stacked and best-member weights from normal equations. */
function fitBlock(normal: Normal, k: number, anchor: number): { stacked: number[]; best: number[] } {
  return { stacked: simplexLeastSquares(normal.gram, normal.b), best: unit(k, anchor >= 0 ? anchor : argmin(normal.memberSse)) };
}

/** A fold's points in a block, each the members' forecasts then the actual, with their normal equations. */
interface FoldPoints {
  normal: Normal;
  points: number[][];
}

/** Sum of absolute errors of weights w over points. */
function sae(points: readonly number[][], w: readonly number[]): number {
  let total = 0;
  for (const p of points) {
    let forecast = 0;
    for (let i = 0; i < w.length; i++) forecast += w[i] * p[i];
    total += Math.abs(p[w.length] - forecast);
  }
  return total;
}

/** The error of weights w over folds, in the chosen loss. */
const errorOf = (folds: readonly FoldPoints[], w: readonly number[], loss: StackingOptions['loss']) =>
  folds.reduce((s, f) => s + (loss === 'absolute' ? sae(f.points, w) : sse(f.normal, w)), 0);

/**
 * The members that take part: those holding every origin of the largest common set of at least MIN_FOLDS folds
 * (a member that skipped folds for want of history cannot be compared on them).
 */
function commonMembers(validations: readonly MemberValidation[]): { members: MemberValidation[]; origins: number[] } {
  let members = validations.filter((v) => v.origins.length > 0);
  for (;;) {
    const origins = members.length ? members[0].origins.filter((o) => members.every((v) => v.origins.includes(o))) : [];
    const fewest = members.reduce<MemberValidation | undefined>((low, v) => (!low || v.origins.length < low.origins.length ? v : low), undefined);
    if (origins.length >= Math.min(MIN_FOLDS, Math.max(...members.map((v) => v.origins.length))) || members.length <= 1 || !fewest) return { members, origins };
    members = members.filter((v) => v !== fewest);
  }
}

/** Each member's mean absolute (or absolute percentage) error over the given origins (every lead where the forecast and actual are known). */
function meanAbsoluteErrors(members: readonly MemberValidation[], origins: readonly number[], relative = false): number[] {
  return members.map((v) => {
    let total = 0;
    let count = 0;
    for (const o of origins) {
      const f = v.origins.indexOf(o);
      v.predictions[f].forEach((p, j) => {
        const a = v.actuals[f][j];
        const scale = relative ? Math.abs(a) : 1;
        if (Number.isFinite(p) && Number.isFinite(a) && scale > 0) {
          total += Math.abs(a - p) / scale;
          count++;
        }
      });
    }
    return count ? total / count : Infinity;
  });
}

/** The anchor among the members: the first of the names that takes part. */
const anchorIn = (members: readonly MemberValidation[], anchor: readonly string[] | undefined) => anchor?.find((name) => members.some((v) => v.member === name));

/** The members within `trim` times the best one's mean absolute error, and the anchor. */
function trimmed(members: MemberValidation[], origins: readonly number[], { trim: ratio, anchor, relative }: StackingOptions): MemberValidation[] {
  if (ratio === undefined || members.length <= 1) return members;
  const errors = meanAbsoluteErrors(members, origins, relative);
  const best = Math.min(...errors);
  if (!Number.isFinite(best)) return members;
  const anchorName = anchorIn(members, anchor);
  return members.filter((v, i) => errors[i] <= ratio * best || v.member === anchorName);
}

/**
 * The combination of validated members; see the module comment. Members with no validation folds get weight 0
 * (unless none has any, when the first member takes all).
 */
export function stackMembers(validations: readonly MemberValidation[], horizonSteps: number, stepMinutes: number, options: StackingOptions = {}): StackingResult {
  const common = commonMembers(validations);
  const { origins } = common;
  const members = trimmed(common.members, origins, options);
  const names = validations.map((v) => v.member);
  const zero = () => Object.fromEntries(names.map((n) => [n, 0]));
  const k = members.length;
  if (k === 0) {
    const only = zero();
    if (names.length) only[names[0]] = 1;
    return { combination: [{ fromLead: 0, toLead: horizonSteps, weights: only }], origins: [], predictions: [], outOfFold: [], actuals: [], lambdas: [0] };
  }
  const anchorName = anchorIn(members, options.anchor);
  const anchor = anchorName === undefined ? -1 : members.findIndex((v) => v.member === anchorName);
  const actuals = origins.map((o) => members[0].actuals[members[0].origins.indexOf(o)]);
  const byFold = origins.map((o) => Object.fromEntries(members.map((v) => [v.member, v.predictions[v.origins.indexOf(o)]])));
  const blocks: [number, number][] = options.byLead === false ? [[0, horizonSteps]] : leadBlocks(horizonSteps, stepMinutes, Math.max(1, origins.length));
  // Per block, per fold: the points where the actual and every member are known, and their normal equations.
  const folds: FoldPoints[][] = blocks.map(([from, to]) =>
    byFold.map((forecasts, f) => {
      const points: number[][] = [];
      for (let j = from; j < to; j++) {
        const row = members.map((v) => forecasts[v.member][j]);
        const scale = options.relative ? Math.abs(actuals[f][j]) : 1;
        if (Number.isFinite(actuals[f][j]) && scale > 0 && row.every(Number.isFinite)) points.push([...row, actuals[f][j]].map((x) => x / scale));
      }
      return { normal: normalEquations(points, k), points };
    }),
  );
  const horizon = origins.map((_, f) => ({ normal: sum(folds.map((block) => block[f].normal), k), points: folds.flatMap((block) => block[f].points) }));
  const pooled = choose(horizon, k, anchor, options);
  const chosen = folds.map((perFold) => {
    // With few folds, one member for the whole horizon: per-block choices on 3 days are noise.
    if (origins.length < MIN_FOLDS || options.byLead === false) return pooled;
    const own = choose(perFold, k, anchor, options);
    // The horizon's choice unless the block's own is better on the block: where members tie (solar nights,
    // all 0) the block says nothing of its own.
    const ownError = errorOf(perFold, own.weights, options.loss);
    const pooledError = errorOf(perFold, pooled.weights, options.loss);
    return ownError < pooledError - 1e-9 * (1 + Math.abs(pooledError)) ? own : pooled;
  });
  const named = (w: readonly number[]) => ({ ...zero(), ...Object.fromEntries(members.map((v, i) => [v.member, w[i]])) });
  const combination: Combination = blocks.map(([from, to], b) => ({ fromLead: from, toLead: to, weights: named(chosen[b].weights) }));
  const predictions = byFold.map((forecasts) => combineForecasts(forecasts, combination, horizonSteps));
  const outOfFold = byFold.map((forecasts, f) => combineForecasts(forecasts, blocks.map(([from, to], b) => ({ fromLead: from, toLead: to, weights: named(chosen[b].heldOut[f]) })), horizonSteps));
  return { combination, origins, predictions, outOfFold, actuals, lambdas: chosen.map((c) => c.lambda) };
}

/** The first lambda (index) whose mean fold error is within one standard error of the best's (StackingOptions). */
function withinOneStandardError(foldErrors: readonly (readonly number[])[], best: number): number {
  const folds = foldErrors[best].length;
  const excess = (i: number) => foldErrors[i].map((e, f) => e - foldErrors[best][f]);
  const meanOf = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / folds;
  const first = excess(0);
  const mean = meanOf(first);
  const standardError = Math.sqrt(first.reduce((s, d) => s + (d - mean) ** 2, 0) / Math.max(1, folds - 1) / folds);
  return foldErrors.findIndex((_, i) => meanOf(excess(i)) <= standardError);
}

/**
 * The shrinkage by leave-one-fold-out error, the weights on all folds, and each fold's weights without it; toward
 * the anchor (index, or -1 for the member best on the folds).
 */
function choose(perFold: readonly FoldPoints[], k: number, anchor: number, options: StackingOptions): { weights: number[]; heldOut: number[][]; lambda: number } {
  const total = sum(perFold.map((f) => f.normal), k);
  const all = fitBlock(total, k, anchor);
  const fits = perFold.map((fold) => fitBlock(without(total, fold.normal), k, anchor));
  // Each fold's calibration forecast is the member picked without it: the pick made on a fold scores it too kindly
  // (prices, 7 folds: 90% coverage 0.82 -> 0.83 and 0.87 -> 0.89 on Nord Pool 2013-16, lower on no set).
  if (perFold.length < MIN_FOLDS) return { weights: all.best, heldOut: fits.map((fit) => fit.best), lambda: 0 };
  const foldErrors = LAMBDAS.map((l) => perFold.map((fold, f) => errorOf([fold], mix(l, fits[f].stacked, fits[f].best), options.loss)));
  const cvError = foldErrors.map((errors) => errors.reduce((a, b) => a + b, 0));
  // Ties go to the smaller lambda: no more weights than the folds pay for.
  const best = argmin(cvError);
  const lambda = LAMBDAS[options.oneStandardError ? withinOneStandardError(foldErrors, best) : best];
  return { weights: mix(lambda, all.stacked, all.best), heldOut: fits.map((fit) => mix(lambda, fit.stacked, fit.best)), lambda };
}

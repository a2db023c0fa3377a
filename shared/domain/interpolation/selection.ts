/**
 * How `adaptive` chooses among fill methods from known runs hidden in the series (each a Trial: the truth and
 * every method's fill): one method, the inverse-MSE weighted mean of the best few (Bates & Granger 1969), or a
 * weighted pair; and the gate that keeps linear unless the choice beats it on runs it did not see, a paired
 * one-sided test on cross-validated errors (the choice made on four fifths of the runs is scored on the rest).
 */
const known = (v: number) => Number.isFinite(v);

/** `adaptive` combines the candidates with the lowest validation errors, this many at most. */
export const COMBINED_CANDIDATES = 3;
/** Weights of the first method of each pair of candidates that `adaptive` tries. */
export const PAIR_WEIGHTS = [0.25, 0.5, 0.75];
/** A combination replaces the best single method only when its validation MSE is at least this share lower. */
export const COMBINATION_MIN_GAIN = 0.01;
/** A validation MSE below this share of the series' squared spread counts as exact. */
const EXACT_MSE_SHARE = 1e-12;
/**
 * Standard errors by which the cross-validated gain over linear must be positive for `adaptive` to leave linear:
 * one-sided 2.5%. The gate runs once per gap length and request, so at 5% one series in twenty where no method
 * beats linear would leave it by luck (SERF East keeps its gains: z 2.1 at 1 h, 3.2 at 3 h, 5.6 at 6 h).
 */
export const GATE_Z = 1.96;
/** Folds of the gate's cross-validation: a choice made on 4/5 of the runs is nearly the one made on all (SERF East's z at 3 h: 2.2 with 2 folds, 3.2 with 5). */
export const GATE_FOLDS = 5;
/** Fewest hidden runs on which the gate can judge; with fewer, `adaptive` keeps linear. */
const GATE_MIN_RUNS = 10;

/** What `adaptive` fills a gap length with: one method (weight 1) or the weighted mean of several. */
export interface Choice<M extends string> {
  method: M | 'combination';
  methods: M[];
  weights: number[];
  rmse: number;
}

/** The weighted mean of the fills that exist (weights renormalised over them); null when none does. */
export function combine(fills: readonly (number[] | null)[], weights: readonly number[]): number[] | null {
  let total = 0;
  let out: number[] | null = null;
  fills.forEach((fill, j) => {
    if (!fill || !(weights[j] > 0)) return;
    out ??= fill.map(() => 0);
    fill.forEach((v, k) => (out![k] += weights[j] * v));
    total += weights[j];
  });
  return out && total > 0 ? (out as number[]).map((v) => v / total) : null;
}

export interface Trial {
  truth: number[];
  fills: (number[] | null)[];
  /** gram[j][l] = sum over the run of (fill_j - truth)(fill_l - truth): any weighted mean's squared error from it. */
  gram: number[][];
}

export function trialOf(truth: number[], fills: (number[] | null)[]): Trial {
  const gram = fills.map((fj) =>
    fills.map((fl) => {
      if (!fj || !fl) return NaN;
      let s = 0;
      for (let k = 0; k < truth.length; k++) s += (fj[k] - truth[k]) * (fl[k] - truth[k]);
      return s;
    }),
  );
  return { truth, fills, gram };
}

/**
 * Squared error of the weighted mean of the fills (weights renormalised over the fills that exist, as `combine`
 * does) in each trial, NaN where none of the weighted methods fills it: w'Gw / (sum w)^2, so the selection's
 * thousands of candidate weightings cost no pass over the runs.
 */
function trialErrors(trials: readonly Trial[], weights: readonly number[]): number[] {
  const active = weights.map((w, j) => (w > 0 ? j : -1)).filter((j) => j >= 0);
  return trials.map(({ fills, gram }) => {
    let total = 0;
    let se = 0;
    for (const j of active) {
      if (!fills[j]) continue;
      total += weights[j];
      for (const l of active) if (fills[l]) se += weights[j] * weights[l] * gram[j][l];
    }
    return total > 0 ? se / total ** 2 : NaN;
  });
}

export function mseOf(trials: readonly Trial[], weights: readonly number[]): number {
  const errors = trialErrors(trials, weights);
  let se = 0;
  let n = 0;
  errors.forEach((e, r) => {
    if (!known(e)) return;
    se += e;
    n += trials[r].truth.length;
  });
  return n ? se / n : Infinity;
}

/**
 * The lowest validation MSE over one method, the inverse-MSE weighted mean of the best COMBINED_CANDIDATES
 * (Bates & Granger 1969), and every pair at PAIR_WEIGHTS (two methods that err differently, such as analogues
 * and irradiance, beat three that err alike).
 */
export function selectOn<M extends string>(trials: readonly Trial[], methods: readonly M[], spread: number): Choice<M> {
  const single = methods.map((_, k) => mseOf(trials, methods.map((__, j) => (j === k ? 1 : 0))));
  const k = single.indexOf(Math.min(...single));
  let best: Choice<M> = { method: methods[k], weights: methods.map((_, j) => (j === k ? 1 : 0)), methods: [...methods], rmse: Number.isFinite(single[k]) ? Math.sqrt(single[k]) : NaN };
  // An exact single method (a periodic series' profile) leaves a combination only rounding error to gain.
  if (methods.length < 2 || single[k] <= EXACT_MSE_SHARE * spread ** 2) return best;
  const cut = [...single].sort((p, q) => p - q)[Math.min(COMBINED_CANDIDATES, single.length) - 1];
  const options = [single.map((mse) => (Number.isFinite(mse) && mse > 0 && mse <= cut ? 1 / mse : 0))];
  for (let p = 0; p < methods.length; p++) {
    for (let q = p + 1; q < methods.length; q++) {
      if (!Number.isFinite(single[p]) || !Number.isFinite(single[q])) continue;
      for (const w of PAIR_WEIGHTS) options.push(methods.map((_, j) => (j === p ? w : j === q ? 1 - w : 0)));
    }
  }
  for (const weights of options) {
    const mse = weights.some((w) => w > 0) ? mseOf(trials, weights) : Infinity;
    if (mse < (1 - COMBINATION_MIN_GAIN) * best.rmse ** 2 || (!Number.isFinite(best.rmse) && Number.isFinite(mse))) best = { method: 'combination', weights, methods: [...methods], rmse: Math.sqrt(mse) };
  }
  return best;
}

/**
 * The gate of `adaptive`: whether choosing among the methods beats linear on hidden runs that the choice did not
 * see. The runs are split in GATE_FOLDS; the choice made on the others is scored on each fold, and the per-run
 * differences of squared error from linear must be positive by GATE_Z standard errors (a paired one-sided
 * test), so a method that won the validation by luck, or by fitting the same runs it is scored on, gives way to
 * linear. The choice must also win on more runs than it loses, by GATE_Z (a sign test): the differences are
 * heavy-tailed, one cloud edge can carry a mean over 60 runs, and the mean's test alone then passes more often
 * than its level says (PVOD station01 at 1 h: 8 requests in 100 left linear and lost on the gaps they filled;
 * with the sign test, 1 does). SERF East's 1 h gain, won on 25 runs of 60, gives way to linear too.
 */
export function beatsLinear<M extends string>(trials: readonly Trial[], methods: readonly M[], spread: number): boolean {
  const linear = methods.map((m) => (m === 'linear' ? 1 : 0));
  const gains: number[] = [];
  for (let fold = 0; fold < GATE_FOLDS; fold++) {
    const fit = trials.filter((_, r) => r % GATE_FOLDS !== fold);
    const held = trials.filter((_, r) => r % GATE_FOLDS === fold);
    if (!fit.length || !held.length) continue;
    const chosen = selectOn(fit, methods, spread).weights;
    const ofChosen = trialErrors(held, chosen);
    const ofLinear = trialErrors(held, linear);
    held.forEach((_, r) => {
      if (known(ofChosen[r]) && known(ofLinear[r])) gains.push(ofLinear[r] - ofChosen[r]);
    });
  }
  if (gains.length < GATE_MIN_RUNS) return false;
  const mean = gains.reduce((s, g) => s + g, 0) / gains.length;
  const sd = Math.sqrt(gains.reduce((s, g) => s + (g - mean) ** 2, 0) / (gains.length - 1));
  const wins = gains.filter((g) => g > 0).length;
  const losses = gains.filter((g) => g < 0).length;
  return mean > GATE_Z * (sd / Math.sqrt(gains.length)) && wins - losses > GATE_Z * Math.sqrt(wins + losses);
}

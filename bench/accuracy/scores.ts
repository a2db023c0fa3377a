/**
 * Scores of one data set's rolling-origin runs, by the metric each kind is judged on:
 * - load: MAPE; prices: MAE and rMAE = MAE / MAE of the epftoolbox naive (Lago, Marcjasz, De Schutter & Weron 2021);
 * - solar: skill = 1 - RMSE / RMSE of 24 h persistence, over all steps and over daylight;
 * - wind: skill = 1 - RMSE / RMSE of persistence of the last value, per lead hour 1..6 and overall.
 * Ratios are paired (the same steps for both models) with bootstrap 95% intervals over origins; the engine's
 * 90% intervals get coverage and mean width overall and per regime (solar: season and third of the daylight
 * of each day; load and wind: tercile of the forecast level, known when the forecast is issued).
 */
import { calendarFeatures } from '../../shared/domain/forecasting/calendar';
import { ENSEMBLE } from '../../shared/domain/forecasting/engine';
import { solarPosition } from '../../shared/domain/weather/solar-position';
import { pairedRatio, type BootstrapOptions, type Estimate, type PairedSums } from './bootstrap';
import type { AccuracyKind, AccuracySet } from './datasets';
import type { SetRun } from './evaluate';
import { roundHalfUp } from '../../shared/domain/rounding';

/** The model each kind's skill or relative error is measured against. */
export const REFERENCE: Record<AccuracyKind, string> = { load: 'seasonal_naive', price: 'epftoolbox_naive', solar: 'seasonal_naive', wind: 'persistence' };
/** The simple peers per kind; each is an engine member, scored through the member's own code. */
export const SIMPLE_PEERS: Record<AccuracyKind, readonly string[]> = {
  load: ['seasonal_naive', 'persistence', 'mean_profile_7d'],
  price: ['epftoolbox_naive', 'seasonal_naive', 'persistence', 'mean_profile_7d'],
  solar: ['seasonal_naive', 'persistence', 'mean_profile_7d', 'clear_sky_index_persistence'],
  wind: ['persistence', 'nielsen_blend', 'seasonal_naive', 'mean_profile_7d'],
};
/** Peers that are not simple but that a target names: LEAR for prices. */
export const NAMED_PEERS: Partial<Record<AccuracyKind, readonly string[]>> = { price: ['price_lear'] };

type Loss = (actual: number, forecast: number) => number;
/** Absolute percentage error as a share (NaN at a zero actual, so that step is not scored). */
export const absolutePercentageError: Loss = (a, f) => (a !== 0 ? Math.abs((a - f) / a) : NaN);
const LOSS: Record<AccuracyKind, { loss: Loss; root: boolean; label: string }> = {
  load: { loss: absolutePercentageError, root: false, label: 'MAPE %' },
  price: { loss: (a, f) => Math.abs(a - f), root: false, label: 'MAE' },
  solar: { loss: (a, f) => (a - f) ** 2, root: true, label: 'RMSE' },
  wind: { loss: (a, f) => (a - f) ** 2, root: true, label: 'RMSE' },
};

/** Steps to score, by origin and lead. */
type Mask = (origin: number, lead: number) => boolean;
const everyStep: Mask = () => true;

/** Per-origin loss sums of two forecasts over the steps both have (an origin either failed is left out). */
export function pairSums(
  actuals: readonly (readonly number[])[],
  a: readonly (readonly number[] | null)[],
  b: readonly (readonly number[] | null)[],
  loss: Loss,
  mask: Mask = everyStep,
): PairedSums & { steps: number } {
  const out = { a: [] as number[], b: [] as number[], steps: 0 };
  actuals.forEach((actual, o) => {
    const fa = a[o];
    const fb = b[o];
    if (!fa || !fb) return;
    let sa = 0;
    let sb = 0;
    actual.forEach((y, j) => {
      if (!mask(o, j)) return;
      const la = loss(y, fa[j]);
      const lb = loss(y, fb[j]);
      if (!Number.isFinite(la) || !Number.isFinite(lb)) return;
      sa += la;
      sb += lb;
      out.steps++;
    });
    out.a.push(sa);
    out.b.push(sb);
  });
  return out;
}

/** A model's mean loss over its own scored steps (root for RMSE). */
function meanLoss(actuals: readonly number[][], forecasts: readonly (number[] | null)[], loss: Loss, root: boolean, mask: Mask = everyStep): number {
  let sum = 0;
  let count = 0;
  actuals.forEach((actual, o) => {
    const f = forecasts[o];
    if (!f) return;
    actual.forEach((y, j) => {
      const l = mask(o, j) ? loss(y, f[j]) : NaN;
      if (Number.isFinite(l)) {
        sum += l;
        count++;
      }
    });
  });
  const mean = count ? sum / count : NaN;
  return root ? Math.sqrt(mean) : mean;
}

export interface IntervalCoverage {
  coverage: number;
  width: number;
  steps: number;
}

export interface ModelScore {
  /** The kind's metric over the model's own steps (MAPE in %, MAE, RMSE). */
  value: number;
  /** Solar: RMSE over daylight steps. */
  daylight?: number;
  /** Ratio to the kind's reference on the same steps (solar, wind: skill = 1 - ratio), with its 95% interval. */
  vsReference?: Estimate;
  /** Solar: the same over daylight. */
  vsReferenceDaylight?: Estimate;
  /** Wind: skill per lead hour 1..6. */
  skillByLeadHour?: Estimate[];
  originsScored: number;
  msPerOrigin: number;
  error?: string;
}

export interface SetScore {
  name: string;
  kind: AccuracyKind;
  role: string;
  variant: string;
  source: string;
  origins: number;
  firstOrigin: string;
  lastOrigin: string;
  horizonSteps: number;
  historyDays: number;
  metric: string;
  reference: string;
  models: Record<string, ModelScore>;
  /** The best member alone (by the kind's metric), excluding the engine. */
  bestMember: string | null;
  /** Engine / peer ratios of the kind's metric (paired, 95% interval), peers and the best member. */
  engineVs: Record<string, Estimate>;
  /** Names of the peers and named peers not registered in the engine. */
  missingPeers: string[];
  /** Mean weight of each member in the engine's choice. */
  engineWeights: Record<string, number>;
  intervals: IntervalCoverage & { regimes: Record<string, IntervalCoverage> };
}

const roundEstimate = (e: Estimate, digits = 4): Estimate => ({ estimate: roundHalfUp(e.estimate, digits, NaN), lo: roundHalfUp(e.lo, digits, NaN), hi: roundHalfUp(e.hi, digits, NaN) });
const skill = (ratio: Estimate): Estimate => ({ estimate: 1 - ratio.estimate, lo: 1 - ratio.hi, hi: 1 - ratio.lo });
const SEASONS = ['DJF', 'DJF', 'MAM', 'MAM', 'MAM', 'JJA', 'JJA', 'JJA', 'SON', 'SON', 'SON', 'DJF'];

/** Coverage and mean width of the engine's intervals over the masked steps with an actual. */
function coverage(run: SetRun, mask: Mask): IntervalCoverage {
  let inside = 0;
  let width = 0;
  let steps = 0;
  run.actuals.forEach((actual, o) => {
    const lo = run.lower[o];
    const hi = run.upper[o];
    if (!lo || !hi) return;
    actual.forEach((y, j) => {
      if (!mask(o, j) || !Number.isFinite(y) || !Number.isFinite(lo[j]) || !Number.isFinite(hi[j])) return;
      steps++;
      width += hi[j] - lo[j];
      if (y >= lo[j] - 1e-9 && y <= hi[j] + 1e-9) inside++;
    });
  });
  return { coverage: roundHalfUp(steps ? inside / steps : NaN, 4, NaN), width: roundHalfUp(steps ? width / steps : NaN, 4, NaN), steps };
}

/** Solar: daylight (sun above the horizon at the middle of the step) per origin and lead. */
function daylightMask(set: AccuracySet, run: SetRun): boolean[][] {
  const { latitude, longitude } = set.context;
  const half = (set.series.stepMinutes * 60_000) / 2;
  return run.times.map((times) => times.map((t) => (latitude === undefined || longitude === undefined ? true : solarPosition(new Date(t + half), latitude, longitude).elevationDeg > 0)));
}

/** Regimes of the engine's intervals: solar by season and third of each day's daylight, load and wind by forecast-level tercile. */
function regimes(set: AccuracySet, run: SetRun, daylight: boolean[][] | undefined): Record<string, IntervalCoverage> {
  const out: Record<string, IntervalCoverage> = {};
  if (set.kind === 'solar' && daylight) {
    const season = run.times.map((times) => calendarFeatures(times, set.context.timezone ?? 'UTC').localDay.map((d) => SEASONS[new Date(d * 86_400_000).getUTCMonth()]));
    for (const name of ['DJF', 'MAM', 'JJA', 'SON']) {
      const c = coverage(run, (o, j) => daylight[o][j] && season[o][j] === name);
      if (c.steps) out[name] = c;
    }
    const third = daylight.map((day) => {
      const lit = day.flatMap((d, j) => (d ? [j] : []));
      const byLead = new Array<number>(day.length).fill(-1);
      lit.forEach((j, rank) => (byLead[j] = Math.floor((3 * rank) / lit.length)));
      return byLead;
    });
    ['morning third', 'midday third', 'afternoon third'].forEach((name, k) => (out[name] = coverage(run, (o, j) => third[o][j] === k)));
  } else if (set.kind === 'load' || set.kind === 'wind') {
    const levels = run.forecasts[ENSEMBLE].flatMap((f) => f ?? []).filter(Number.isFinite).sort((a, b) => a - b);
    const cut = [levels[Math.floor(levels.length / 3)], levels[Math.floor((2 * levels.length) / 3)]];
    const tercile = (v: number) => (v < cut[0] ? 0 : v < cut[1] ? 1 : 2);
    ['low level', 'middle level', 'high level'].forEach((name, k) => (out[name] = coverage(run, (o, j) => tercile(run.forecasts[ENSEMBLE][o]?.[j] ?? NaN) === k)));
  }
  return out;
}

/** Every score of a set; `extraPeers` are forecasts made outside the engine (the R peers), per origin. */
export function scoreSet(set: AccuracySet, run: SetRun, extraPeers: Record<string, (number[] | null)[]> = {}, bootstrapOptions: BootstrapOptions = {}): SetScore {
  const { loss, root, label } = LOSS[set.kind];
  const reference = REFERENCE[set.kind];
  const forecasts = { ...run.forecasts, ...extraPeers };
  const daylight = set.kind === 'solar' ? daylightMask(set, run) : undefined;
  const isDaylight: Mask = (o, j) => daylight?.[o][j] ?? true;
  const stepHours = set.series.stepMinutes / 60;
  const leadHour = (j: number) => Math.floor(j * stepHours) + 1;
  const ratio = (a: string, b: string, mask: Mask = everyStep) => roundEstimate(pairedRatio(pairSums(run.actuals, forecasts[a], forecasts[b], loss, mask), { ...bootstrapOptions, root }));
  const scale = set.kind === 'load' ? 100 : 1;
  const models: Record<string, ModelScore> = {};
  for (const [model, f] of Object.entries(forecasts)) {
    const scored = f.filter(Boolean).length;
    const score: ModelScore = { value: roundHalfUp(scale * meanLoss(run.actuals, f, loss, root), 4, NaN), originsScored: scored, msPerOrigin: roundHalfUp((run.ms[model] ?? NaN) / run.actuals.length, 1, NaN) };
    if (run.errors[model]) score.error = run.errors[model];
    if (scored && forecasts[reference] && model !== reference) {
      const r = ratio(model, reference);
      score.vsReference = set.kind === 'solar' || set.kind === 'wind' ? skill(r) : r;
    }
    if (daylight && scored) {
      score.daylight = roundHalfUp(meanLoss(run.actuals, f, loss, root, isDaylight), 4, NaN);
      if (forecasts[reference] && model !== reference) score.vsReferenceDaylight = skill(ratio(model, reference, isDaylight));
    }
    if (set.kind === 'wind' && scored && forecasts[reference] && model !== reference) {
      const hours = Math.ceil(set.horizonSteps * stepHours);
      score.skillByLeadHour = Array.from({ length: hours }, (_, k) => skill(ratio(model, reference, (_o, j) => leadHour(j) === k + 1)));
    }
    models[model] = score;
  }
  const members = Object.keys(run.forecasts).filter((m) => m !== ENSEMBLE && models[m].originsScored > 0);
  const bestMember = members.sort((a, b) => (models[a].value || Infinity) - (models[b].value || Infinity))[0] ?? null;
  const wanted = [...SIMPLE_PEERS[set.kind], ...(NAMED_PEERS[set.kind] ?? [])];
  const engineVs: Record<string, Estimate> = {};
  for (const peer of [...wanted.filter((p) => forecasts[p]), ...Object.keys(extraPeers), ...(bestMember ? [bestMember] : [])]) {
    if (!engineVs[peer] && forecasts[ENSEMBLE]) engineVs[peer] = ratio(ENSEMBLE, peer);
  }
  const origins = set.origins.length;
  const all = coverage(run, set.kind === 'solar' ? isDaylight : everyStep);
  return {
    name: set.name,
    kind: set.kind,
    role: set.role,
    variant: set.variant,
    source: set.source,
    origins,
    firstOrigin: new Date(set.series.t[set.origins[0]]).toISOString(),
    lastOrigin: new Date(set.series.t[set.origins[origins - 1]]).toISOString(),
    horizonSteps: set.horizonSteps,
    historyDays: roundHalfUp((set.historySteps * set.series.stepMinutes) / 1440, 1, NaN),
    metric: label,
    reference,
    models,
    bestMember,
    engineVs,
    missingPeers: wanted.filter((p) => !forecasts[p]),
    engineWeights: Object.fromEntries(Object.entries(run.engineWeights).map(([m, w]) => [m, roundHalfUp(w / origins, 3, NaN)])),
    intervals: { ...all, regimes: regimes(set, run, daylight) },
  };
}

/**
 * Tuning of the physical PV forecast to a site's own measurements (issue 19, item 5): a multiplicative correction
 * learned from measured against modelled power, by sun position and by clear-sky index, each bin's ratio damped
 * towards 1 by how few steps it rests on; its effect measured out of sample; and P10/P90 bands from the
 * out-of-sample residuals. A tuning is plain data and serialises to JSON, to be stored with the site.
 */
import { rmse } from '../forecasting/metrics';
import { quantile, solarDay } from './infer-clear-sky';
import type { PvStepResult, PvSystem } from './types';

/** A modelled step as tuning reads it: the chain's result; without its `ghiWm2` every step falls in one clear-sky-index bin. */
export type ModelledStep = PvStepResult;

/** Upper edges of the sun-elevation bins, degrees (the last bin runs to 90). Low sun is where transposition, shading and timing err most. */
export const ELEVATION_EDGES_DEG = [10, 20, 30, 45] as const;
/**
 * Upper edges of the clear-sky-index bins (the last runs above 0.85): overcast, broken, mostly clear, clear. The
 * classes follow the usual split of the index into cloudy, intermediate and clear skies (e.g. Lorenz et al. 2009,
 * IEEE JSTARS 2(1), where forecast error depends most on it), with intermediate split in two.
 */
export const CLEAR_SKY_INDEX_EDGES = [0.3, 0.6, 0.85] as const;
/**
 * Damping: a bin's ratio r becomes 1 + (r - 1)·n / (n + DAMPING_STEPS). 48 steps are half a day of 15-minute data
 * or two days of hourly: a bin seen that little moves halfway to its own ratio.
 */
export const DAMPING_STEPS = 48;
/** Correction ratios are held within these bounds: a bin asking for more is mis-specified, not to be followed. */
export const RATIO_BOUNDS = [0.3, 3] as const;
/** Daylight for tuning and scoring: the sun above 5 degrees (zenith below 85). */
export const MAX_ZENITH_DEG = 85;
/**
 * Outage or curtailment, left out of the fit: measured at most 2% of the AC rating while the model gives at least
 * 20% (daylight diffuse alone gives more than that), or a whole day producing under 5% of its modelled energy.
 */
export const OUTAGE_MEASURED_SHARE = 0.02;
export const OUTAGE_MODELLED_SHARE = 0.2;
export const OUTAGE_DAY_ENERGY_SHARE = 0.05;
/** Readings above this multiple of the AC rating are faulty (an inverter cannot deliver them), left out. */
export const MAX_READING_OVER_RATING = 1.05;
/**
 * Residuals are relative to the forecast, but never to less than this share of the AC rating scaled by the clear sky
 * (clear-sky GHI over 1,000 W/m2): a forecast near 0 under a bright sky (NWP saw overcast) still gets a band that can
 * reach the sun coming out, while at dawn the band stays as small as the sun is.
 */
export const MIN_BAND_SHARE = 0.05;
const REFERENCE_GHI_WM2 = 1000;
/**
 * The out-of-fold residual quantiles that make P10 and P90. Wider than 0.1/0.9: folds inside the fitting window
 * understate the next day's error (the weather regime drifts), so plain 0.1/0.9 covered 0.76-0.78 of TUNE days in
 * `npm run bench -- pv`; these were chosen there, on TUNE days only, for 0.80.
 */
export const BAND_QUANTILES = [0.07, 0.93] as const;

/** The scale a step's band is relative to, kW. */
const bandScale = (step: PvStepResult, centre: number, ratingKw: number) => Math.max(centre, MIN_BAND_SHARE * ratingKw * Math.min(1, step.clearSkyGhiWm2 / REFERENCE_GHI_WM2));
/** Holdout of tuningEffect, and the number of contiguous day blocks whose out-of-fold residuals make the bands. */
export const HOLDOUT_SHARE = 0.25;
export const BAND_FOLDS = 4;
/** Backfitting passes between the sun-position and the clear-sky-index factors. */
const BACKFIT_PASSES = 4;

/**
 * Untuned bands: the ratio of measured to modelled power at P10 and P90 by clear-sky-index bin (the order of
 * CLEAR_SKY_INDEX_EDGES, then one for an unknown index). From the spread of a day-ahead-NWP-driven, untuned model
 * at PVOD station 01 (July 2018 to June 2019, steps above 5% of the rating): the ratio quantiles over the site's
 * median clear-sky ratio, widened by 15% each way for a site's unknown bias and rounded outwards. NWP that sees
 * overcast errs upwards (the sun comes out), NWP that sees clear sky errs downwards (cloud it missed).
 */
export const UNTUNED_BAND_RATIOS = {
  p10: [0.55, 0.55, 0.45, 0.35, 0.4],
  p90: [6, 3.4, 1.8, 1.3, 2.4],
} as const;

/** A fitted correction: plain numbers only (JSON-safe). */
export interface PvTuning {
  version: 1;
  /** The AC rating the tuned power is bounded by, kW. */
  inverterAcKw: number;
  /** Least-squares scale of modelled to measured power over all steps used. */
  globalScale: number;
  /** Damped ratios by sun elevation bin (ELEVATION_EDGES_DEG), before and after solar noon. */
  sun: { morning: number[]; afternoon: number[]; morningSteps: number[]; afternoonSteps: number[] };
  /** Damped ratios by clear-sky-index bin (CLEAR_SKY_INDEX_EDGES); the last entry, for an unknown index, is 1. */
  clearSkyIndex: { ratios: number[]; steps: number[] };
  /** Out-of-sample ratios of measured to tuned power at P10 and P90 by clear-sky-index bin; absent with too few steps. */
  bands?: { p10: number[]; p90: number[]; steps: number[] };
  fitted: {
    steps: number;
    days: number;
    /** Steps left out as outage, curtailment or faulty readings. */
    excludedSteps: number;
    from: string;
    to: string;
  };
}

export interface PvTuningOptions {
  /** @default DAMPING_STEPS */
  dampingSteps?: number;
  /** Compute out-of-fold bands (costs BAND_FOLDS more fits). @default true */
  bands?: boolean;
}

/** Index of the bin a value falls in, given the bins' upper edges. */
const binOf = (value: number, edges: readonly number[]) => {
  let b = 0;
  while (b < edges.length && value >= edges[b]) b++;
  return b;
};

/** The clear-sky-index bin of a step, or the extra "unknown" bin when its GHI is not known. */
export function clearSkyIndexBin(step: ModelledStep): number {
  const index = step.ghiWm2 !== undefined && step.clearSkyGhiWm2 > 0 ? step.ghiWm2 / step.clearSkyGhiWm2 : NaN;
  return Number.isFinite(index) ? binOf(index, CLEAR_SKY_INDEX_EDGES) : CLEAR_SKY_INDEX_EDGES.length + 1;
}

/** Sun-position bin: [0 morning | 1 afternoon, elevation bin]. Morning is the sun in the eastern half of the sky. */
function sunBin(step: PvStepResult): [0 | 1, number] {
  const half = step.solarAzimuthDeg < 180 ? 0 : 1;
  return [half, binOf(90 - step.zenithDeg, ELEVATION_EDGES_DEG)];
}

const isDaylight = (s: PvStepResult) => s.zenithDeg < MAX_ZENITH_DEG;
const clampRatio = (r: number) => Math.min(RATIO_BOUNDS[1], Math.max(RATIO_BOUNDS[0], r));
const damp = (ratio: number, n: number, n0: number) => (n > 0 && Number.isFinite(ratio) ? 1 + (clampRatio(ratio) - 1) * (n / (n + n0)) : 1);

/**
 * The steps a tuning may learn from: daylight, finite, not faulty, and not an outage or curtailment (see
 * OUTAGE_* above). Returns their indices and how many daylight steps were left out.
 */
function usableSteps(measuredKw: readonly number[], modelled: readonly PvStepResult[], system: PvSystem): { steps: number[]; excluded: number } {
  const rating = system.inverterAcKw;
  const daylight = modelled.map((s, i) => (isDaylight(s) && Number.isFinite(s.acKw) && Number.isFinite(measuredKw[i]) ? i : -1)).filter((i) => i >= 0);
  const dayEnergy = new Map<number, { measured: number; modelled: number }>();
  for (const i of daylight) {
    const d = solarDay(modelled[i].t, system.longitude);
    const e = dayEnergy.get(d) ?? dayEnergy.set(d, { measured: 0, modelled: 0 }).get(d)!;
    e.measured += Math.max(0, measuredKw[i]);
    e.modelled += modelled[i].acKw;
  }
  const steps = daylight.filter((i) => {
    const m = measuredKw[i];
    const p = modelled[i].acKw;
    const day = dayEnergy.get(solarDay(modelled[i].t, system.longitude))!;
    if (m > MAX_READING_OVER_RATING * rating) return false;
    if (m <= OUTAGE_MEASURED_SHARE * rating && p >= OUTAGE_MODELLED_SHARE * rating) return false;
    return !(day.modelled > 0 && day.measured < OUTAGE_DAY_ENERGY_SHARE * day.modelled);
  });
  return { steps, excluded: daylight.length - steps.length };
}

/** The correction factors of a fit, before bands. */
function fitFactors(measuredKw: readonly number[], modelled: readonly ModelledStep[], steps: readonly number[], n0: number) {
  const m = steps.map((i) => Math.max(0, measuredKw[i]));
  const p = steps.map((i) => modelled[i].acKw);
  const sunBins = steps.map((i) => sunBin(modelled[i]));
  const kcBins = steps.map((i) => clearSkyIndexBin(modelled[i]));
  let mp = 0, pp = 0;
  m.forEach((v, j) => {
    mp += v * p[j];
    pp += p[j] * p[j];
  });
  const globalScale = pp > 0 ? clampRatio(mp / pp) : 1;
  const nSun = ELEVATION_EDGES_DEG.length + 1;
  const nKc = CLEAR_SKY_INDEX_EDGES.length + 2;
  const sun = [new Array<number>(nSun).fill(1), new Array<number>(nSun).fill(1)];
  const sunSteps = [new Array<number>(nSun).fill(0), new Array<number>(nSun).fill(0)];
  const kc = new Array<number>(nKc).fill(1);
  const kcSteps = new Array<number>(nKc).fill(0);
  sunBins.forEach(([h, b]) => sunSteps[h][b]++);
  kcBins.forEach((b) => kcSteps[b]++);

  // Backfitting (Hastie & Tibshirani 1990): each factor's least-squares ratio given the others, damped.
  for (let pass = 0; pass < BACKFIT_PASSES; pass++) {
    const sunNum = [new Array<number>(nSun).fill(0), new Array<number>(nSun).fill(0)];
    const sunDen = [new Array<number>(nSun).fill(0), new Array<number>(nSun).fill(0)];
    m.forEach((v, j) => {
      const [h, b] = sunBins[j];
      const q = p[j] * globalScale * kc[kcBins[j]];
      sunNum[h][b] += v * q;
      sunDen[h][b] += q * q;
    });
    for (const h of [0, 1]) for (let b = 0; b < nSun; b++) sun[h][b] = damp(sunNum[h][b] / sunDen[h][b], sunSteps[h][b], n0);

    const kcNum = new Array<number>(nKc).fill(0);
    const kcDen = new Array<number>(nKc).fill(0);
    m.forEach((v, j) => {
      const [h, b] = sunBins[j];
      const q = p[j] * globalScale * sun[h][b];
      kcNum[kcBins[j]] += v * q;
      kcDen[kcBins[j]] += q * q;
    });
    for (let b = 0; b < nKc; b++) kc[b] = damp(kcNum[b] / kcDen[b], kcSteps[b], n0);
  }
  // The unknown-index bin carries no correction: its steps are corrected by sun position alone.
  kc[nKc - 1] = 1;
  return { globalScale, sun, sunSteps, kc, kcSteps };
}

/** A tuning from fitted factors (the whole fit, or one fold's). */
function tuningOf(f: ReturnType<typeof fitFactors>, system: PvSystem, fitted: PvTuning['fitted']): PvTuning {
  return {
    version: 1,
    inverterAcKw: system.inverterAcKw,
    globalScale: f.globalScale,
    sun: { morning: f.sun[0], afternoon: f.sun[1], morningSteps: f.sunSteps[0], afternoonSteps: f.sunSteps[1] },
    clearSkyIndex: { ratios: f.kc, steps: f.kcSteps },
    fitted,
  };
}

/**
 * Learns a correction from measured power (kW, aligned with `modelled`) against the model chain's output for the
 * same steps. Learns from daylight steps only, leaving out outages, curtailment and faulty readings (see
 * `OUTAGE_*`, `MAX_READING_OVER_RATING`).
 */
export function fitPvTuning(measuredKw: readonly number[], modelled: readonly ModelledStep[], system: PvSystem, options: PvTuningOptions = {}): PvTuning {
  if (measuredKw.length !== modelled.length) throw new RangeError(`measured (${measuredKw.length}) and modelled (${modelled.length}) differ in length`);
  const n0 = options.dampingSteps ?? DAMPING_STEPS;
  const { steps, excluded } = usableSteps(measuredKw, modelled, system);
  const f = fitFactors(measuredKw, modelled, steps, n0);
  const days = new Set(steps.map((i) => solarDay(modelled[i].t, system.longitude)));
  const tuning = tuningOf(f, system, {
    steps: steps.length,
    days: days.size,
    excludedSteps: excluded,
    from: steps.length ? new Date(modelled[steps[0]].t).toISOString() : '',
    to: steps.length ? new Date(modelled[steps[steps.length - 1]].t).toISOString() : '',
  });
  if (options.bands ?? true) {
    const bands = outOfFoldBands(measuredKw, modelled, system, steps, n0);
    if (bands) tuning.bands = bands;
  }
  return tuning;
}

/** The tuned output of each modelled step, kW, within [0, the AC rating]; 0 at night. */
export function applyPvTuning(tuning: PvTuning, modelled: readonly ModelledStep[]): number[] {
  return modelled.map((s) => {
    if (!Number.isFinite(s.acKw)) return NaN;
    if (s.zenithDeg >= 90 || s.acKw <= 0) return 0;
    const [h, b] = sunBin(s);
    const sun = (h === 0 ? tuning.sun.morning : tuning.sun.afternoon)[b] ?? 1;
    const kc = tuning.clearSkyIndex.ratios[clearSkyIndexBin(s)] ?? 1;
    return Math.min(tuning.inverterAcKw, Math.max(0, s.acKw * tuning.globalScale * sun * kc));
  });
}

/** Minimum out-of-fold steps in a clear-sky-index bin for its empirical quantiles; fewer fall back to all bins pooled. */
const MIN_BAND_STEPS = 30;

/**
 * P10/P90 ratios from out-of-fold residuals: the usable steps are cut into BAND_FOLDS contiguous blocks of days;
 * each block is predicted by a tuning fitted on the others, and the ratios of measured to predicted power are
 * pooled by clear-sky-index bin (blocked cross-validation, so that neighbouring, correlated days do not leak).
 */
function outOfFoldBands(measuredKw: readonly number[], modelled: readonly ModelledStep[], system: PvSystem, steps: readonly number[], n0: number): PvTuning['bands'] | undefined {
  const dayOf = steps.map((i) => solarDay(modelled[i].t, system.longitude));
  const days = [...new Set(dayOf)].sort((a, b) => a - b);
  if (days.length < BAND_FOLDS * 2) return undefined;
  const foldOfDay = new Map(days.map((d, j) => [d, Math.floor((j * BAND_FOLDS) / days.length)]));
  const nKc = CLEAR_SKY_INDEX_EDGES.length + 2;
  const ratios: number[][] = Array.from({ length: nKc }, () => []);
  for (let fold = 0; fold < BAND_FOLDS; fold++) {
    const train = steps.filter((_, j) => foldOfDay.get(dayOf[j]) !== fold);
    const test = steps.filter((_, j) => foldOfDay.get(dayOf[j]) === fold);
    const f = fitFactors(measuredKw, modelled, train, n0);
    const partial = tuningOf(f, system, { steps: train.length, days: 0, excludedSteps: 0, from: '', to: '' });
    const predicted = applyPvTuning(partial, test.map((i) => modelled[i]));
    test.forEach((i, j) => {
      const scale = bandScale(modelled[i], predicted[j], system.inverterAcKw);
      if (scale > 0 && Number.isFinite(predicted[j])) ratios[clearSkyIndexBin(modelled[i])].push(1 + (Math.max(0, measuredKw[i]) - predicted[j]) / scale);
    });
  }
  const pooled = ratios.flat();
  if (pooled.length < MIN_BAND_STEPS) return undefined;
  const pick = (r: number[], q: number) => quantile(r.length >= MIN_BAND_STEPS ? r : pooled, q);
  return { p10: ratios.map((r) => pick(r, BAND_QUANTILES[0])), p90: ratios.map((r) => pick(r, BAND_QUANTILES[1])), steps: ratios.map((r) => r.length) };
}

/**
 * P10 and P90 around a P50 forecast, kW: P50 plus (ratio - 1) times the step's band scale (P50, or the clear-sky floor
 * where P50 is smaller), the ratio of each step's clear-sky-index bin from the tuning's out-of-sample bands, or from
 * UNTUNED_BAND_RATIOS without one. Ordered P10 ≤ P50 ≤ P90 and within
 * [0, the AC rating] (`inverterAcKw` bounds the untuned case; the tuning's own rating the tuned one).
 */
export function pvQuantiles(tuning: PvTuning | undefined, modelled: readonly ModelledStep[], p50: readonly number[], inverterAcKw?: number): { p10: number[]; p90: number[] } {
  if (modelled.length !== p50.length) throw new RangeError(`modelled (${modelled.length}) and p50 (${p50.length}) differ in length`);
  const bands = tuning?.bands ?? UNTUNED_BAND_RATIOS;
  const cap = tuning?.inverterAcKw ?? inverterAcKw ?? Infinity;
  const p10: number[] = [];
  const p90: number[] = [];
  modelled.forEach((s, i) => {
    const centre = Math.min(cap, Math.max(0, p50[i]));
    if (!Number.isFinite(centre)) {
      p10.push(NaN);
      p90.push(NaN);
      return;
    }
    const b = clearSkyIndexBin(s);
    const scale = s.zenithDeg >= 90 ? 0 : Number.isFinite(cap) ? bandScale(s, centre, cap) : centre;
    p10.push(Math.min(centre, Math.max(0, centre + ((bands.p10[b] ?? 1) - 1) * scale)));
    p90.push(Math.min(cap, Math.max(centre, centre + ((bands.p90[b] ?? 1) - 1) * scale)));
  });
  return { p10, p90 };
}

/** The tuning's measured effect: daylight RMSE untuned and tuned on a later holdout the tuning never saw. */
export interface TuningEffect {
  rmseUntunedKw: number;
  rmseTunedKw: number;
  /** 100·(1 - tuned / untuned): positive when tuning helps. */
  improvementPct: number;
  /** Days in the holdout. */
  days: number;
}

/**
 * Fits on the earlier 1 - HOLDOUT_SHARE of the days and scores on the rest: RMSE over every daylight step with a
 * finite reading (outages included: they are what the site really delivered). NaN figures when the holdout is empty.
 */
export function tuningEffect(measuredKw: readonly number[], modelled: readonly ModelledStep[], system: PvSystem): TuningEffect {
  const { fit, holdout, holdoutDays } = splitByDays(modelled, system);
  const tuning = fitPvTuning(measuredKw.filter((_, i) => fit.has(i)), modelled.filter((_, i) => fit.has(i)), system, { bands: false });
  const scored = [...holdout].filter((i) => isDaylight(modelled[i]) && Number.isFinite(measuredKw[i]) && Number.isFinite(modelled[i].acKw));
  const actual = scored.map((i) => measuredKw[i]);
  const untuned = scored.map((i) => modelled[i].acKw);
  const tuned = applyPvTuning(tuning, scored.map((i) => modelled[i]));
  const rmseUntunedKw = rmse(actual, untuned);
  const rmseTunedKw = rmse(actual, tuned);
  return { rmseUntunedKw, rmseTunedKw, improvementPct: 100 * (1 - rmseTunedKw / rmseUntunedKw), days: holdoutDays };
}

/** Indices before and after the holdout cut: the last HOLDOUT_SHARE of the solar days. */
export function splitByDays(modelled: readonly PvStepResult[], system: PvSystem): { fit: Set<number>; holdout: Set<number>; holdoutDays: number } {
  const dayOf = modelled.map((s) => solarDay(s.t, system.longitude));
  const days = [...new Set(dayOf)].sort((a, b) => a - b);
  const cut = days[Math.max(1, Math.floor(days.length * (1 - HOLDOUT_SHARE)))] ?? Infinity;
  const fit = new Set<number>();
  const holdout = new Set<number>();
  dayOf.forEach((d, i) => (d < cut ? fit : holdout).add(i));
  return { fit, holdout, holdoutDays: days.filter((d) => d >= cut).length };
}

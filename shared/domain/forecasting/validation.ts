/**
 * Rolling-origin evaluation of a member on the series itself (Tashman 2000): origins at the last `folds`
 * day boundaries before the end, each fold fitted on the history before its origin and scored on the
 * horizon after it. The residuals by lead feed the conformal intervals; the errors rank the members.
 */
import { pointMetrics, type PointMetrics } from './metrics';
import { stepsPerDay, type Exogenous, type FitContext, type ForecastMember, type RegularSeries } from './types';

/** Folds when the caller does not say. */
export const DEFAULT_FOLDS = 3;

/**
 * Fold forecasts kept in-process, least recently used out first: a member's forecast from a fold depends only on
 * what the fit reads (the history before the origin, its exogenous variables, the context), and members are
 * deterministic, so a fold seen before is answered from here, bit for bit the same. It serves a request repeated
 * while the data has not changed (a dashboard or a batch asking again the same day: every fold hits) and a
 * history growing from a fixed start (a new site, day after day: all folds but the newest hit). About 8 load
 * members x 14 folds per series: 4,096 entries hold some 36 series' validations, about 2 MB at 48 steps.
 */
export const FOLD_CACHE_SIZE = 4096;

interface CachedFold {
  forecast: number[];
  /** Wall time of the fit that produced it, ms: what the fold costs, reported as before. */
  ms: number;
}

const foldCache = new Map<string, CachedFold>();
const memberIds = new WeakMap<ForecastMember, number>();
let nextMemberId = 0;

/** Empties the fold cache (benches timing a cold validation; tests). */
export function clearFoldCache(): void {
  foldCache.clear();
}

/**
 * Two independent 32-bit hashes of the bits of the values (the mixing of cyrb53, bryc 2018), 64 bits in all: a
 * collision between two histories is about 1 in 10^19.
 */
function hashValues(values: readonly number[], seed: string): string {
  const words = new Uint32Array(new Float64Array(values).buffer);
  let h1 = 0xdeadbeef ^ seed.length;
  let h2 = 0x41c6ce57 ^ values.length;
  for (let i = 0; i < seed.length; i++) {
    h1 = Math.imul(h1 ^ seed.charCodeAt(i), 2654435761);
    h2 = Math.imul(h2 ^ seed.charCodeAt(i), 1597334677);
  }
  for (let i = 0; i < words.length; i++) {
    h1 = Math.imul(h1 ^ words[i], 2654435761);
    h2 = Math.imul(h2 ^ words[i], 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `${(h1 >>> 0).toString(36)}.${(h2 >>> 0).toString(36)}`;
}

/** A context value JSON cannot spell out whole (a function, a Map or Set): such a fit is not cached. */
const unkeyable = (_: string, value: unknown) => {
  if (typeof value === 'function' || value instanceof Map || value instanceof Set) throw new TypeError('context not keyable');
  return value;
};

/**
 * Everything a fold's fit reads, as a key: the member (by identity), the history's times and values, the context;
 * null when the context holds something the key cannot capture.
 */
function foldKey(member: ForecastMember, history: RegularSeries, context: FitContext, horizonSteps: number): string | null {
  let id = memberIds.get(member);
  if (id === undefined) memberIds.set(member, (id = nextMemberId++));
  const { history: exHistory, future, ...rest } = context;
  let described: string;
  try {
    described = JSON.stringify(rest, unkeyable);
  } catch {
    return null;
  }
  const exogenous = (ex: Exogenous | undefined) => (ex ? Object.keys(ex).sort().map((name) => `${name}:${hashValues(ex[name], name)}`).join(',') : '');
  return [id, horizonSteps, history.stepMinutes, hashValues(history.t, 't'), hashValues(history.y, 'y'), described, exogenous(exHistory), exogenous(future)].join('|');
}

function cachedFold(key: string): CachedFold | undefined {
  const hit = foldCache.get(key);
  if (hit) {
    foldCache.delete(key);
    foldCache.set(key, hit);
  }
  return hit;
}

function keepFold(key: string, fold: CachedFold): void {
  foldCache.set(key, fold);
  if (foldCache.size > FOLD_CACHE_SIZE) foldCache.delete(foldCache.keys().next().value as string);
}

/** One member's out-of-sample record. */
export interface MemberValidation {
  member: string;
  /** Origins (indices into the series) of the folds that ran, latest first. */
  origins: number[];
  /** Per fold, the forecast of every lead (NaN beyond the end of the series). */
  predictions: number[][];
  /** Per fold, the actual values of every lead (NaN when missing or beyond the end). */
  actuals: number[][];
  /** Per lead, actual - forecast over the folds where both exist. */
  residualsByLead: number[][];
  metrics: PointMetrics;
  /** Mean wall time of one fit plus predict, ms. */
  meanMs: number;
}

export interface ValidationOptions {
  horizonSteps: number;
  folds?: number;
  /** Steps between origins. @default one day */
  spacingSteps?: number;
}

const slice = (exogenous: Exogenous | undefined, from: number, to: number): Exogenous | undefined =>
  exogenous && Object.fromEntries(Object.entries(exogenous).map(([name, values]) => [name, values.slice(from, to)]));

/** Origins at the last `folds` days (one day apart, or `spacing` steps), each leaving the member its minimum history. */
export function foldOrigins(length: number, stepMinutes: number, folds: number, minHistory: number, spacing = stepsPerDay(stepMinutes)): number[] {
  const origins: number[] = [];
  for (let k = 1; k <= folds; k++) {
    const origin = length - k * spacing;
    if (origin >= minHistory && origin > 0) origins.push(origin);
  }
  return origins;
}

/**
 * Residuals, forecasts and errors of one member over rolling origins. The weather over a fold's horizon
 * is taken from the history's exogenous variables, for the variables the forecast has over its horizon (the
 * observed weather stands in for its forecast, so members that use weather look somewhat better here than
 * they will be live).
 */
export function validateMember(series: RegularSeries, member: ForecastMember, context: FitContext, options: ValidationOptions): MemberValidation {
  const { horizonSteps } = options;
  const n = series.y.length;
  const perDay = stepsPerDay(series.stepMinutes);
  const origins = foldOrigins(n, series.stepMinutes, options.folds ?? DEFAULT_FOLDS, member.minHistory(series.stepMinutes), options.spacingSteps);
  const predictions: number[][] = [];
  const actuals: number[][] = [];
  const residualsByLead: number[][] = Array.from({ length: horizonSteps }, () => []);
  let elapsed = 0;
  // Only what the forecast will know over its horizon stands in for it in a fold: a variable measured in the
  // history alone (a turbine's anemometer) must not look known ahead.
  const forecastable = context.history && context.future ? Object.fromEntries(Object.entries(context.history).filter(([name]) => name in context.future!)) : undefined;
  const folds = origins.map((origin) => {
    const history: RegularSeries = { t: series.t.slice(0, origin), y: series.y.slice(0, origin), stepMinutes: series.stepMinutes };
    const foldContext: FitContext = { ...context, history: slice(context.history, 0, origin), future: slice(forecastable, origin, origin + horizonSteps) };
    const key = foldKey(member, history, foldContext, horizonSteps);
    return { origin, history, context: foldContext, key, fold: key === null ? undefined : cachedFold(key) };
  });
  const missing = folds.filter((f) => !f.fold);
  if (missing.length > 1 && member.foldForecasts) {
    // One pass for all the folds not cached: the member shares its work between them (same forecasts).
    const started = performance.now();
    const forecasts = member.foldForecasts(series, context, missing, horizonSteps);
    const ms = (performance.now() - started) / missing.length;
    missing.forEach((f, k) => (f.fold = { forecast: forecasts[k], ms }));
  }
  for (const f of missing) {
    if (!f.fold) {
      const started = performance.now();
      f.fold = { forecast: member.fit(f.history, f.context).predict(horizonSteps), ms: 0 };
      f.fold.ms = performance.now() - started;
    }
    if (f.key !== null) keepFold(f.key, f.fold);
  }
  for (const { origin, fold } of folds) {
    const forecast = [...fold!.forecast];
    elapsed += fold!.ms;
    const actual = Array.from({ length: horizonSteps }, (_, j) => (origin + j < n ? series.y[origin + j] : NaN));
    actual.forEach((a, j) => {
      const residual = a - forecast[j];
      if (Number.isFinite(residual)) residualsByLead[j].push(residual);
    });
    predictions.push(forecast);
    actuals.push(actual);
  }
  const firstOrigin = origins.length ? Math.min(...origins) : n;
  return {
    member: member.name,
    origins,
    predictions,
    actuals,
    residualsByLead,
    metrics: pointMetrics(actuals.flat(), predictions.flat(), series.y.slice(0, firstOrigin), perDay),
    meanMs: origins.length ? elapsed / origins.length : 0,
  };
}

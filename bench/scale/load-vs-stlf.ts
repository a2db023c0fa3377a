/**
 * The engine's day-ahead load forecast against R's `forecast::stlf` (issue 20, item 4: "costs no more than R's
 * stlf in the same run, at equal or better accuracy"): on the accuracy bench's load sets (Taylor's 8 weeks of
 * half-hourly England and Wales demand, 48 steps; GEFCom 2012 zones, hourly, 24 steps), at the same origins with
 * the same histories, the time of one `forecastSeries` call (ensemble, kind load, validation included) against
 * stlf's fit plus forecast timed inside R (R's start-up and the package load excluded), and the MAPE of both over
 * the same steps. stlf: MSTL with daily and weekly seasonality, ETS on the seasonally adjusted series (Bandara,
 * Hyndman & Bergmeir 2021; Hyndman & Athanasopoulos, FPP 3rd ed.), as bench/accuracy/r-peers.ts runs it.
 */
import { forecastSeries } from '../../shared/domain/forecasting/engine';
import { stepsPerDay, type RegularSeries } from '../../shared/domain/forecasting/types';
import { clearFoldCache } from '../../shared/domain/forecasting/validation';
import { pairedRatio, type Estimate, type PairedSums } from '../accuracy/bootstrap';
import { accuracySets, type AccuracySet } from '../accuracy/datasets';
import { COVERAGE, originRequest } from '../accuracy/evaluate';
import { absolutePercentageError, pairSums } from '../accuracy/scores';
import { rAvailable, runRscript } from '../rscript';

/**
 * One untimed stlf call before the timed ones: R compiles a closure on its first calls, and the engine's first
 * call is warmed up alike (JIT), so both are timed in their steady state.
 */
const SCRIPT = `
suppressMessages(library(forecast))
args <- commandArgs(TRUE)
p1 <- as.integer(args[3]); p2 <- as.integer(args[4]); h <- as.integer(args[5])
lines <- readLines(args[1])
series <- lapply(lines, function(line) {
  y <- msts(suppressWarnings(as.numeric(strsplit(line, ",")[[1]])), seasonal.periods = c(p1, p2))
  if (anyNA(y)) na.interp(y) else y
})
invisible(tryCatch(stlf(series[[1]], h = h), error = function(e) NULL))
out <- file(args[2], "w")
for (y in series) {
  t0 <- proc.time()[["elapsed"]]
  f <- tryCatch(as.numeric(stlf(y, h = h)$mean), error = function(e) rep(NA, h))
  t1 <- proc.time()[["elapsed"]]
  writeLines(paste(t1 - t0, paste(f, collapse = ","), sep = ";"), out)
}
close(out)
`;

export interface StlfRow {
  set: string;
  role: string;
  stepMinutes: number;
  horizonSteps: number;
  origins: number;
  /** Days of history per origin, least and most. */
  historyDays: [number, number];
  /** Per forecast, cold: every member validated on every fold. */
  engineMs: { mean: number; median: number };
  /** The same request again, its validation answered by the fold cache; and whether its forecast equalled the cold one bit for bit. */
  repeatMs: { mean: number; median: number; identical: boolean };
  /**
   * The request made the day after another (the history one day further on, the same number of days): the folds
   * but the newest answered by the cache (the window starts on a weekly grid, engine.ts windowStart); and whether
   * its forecast equalled the cold one bit for bit.
   */
  nextDayMs: { mean: number; median: number; identical: boolean };
  stlfMs: { mean: number; median: number } | null;
  /** Engine time / stlf time, of the means. */
  timeRatio: number | null;
  /** MAPE %, over the steps where the actual and both forecasts exist. */
  engineMape: number;
  stlfMape: number | null;
  /** Engine MAPE / stlf MAPE (< 1: the engine is more accurate). */
  mapeRatio: number | null;
  /** Its 95% paired bootstrap interval over the origins (bench/accuracy/bootstrap.ts). */
  mapeRatioInterval: [number, number] | null;
  steps: number;
  error?: string;
}

export interface StlfComparison {
  rInstalled: boolean;
  rows: StlfRow[];
}

export interface StlfOptions {
  /** Origins per set (spread over the set's candidate days as the accuracy bench does). */
  origins: number;
  /** Only sets whose name contains one of these (lower case); when empty, every set of `roles`. */
  sets: readonly string[];
  /** The roles kept when no set is named. @default REPORT and TUNE */
  roles?: readonly string[];
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);

const intervalOf = (e: Estimate): [number, number] => [e.lo, e.hi];

export function median(xs: readonly number[]): number {
  if (!xs.length) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * MAPE % of two forecasts over the same steps: those where the actual is finite and non-zero and both forecasts
 * are finite (a forecast missing at an origin drops that origin for both, so the pair stays paired).
 */
export function pairedMape(
  actuals: readonly (readonly number[])[],
  a: readonly (readonly number[] | null)[],
  b: readonly (readonly number[] | null)[],
): { a: number; b: number; steps: number; perOrigin: PairedSums } {
  const { steps, ...perOrigin } = pairSums(actuals, a, b, absolutePercentageError);
  const mape = (sums: readonly number[]) => (steps ? (100 * sums.reduce((total, x) => total + x, 0)) / steps : NaN);
  return { a: mape(perOrigin.a), b: mape(perOrigin.b), steps, perOrigin };
}

/** stlf on every history in one Rscript process; per history, seconds inside R and the forecast (null on failure). */
async function runStlf(histories: readonly RegularSeries[], horizonSteps: number): Promise<{ ms: number[]; forecasts: (number[] | null)[]; error?: string }> {
  const { lines, error } = await runRscript(SCRIPT, histories, horizonSteps);
  const ms: number[] = [];
  const forecasts: (number[] | null)[] = [];
  for (const line of lines ?? []) {
    const [seconds, cells = ''] = line.split(';');
    const values = cells.split(',').map(Number);
    ms.push(1000 * Number(seconds));
    forecasts.push(values.length === horizonSteps && values.some(Number.isFinite) ? values : null);
  }
  return { ms, forecasts, error };
}

/**
 * The engine on every origin of a set, as the API runs it (ensemble, default folds), after a warm-up call: each
 * origin cold (the fold cache emptied first: every member validated on every fold), then the same request again
 * (every fold answered by the cache), whose forecast must be the cold one exactly.
 */
function runEngine(set: AccuracySet): {
  ms: number[];
  repeatMs: number[];
  repeatIdentical: boolean;
  nextDayMs: number[];
  nextDayIdentical: boolean;
  forecasts: (number[] | null)[];
  histories: RegularSeries[];
  actuals: number[][];
  error?: string;
} {
  const h = set.horizonSteps;
  const requests = set.origins.map((origin) => originRequest(set, origin));
  const dayBefore = set.origins.map((origin) => originRequest(set, origin - stepsPerDay(set.series.stepMinutes)));
  const forecast = (request: { history: RegularSeries; context: AccuracySet['context'] }) => forecastSeries(request.history, { horizonSteps: h, coverage: COVERAGE, context: request.context }).points.map((p) => p.value);
  const call = (k: number) => forecast(requests[k]);
  const ms: number[] = [];
  const repeatMs: number[] = [];
  const nextDayMs: number[] = [];
  const forecasts: (number[] | null)[] = [];
  let repeatIdentical = true;
  let nextDayIdentical = true;
  let error: string | undefined;
  try {
    call(0);
  } catch {
    // the timed call below records it
  }
  requests.forEach((_, k) => {
    clearFoldCache();
    let started = performance.now();
    try {
      const cold = call(k);
      ms.push(performance.now() - started);
      forecasts.push(cold);
      started = performance.now();
      const again = call(k);
      repeatMs.push(performance.now() - started);
      repeatIdentical &&= again.every((v, j) => Object.is(v, cold[j]));
      // The day before's forecast first (untimed), as a client asking each morning: its folds are this one's but the newest.
      clearFoldCache();
      forecast(dayBefore[k]);
      started = performance.now();
      const nextDay = call(k);
      nextDayMs.push(performance.now() - started);
      nextDayIdentical &&= nextDay.every((v, j) => Object.is(v, cold[j]));
    } catch (e) {
      ms.push(performance.now() - started);
      forecasts.push(null);
      error ??= e instanceof Error ? e.message : String(e);
    }
  });
  clearFoldCache();
  const actuals = set.origins.map((origin) => Array.from({ length: h }, (_, j) => set.series.y[origin + j] ?? NaN));
  return { ms, repeatMs, repeatIdentical, nextDayMs, nextDayIdentical, forecasts, histories: requests.map((r) => r.history), actuals, error };
}

/** The load sets the comparison runs on: history only (stlf gets no weather), those the accuracy bench gives R. */
export function stlfSets(options: StlfOptions): AccuracySet[] {
  const counts = { load: options.origins, solar: 0, wind: 0, price: 0, nordPoolTestEveryDay: false };
  const wanted = (s: AccuracySet) => (options.sets.length ? options.sets.some((f) => s.name.toLowerCase().includes(f)) : !options.roles || options.roles.includes(s.role));
  return accuracySets(['load'], counts, false).filter((s) => s.rPeers && !s.exogenous && wanted(s));
}

/** Runs the comparison; without Rscript and its forecast package, the engine's rows alone. */
export async function benchLoadVsStlf(options: StlfOptions, onSet?: (row: StlfRow) => void): Promise<StlfComparison> {
  const rInstalled = rAvailable();
  const rows: StlfRow[] = [];
  for (const set of stlfSets(options)) {
    const engine = runEngine(set);
    const r = rInstalled ? await runStlf(engine.histories, set.horizonSteps) : null;
    const stlfForecasts = r && !r.error ? r.forecasts : null;
    const scored = pairedMape(engine.actuals, engine.forecasts, stlfForecasts ?? engine.forecasts);
    const engineMs = { mean: mean(engine.ms), median: median(engine.ms) };
    const stlfMs = r && !r.error ? { mean: mean(r.ms), median: median(r.ms) } : null;
    const perDay = stepsPerDay(set.series.stepMinutes);
    const days = engine.histories.map((x) => x.y.length / perDay);
    const row: StlfRow = {
      set: set.name,
      role: set.role,
      stepMinutes: set.series.stepMinutes,
      horizonSteps: set.horizonSteps,
      origins: set.origins.length,
      historyDays: [Math.min(...days), Math.max(...days)],
      engineMs,
      repeatMs: { mean: mean(engine.repeatMs), median: median(engine.repeatMs), identical: engine.repeatIdentical },
      nextDayMs: { mean: mean(engine.nextDayMs), median: median(engine.nextDayMs), identical: engine.nextDayIdentical },
      stlfMs,
      timeRatio: stlfMs ? engineMs.mean / stlfMs.mean : null,
      engineMape: scored.a,
      stlfMape: stlfForecasts ? scored.b : null,
      mapeRatio: stlfForecasts ? scored.a / scored.b : null,
      mapeRatioInterval: stlfForecasts ? intervalOf(pairedRatio(scored.perOrigin)) : null,
      steps: scored.steps,
      ...(engine.error || r?.error ? { error: [engine.error, r?.error].filter(Boolean).join('; ') } : {}),
    };
    rows.push(row);
    onSet?.(row);
  }
  return { rInstalled, rows };
}

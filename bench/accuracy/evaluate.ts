/**
 * Rolling-origin runs of one data set (Tashman 2000): at every origin the history a user would send goes
 * through the engine, once for its own choice (`ensemble`) and once per applicable member asked by name, as
 * the API would run them; the horizon that follows is kept beside each forecast.
 */
import { ENSEMBLE, forecastSeries } from '../../shared/domain/forecasting/engine';
import { ALL_MEMBERS } from '../../shared/domain/forecasting/members';
import type { Exogenous, FitContext, RegularSeries } from '../../shared/domain/forecasting/types';
import type { AccuracySet } from './datasets';

export const COVERAGE = 0.9;
/**
 * Standalone members need no selection and their intervals are not scored: no validation fold (one if the
 * engine refuses none), which halves a LEAR member's time.
 */
const MEMBER_FOLDS = [0, 1];

export interface SetRun {
  /** Per origin, the actual values of the horizon (NaN where missing). */
  actuals: number[][];
  /** Per model and origin, the point forecast, or null where the model failed at that origin. */
  forecasts: Record<string, (number[] | null)[]>;
  /** The engine's 90% interval per origin. */
  lower: (number[] | null)[];
  upper: (number[] | null)[];
  /** Times of the horizon's steps per origin (epoch ms). */
  times: number[][];
  /** The engine's weights per member, summed over origins. */
  engineWeights: Record<string, number>;
  /** Total wall time per model, ms, and the first error message of each failing model. */
  ms: Record<string, number>;
  errors: Record<string, string>;
  /** The histories sent, per origin (the R peers get exactly these). */
  histories: RegularSeries[];
}

const slice = (exogenous: Exogenous, names: readonly string[], from: number, to: number): Exogenous => Object.fromEntries(names.filter((n) => exogenous[n]).map((n) => [n, exogenous[n].slice(from, to)]));

/** What is sent at an origin: the last `historySteps` before it, with the exogenous history and its known future. */
export function originRequest(set: AccuracySet, origin: number): { history: RegularSeries; context: FitContext } {
  const from = Math.max(0, origin - set.historySteps);
  const { series } = set;
  const history: RegularSeries = { t: series.t.slice(from, origin), y: series.y.slice(from, origin), stepMinutes: series.stepMinutes };
  if (!set.exogenous) return { history, context: set.context };
  const names = Object.keys(set.exogenous);
  const futureNames = set.futureNames ?? [];
  return {
    history,
    context: { ...set.context, history: slice(set.exogenous, names, from, origin), ...(futureNames.length ? { future: slice(set.exogenous, futureNames, origin, origin + set.horizonSteps) } : {}) },
  };
}

/** The members that forecast this kind, read from the registry at run time (others are adding members). */
export const membersFor = (set: AccuracySet) => ALL_MEMBERS.filter((m) => m.supports(set.kind)).map((m) => m.name);

function forecastMember(history: RegularSeries, model: string, context: FitContext, horizonSteps: number) {
  try {
    return forecastSeries(history, { horizonSteps, coverage: COVERAGE, modelType: model, context, folds: MEMBER_FOLDS[0] });
  } catch {
    return forecastSeries(history, { horizonSteps, coverage: COVERAGE, modelType: model, context, folds: MEMBER_FOLDS[1] });
  }
}

export function runSet(set: AccuracySet, onOrigin?: (done: number) => void): SetRun {
  const models = [ENSEMBLE, ...membersFor(set)];
  const run: SetRun = { actuals: [], forecasts: Object.fromEntries(models.map((m) => [m, []])), lower: [], upper: [], times: [], engineWeights: {}, ms: Object.fromEntries(models.map((m) => [m, 0])), errors: {}, histories: [] };
  const h = set.horizonSteps;
  set.origins.forEach((origin, k) => {
    const { history, context } = originRequest(set, origin);
    run.histories.push(history);
    run.actuals.push(Array.from({ length: h }, (_, j) => set.series.y[origin + j] ?? NaN));
    run.times.push(Array.from({ length: h }, (_, j) => set.series.t[origin] + j * set.series.stepMinutes * 60_000));
    for (const model of models) {
      const started = performance.now();
      try {
        const result = model === ENSEMBLE ? forecastSeries(history, { horizonSteps: h, coverage: COVERAGE, modelType: model, context }) : forecastMember(history, model, context, h);
        run.forecasts[model].push(result.points.map((p) => p.value));
        if (model === ENSEMBLE) {
          run.lower.push(result.points.map((p) => p.lower));
          run.upper.push(result.points.map((p) => p.upper));
          for (const [name, w] of Object.entries(result.weights)) run.engineWeights[name] = (run.engineWeights[name] ?? 0) + w;
        }
      } catch (error) {
        run.forecasts[model].push(null);
        if (model === ENSEMBLE) {
          run.lower.push(null);
          run.upper.push(null);
        }
        run.errors[model] ??= error instanceof Error ? error.message : String(error);
      }
      run.ms[model] += performance.now() - started;
    }
    onOrigin?.(k + 1);
  });
  return run;
}

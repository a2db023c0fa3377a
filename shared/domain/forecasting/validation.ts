/**
 * Rolling-origin evaluation of a member on the series itself (Tashman 2000): origins at the last `folds`
 * day boundaries before the end, each fold fitted on the history before its origin and scored on the
 * horizon after it. The residuals by lead feed the conformal intervals; the errors rank the members.
 */
import { pointMetrics, type PointMetrics } from './metrics';
import { stepsPerDay, type Exogenous, type FitContext, type ForecastMember, type RegularSeries } from './types';

/** Folds when the caller does not say. */
export const DEFAULT_FOLDS = 3;

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
  for (const origin of origins) {
    const history: RegularSeries = { t: series.t.slice(0, origin), y: series.y.slice(0, origin), stepMinutes: series.stepMinutes };
    const foldContext: FitContext = { ...context, history: slice(context.history, 0, origin), future: slice(forecastable, origin, origin + horizonSteps) };
    const started = performance.now();
    const forecast = member.fit(history, foldContext).predict(horizonSteps);
    elapsed += performance.now() - started;
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

/**
 * The common interface of the forecasting engine (ARCHITECTURE 7): every member fits on a regular series
 * (optionally with exogenous variables) and predicts a horizon of point values. Intervals, validation and
 * the ensemble are built around members by the engine, not by each member.
 */

export type SeriesKind = 'solar' | 'wind' | 'load' | 'price' | 'generic';

/** A regular series: t[i] = start + i * stepMinutes (epoch ms UTC); y[i] is NaN for a missing value. */
export interface RegularSeries {
  t: number[];
  y: number[];
  stepMinutes: number;
}

/** Exogenous variables by name, aligned with a series (history) or with the horizon (future). */
export type Exogenous = Record<string, number[]>;

export interface FitContext {
  kind: SeriesKind;
  /** Site coordinates when known (solar geometry); members must work without them. */
  latitude?: number;
  longitude?: number;
  /** IANA zone for calendar features (hour of day, weekday, holidays); default UTC. */
  timezone?: string;
  /** ISO 3166 country for holidays (date-holidays), when known. */
  country?: string;
  /** Exogenous variables over the history (same length as the series), e.g. temperature_c, wind_speed_ms, ghi_wm2. */
  history?: Exogenous;
  /** The same variables over the horizon (forecast weather), when known. */
  future?: Exogenous;
  /** Member-specific switches, e.g. { duckCurve: true } for prices. */
  options?: Record<string, unknown>;
}

export interface FittedModel {
  /** Point forecasts for the `steps` intervals after the last history timestamp. */
  predict(steps: number): number[];
}

export interface ForecastMember {
  /** Stable name reported as `model_used` (e.g. 'seasonal_naive', 'solar_clear_sky', 'load_regression'). */
  name: string;
  /** Whether the member applies to this kind of series. */
  supports(kind: SeriesKind): boolean;
  /** Minimum history (in steps) the member needs; the engine skips a member with less. */
  minHistory(stepMinutes: number): number;
  fit(history: RegularSeries, context: FitContext): FittedModel;
  /**
   * The member models the public holidays of `context.country`. On a holiday ahead the ensemble takes only such
   * members (engine.ts): validation folds seldom hold a holiday, so their weights say nothing about one.
   */
  holidays?: boolean;
  /**
   * Forecasts from several validation folds at once, each equal to `fit(fold.history, fold.context)`, then
   * `predict(horizonSteps)`: for a member that can share work between folds (validation.ts).
   */
  foldForecasts?(series: RegularSeries, context: FitContext, folds: readonly FoldInput[], horizonSteps: number): number[][];
}

/** A validation fold as a member fits it: the series before `origin`, and the context cut there. */
export interface FoldInput {
  origin: number;
  history: RegularSeries;
  context: FitContext;
}

export { DAY_MS, HOUR_MS } from '../time';

/** Steps per day for a step length. */
export const stepsPerDay = (stepMinutes: number) => Math.round(1440 / stepMinutes);

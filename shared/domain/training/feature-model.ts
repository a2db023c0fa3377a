/**
 * The feature regression a training job builds from its `feature_engineering` settings: ridge regression
 * (shared ridge core) of the value on the lags and trailing rolling means asked for, the local hour of day,
 * weekday and public holiday, and the weather variables the site's history and horizon carry. The horizon
 * is forecast recursively: a lag or rolling window that reaches into the horizon reads the model's own
 * forecasts there (the usual direct-vs-recursive trade-off; recursive keeps one model for every lead).
 */
import { calendarFeatures, futureTimes } from '../forecasting/calendar';
import { fitRidge, predictRow, type Ridge } from '../forecasting/ridge';
import type { FitContext, FittedModel, ForecastMember, RegularSeries } from '../forecasting/types';
import { stepsPerDay } from '../forecasting/types';
import { mulberry32 } from '../seeded-random';

export const FEATURE_MODEL = 'feature_regression';

export interface FeatureConfig {
  /** Lags in hours (1 = the value an hour earlier). */
  lagHours: number[];
  /** Trailing rolling-mean windows in hours, ending one step before the forecast time. */
  rollingHours: number[];
  calendar: boolean;
  /** Use the exogenous weather variables when the history and the horizon both carry them. */
  weather: boolean;
}

/** Fits per feature group, as permutation importance reports them. */
export interface FeatureLayout {
  names: string[];
  /** Columns of each named group (e.g. `hour_of_day` spans 24 columns). */
  groups: Record<string, number[]>;
}

export interface FeatureModel extends FittedModel {
  layout: FeatureLayout;
  ridge: Ridge;
  /** Exogenous variables used, in column order. */
  weatherVariables: string[];
}

const stepsOf = (hours: number, stepMinutes: number) => Math.max(1, Math.round((hours * 60) / stepMinutes));

/** Weather variables present over the whole history and the horizon. */
function usableWeather(context: FitContext, length: number, config: FeatureConfig): string[] {
  if (!config.weather || !context.history || !context.future) return [];
  return Object.keys(context.history)
    .filter((name) => context.history![name].length === length && (context.future![name]?.length ?? 0) > 0)
    .sort();
}

/** The feature layout for a configuration; columns are appended in the order the row builder fills them. */
export function featureLayout(config: FeatureConfig, weatherVariables: string[]): FeatureLayout {
  const names: string[] = [];
  const groups: Record<string, number[]> = {};
  const add = (group: string, columns: string[]) => {
    groups[group] = columns.map((_, k) => names.length + k);
    names.push(...columns);
  };
  for (const h of config.lagHours) add(`lag_${h}h`, [`lag_${h}h`]);
  for (const h of config.rollingHours) add(`rolling_mean_${h}h`, [`rolling_mean_${h}h`]);
  if (config.calendar) {
    add('hour_of_day', Array.from({ length: 24 }, (_, h) => `hour_${h}`));
    add('weekday', Array.from({ length: 7 }, (_, d) => `weekday_${d + 1}`));
    add('holiday', ['holiday']);
  }
  for (const name of weatherVariables) add(`weather_${name}`, [name]);
  return { names, groups };
}

interface Timeline {
  y: number[];
  hour: number[];
  weekday: number[];
  holiday: number[];
  weather: number[][];
}

/** Row of features at timeline index j, or null when a lag, window or weather value is missing. */
function rowAt(j: number, timeline: Timeline, config: FeatureConfig, stepMinutes: number, width: number): number[] | null {
  const x = new Array<number>(width).fill(0);
  let c = 0;
  for (const h of config.lagHours) {
    const v = timeline.y[j - stepsOf(h, stepMinutes)];
    if (v === undefined || !Number.isFinite(v)) return null;
    x[c++] = v;
  }
  for (const h of config.rollingHours) {
    const w = stepsOf(h, stepMinutes);
    if (j - w < 0) return null;
    let sum = 0;
    let count = 0;
    for (let k = j - w; k < j; k++) {
      if (Number.isFinite(timeline.y[k])) {
        sum += timeline.y[k];
        count++;
      }
    }
    if (count < w / 2) return null;
    x[c++] = sum / count;
  }
  if (config.calendar) {
    x[c + timeline.hour[j]] = 1;
    x[c + 24 + timeline.weekday[j] - 1] = 1;
    x[c + 31] = timeline.holiday[j];
    c += 32;
  }
  for (const values of timeline.weather) {
    const v = values[j];
    if (!Number.isFinite(v)) return null;
    x[c++] = v;
  }
  return x;
}

function timelineOf(t: readonly number[], y: number[], weather: number[][], context: FitContext): Timeline {
  const cal = calendarFeatures(t, context.timezone ?? 'UTC', context.country);
  return { y, hour: cal.hour, weekday: cal.weekday, holiday: cal.holiday, weather };
}

/** Usable rows (index, features, target) of a timeline between two indices. */
export function featureRows(timeline: Timeline, config: FeatureConfig, stepMinutes: number, width: number, from: number, to: number) {
  const rows: number[][] = [];
  const targets: number[] = [];
  for (let j = from; j < to; j++) {
    if (!Number.isFinite(timeline.y[j])) continue;
    const x = rowAt(j, timeline, config, stepMinutes, width);
    if (!x) continue;
    rows.push(x);
    targets.push(timeline.y[j]);
  }
  return { rows, targets };
}

/** Fits the feature regression on a history; see the module comment. */
export function fitFeatureModel(history: RegularSeries, context: FitContext, config: FeatureConfig): FeatureModel {
  const n = history.y.length;
  const weatherVariables = usableWeather(context, n, config);
  const layout = featureLayout(config, weatherVariables);
  if (layout.names.length === 0) throw new RangeError('feature_regression: no features configured (lags, rolling statistics, calendar or weather)');
  const weather = weatherVariables.map((name) => context.history![name]);
  const timeline = timelineOf(history.t, history.y, weather, context);
  const { rows, targets } = featureRows(timeline, config, history.stepMinutes, layout.names.length, 0, n);
  if (rows.length < 2 * stepsPerDay(history.stepMinutes)) throw new RangeError('feature_regression: fewer than two days of rows with every feature known');
  const ridge = fitRidge(rows, targets, Math.max(1, Math.min(7 * stepsPerDay(history.stepMinutes), Math.floor(rows.length / 4))));
  return {
    layout,
    ridge,
    weatherVariables,
    predict(steps) {
      const times = history.t.concat(futureTimes(history.t[n - 1], history.stepMinutes, steps));
      const ahead = weatherVariables.map((name, k) => {
        const future = context.future![name];
        // A weather forecast shorter than the horizon keeps its last value.
        return weather[k].concat(Array.from({ length: steps }, (_, j) => future[Math.min(j, future.length - 1)]));
      });
      const y = history.y.concat(new Array<number>(steps).fill(NaN));
      const full = timelineOf(times, y, ahead, context);
      const out = new Array<number>(steps);
      for (let k = 0; k < steps; k++) {
        const x = rowAt(n + k, full, config, history.stepMinutes, layout.names.length);
        out[k] = x ? predictRow(ridge, x) : NaN;
        y[n + k] = out[k];
      }
      return out;
    },
  };
}

/** The feature regression as an engine member, for validation and ensembles. */
export function featureRegressionMember(config: FeatureConfig): ForecastMember {
  return {
    name: FEATURE_MODEL,
    supports: () => true,
    minHistory: (stepMinutes) => 3 * stepsPerDay(stepMinutes) + Math.max(0, ...config.lagHours.map((h) => stepsOf(h, stepMinutes)), ...config.rollingHours.map((h) => stepsOf(h, stepMinutes))),
    fit: (history, context) => fitFeatureModel(history, context, config),
  };
}

/**
 * Permutation importance (Breiman 2001; Fisher, Rudin & Dominici 2019) of each feature group on held-out
 * one-step rows: the rise in RMSE when that group's columns are shuffled among the rows (seeded), as a
 * share of the total rise. Groups whose shuffling does not hurt get 0.
 */
export function permutationImportance(model: FeatureModel, rows: number[][], targets: number[], seed = 1): Record<string, number> {
  const rmseOf = (data: number[][]) => Math.sqrt(data.reduce((s, x, i) => s + (targets[i] - predictRow(model.ridge, x)) ** 2, 0) / Math.max(1, data.length));
  const base = rmseOf(rows);
  // A fixed seed keeps the importances of one model reproducible.
  const random = mulberry32(seed);
  const rise: Record<string, number> = {};
  for (const [group, columns] of Object.entries(model.layout.groups)) {
    const order = rows.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const k = Math.floor(random() * (i + 1));
      [order[i], order[k]] = [order[k], order[i]];
    }
    const shuffled = rows.map((x, i) => {
      const copy = x.slice();
      for (const c of columns) copy[c] = rows[order[i]][c];
      return copy;
    });
    rise[group] = Math.max(0, rmseOf(shuffled) - base);
  }
  const total = Object.values(rise).reduce((a, b) => a + b, 0);
  return Object.fromEntries(Object.entries(rise).map(([group, r]) => [group, total > 0 ? Math.round((r / total) * 1e4) / 1e4 : 0]));
}

/** Held-out one-step rows of a series from index `from` on, for permutation importance. */
export function heldOutRows(series: RegularSeries, context: FitContext, config: FeatureConfig, model: FeatureModel, from: number) {
  const weather = model.weatherVariables.map((name) => context.history![name]);
  const timeline = timelineOf(series.t, series.y, weather, context);
  return featureRows(timeline, config, series.stepMinutes, model.layout.names.length, from, series.y.length);
}

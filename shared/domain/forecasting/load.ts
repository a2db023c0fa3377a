/**
 * Load regression (ARCHITECTURE 7): ridge regression on calendar features in the site's zone (hour of day
 * by day type, weekday, public holiday), heating and cooling degrees, and the load the same time yesterday
 * and a week earlier. Day types and degree-day terms follow the usual short-term load models (e.g. Hong,
 * Wang & White 2015, "Weather station selection for electric load forecasting", and the GEFCom2012
 * benchmark's hour x day-type x temperature design).
 *
 * Horizons beyond a day are predicted recursively: a step whose "yesterday" lies in the horizon uses the
 * model's own forecast there. A step whose lag is missing in the history falls back to the same
 * regression without lags, fitted beside it. The last in-sample residual, decayed by the residuals' AR(1)
 * coefficient, is added to the horizon (regression with AR(1) errors), so the latest observation counts.
 */
import { calendarFeatures, dayType, futureTimes, type CalendarFeatures } from './calendar';
import { accumulate, copySums, emptySums, fitRidge, predictRow, type RawSums, type Ridge } from './ridge';
import { type FitContext, type FittedModel, type FoldInput, type ForecastMember, type RegularSeries, stepsPerDay } from './types';

/** Heating and cooling degree base temperatures (C): the UK's 15.5 C heating base, 22 C for cooling. */
export const HEATING_BASE_C = 15.5;
export const COOLING_BASE_C = 22;
/** The penalty is chosen on the last week of the fitted rows (the last quarter when shorter than three weeks). */
export const VALIDATION_DAYS = 7;
/** At most this many rows are fitted (the most recent): 20 000 is 416 days of half-hours, 69 of 5-minute steps. */
export const MAX_FIT_ROWS = 20_000;
/** Two weeks: a week to look back to and a week of rows to fit. */
export const LOAD_MIN_DAYS = 14;

const TEMPERATURE = 'temperature_c';

export interface LoadRegressionModel extends FittedModel {
  /** Effects in the target's units per unit of each named feature (hour-by-day-type dummies omitted). */
  coefficients: Record<string, number>;
  /** The chosen ridge penalty of the model with lags. */
  lambda: number;
  /** Whether temperature terms entered the model. */
  usesTemperature: boolean;
  /** AR(1) coefficient of the residuals that decays the last residual over the horizon. */
  residualPhi: number;
}

interface Design {
  names: string[];
  /** Row of features for timeline index j, or null when one is missing. */
  row(j: number): number[] | null;
}

const hdd = (temp: number) => Math.max(0, HEATING_BASE_C - temp);
const cdd = (temp: number) => Math.max(0, temp - COOLING_BASE_C);

/**
 * Features on a timeline that covers the history and then the horizon: `y` and `temp` are read at the
 * time of the call, so recursive forecasts written into `y` become tomorrow's lags.
 */
function design(cal: CalendarFeatures, y: number[], temp: number[] | null, sd: number, withLags: boolean): Design {
  const names: string[] = [];
  for (let dt = 0; dt < 3; dt++) for (let h = 0; h < 24; h++) names.push(`hour_${h}_daytype_${dt}`);
  for (let wd = 1; wd <= 7; wd++) names.push(`weekday_${wd}`);
  names.push('holiday');
  if (temp) names.push('hdd', 'cdd');
  if (withLags) {
    names.push('lag_day', 'lag_day_other_daytype', 'lag_week', 'lag_week_and_day');
    if (temp) names.push('hdd_lag_day', 'cdd_lag_day');
  }
  const week = 7 * sd;
  const types = cal.weekday.map((wd, i) => dayType(wd, cal.holiday[i]));
  return {
    names,
    row(j) {
      const x = new Array<number>(names.length).fill(0);
      x[types[j] * 24 + cal.hour[j]] = 1;
      x[72 + cal.weekday[j] - 1] = 1;
      x[79] = cal.holiday[j];
      let c = 80;
      if (temp) {
        if (Number.isNaN(temp[j])) return null;
        x[c++] = hdd(temp[j]);
        x[c++] = cdd(temp[j]);
      }
      if (withLags) {
        if (j < week + sd) return null;
        const lagDay = y[j - sd];
        const lagWeek = y[j - week];
        const lagWeekDay = y[j - week - sd];
        if (Number.isNaN(lagDay) || Number.isNaN(lagWeek) || Number.isNaN(lagWeekDay)) return null;
        x[c++] = lagDay;
        // Monday's yesterday is a Sunday: a second coefficient for a lag of another day type.
        x[c++] = types[j - sd] === types[j] ? 0 : lagDay;
        x[c++] = lagWeek;
        // With yesterday and a week before yesterday, the fit can learn "last week plus this week's change".
        x[c++] = lagWeekDay;
        if (temp) {
          if (Number.isNaN(temp[j - sd])) return null;
          x[c] = hdd(temp[j - sd]);
          x[c + 1] = cdd(temp[j - sd]);
        }
      }
      return x;
    },
  };
}

function usableRows(d: Design, y: number[], from: number, to: number): { rows: number[][]; targets: number[]; index: number[] } {
  const rows: number[][] = [];
  const targets: number[] = [];
  const index: number[] = [];
  for (let j = from; j < to; j++) {
    if (Number.isNaN(y[j])) continue;
    const x = d.row(j);
    if (!x) continue;
    rows.push(x);
    targets.push(y[j]);
    index.push(j);
  }
  return { rows, targets, index };
}

/**
 * AR(1) of the in-sample residuals (regression with autoregressive errors): the coefficient from the
 * residuals of consecutive steps, clipped to [0, 0.99], and the residual of the last history step (0 when
 * that step was not fitted). It carries the latest observation into the first hours of the horizon.
 */
function residualAr(model: Ridge, fitted: Rows, count: number, last: number): { phi: number; lastError: number } {
  let num = 0;
  let den = 0;
  let lastError = 0;
  let prev = NaN;
  let prevIndex = -2;
  for (let r = 0; r < count; r++) {
    const e = fitted.targets[r] - predictRow(model, fitted.rows[r]);
    if (fitted.index[r] === prevIndex + 1) {
      num += e * prev;
      den += prev * prev;
    }
    prev = e;
    prevIndex = fitted.index[r];
    if (prevIndex === last) lastError = e;
  }
  return { phi: den > 0 ? Math.min(0.99, Math.max(0, num / den)) : 0, lastError };
}

/** Temperature over history then horizon, gaps carried forward (a forecast shorter than the horizon keeps its last value). */
function temperatureTimeline(context: FitContext, n: number, steps: number): number[] | null {
  const past = context.history?.[TEMPERATURE];
  const ahead = context.future?.[TEMPERATURE];
  if (!past || !ahead || past.length !== n || !ahead.some(Number.isFinite)) return null;
  const out = past.slice();
  for (let k = 0; k < steps; k++) out.push(k < ahead.length ? ahead[k] : NaN);
  let last = NaN;
  for (let j = 0; j < out.length; j++) {
    if (Number.isFinite(out[j])) last = out[j];
    else if (j >= n) out[j] = last;
  }
  return out;
}

/** What a fit reads of a series: its calendar, values, temperature and usable rows (those of the plain design on demand). */
interface Prepared {
  cal: CalendarFeatures;
  y: number[];
  temp: number[] | null;
  lagged: Rows;
  plain(): Rows;
}

type Rows = ReturnType<typeof usableRows>;

/** The rows of `history` from `from` on, under the temperature the context gives (null: none). */
function prepare(history: RegularSeries, context: FitContext, temp: number[] | null, from: number): Prepared {
  const sd = stepsPerDay(history.stepMinutes);
  const n = history.y.length;
  const y = history.y.slice();
  const cal = calendarFeatures(history.t, context.timezone ?? 'UTC', context.country);
  let plain: Rows | undefined;
  return { cal, y, temp, lagged: usableRows(design(cal, y, temp, sd, true), y, from, n), plain: () => (plain ??= usableRows(design(cal, y, temp, sd, false), y, from, n)) };
}

/** Usable rows of a timeline before index `end` (rows are in timeline order). */
function rowsBefore(rows: Rows, end: number): number {
  let lo = 0;
  let hi = rows.index.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows.index[mid] < end) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const validationRows = (rows: number, sd: number) => (rows >= 21 * sd ? VALIDATION_DAYS * sd : Math.max(1, Math.floor(rows / 4)));

/**
 * The fit on the first `n` steps of a prepared timeline (the whole history, or a validation fold's part of it:
 * its rows are the same, as every feature of a row looks back). `trainSums` are the raw sums of the lagged rows
 * before the penalty's validation rows when the caller has them (loadRegressionFolds).
 */
function fitPrepared(history: RegularSeries, context: FitContext, prep: Prepared, n: number, trainSums?: RawSums): LoadRegressionModel {
  const { stepMinutes } = history;
  const sd = stepsPerDay(stepMinutes);
  const { cal, temp } = prep;
  const laggedCount = rowsBefore(prep.lagged, n);
  const plainRows = prep.plain;
  const plainCount = () => rowsBefore(plainRows(), n);
  const withLags = laggedCount >= 2 * sd ? fitRidge(prep.lagged.rows, prep.lagged.targets, validationRows(laggedCount, sd), laggedCount, trainSums) : null;
  if (!withLags && plainCount() < 2) throw new RangeError('load_regression: fewer than two usable rows in the history');
  // The model without lags serves only steps whose lags are missing: fitted when one is met (it halves a fit's cost).
  let plainModel: Ridge | null = null;
  const withoutLags = () => (plainModel ??= fitRidge(plainRows().rows, plainRows().targets, validationRows(plainCount(), sd), plainCount()));

  const main = withLags ?? withoutLags();
  const ar = residualAr(main, withLags ? prep.lagged : plainRows(), withLags ? laggedCount : plainCount(), n - 1);
  const names = design(cal, prep.y, temp, sd, withLags !== null).names;
  const coefficients: Record<string, number> = {};
  names.forEach((name, c) => {
    if (!name.startsWith('hour_')) coefficients[name] = main.beta[c + 1] / main.scale[c];
  });
  const t = history.t.slice(0, n);
  const y = prep.y.slice(0, n);

  return {
    coefficients,
    lambda: main.lambda,
    usesTemperature: temp !== null,
    residualPhi: ar.phi,
    predict(steps: number): number[] {
      const times = t.concat(futureTimes(t[n - 1], stepMinutes, steps));
      const calAll = calendarFeatures(times, context.timezone ?? 'UTC', context.country);
      const tempAll = temp ? temperatureTimeline(context, n, steps) : null;
      const yAll = y.concat(new Array<number>(steps).fill(NaN));
      const dLags = design(calAll, yAll, tempAll, sd, true);
      let dPlain: Design | null = null;
      const out = new Array<number>(steps);
      let carried = ar.lastError;
      for (let k = 0; k < steps; k++) {
        const j = n + k;
        const xl = withLags ? dLags.row(j) : null;
        const xp = xl ? null : (dPlain ??= design(calAll, yAll, tempAll, sd, false)).row(j);
        carried *= ar.phi;
        out[k] = (withLags && xl ? predictRow(withLags, xl) : xp ? predictRow(withoutLags(), xp) : NaN) + carried;
        yAll[j] = out[k];
      }
      return out;
    },
  };
}

/** First row fitted: at most MAX_FIT_ROWS, the most recent. */
const firstFitted = (n: number) => Math.max(0, n - MAX_FIT_ROWS);

/** Ridge regression of load on calendar, temperature and lags; see the module comment. */
export function fitLoadRegression(history: RegularSeries, context: FitContext): LoadRegressionModel {
  const n = history.y.length;
  // Room in the timeline for the horizon is made at predict time; the fit sees the history only.
  return fitPrepared(history, context, prepare(history, context, temperatureTimeline(context, n, 0), firstFitted(n)), n);
}

/**
 * The validation folds of the load regression in one pass (validation.ts, `foldForecasts`): a fold's rows are the
 * series' rows before its origin, so the design is built once, and the raw sums its ridge fits need are
 * accumulated once, kept at each fold's cut. Each forecast equals the fold's own fit, bit for bit
 * (test/unit/forecasting/load.test.ts); a fold whose window would start later (MAX_FIT_ROWS) is fitted alone.
 */
export function loadRegressionFolds(series: RegularSeries, context: FitContext, folds: readonly FoldInput[], horizonSteps: number): number[][] {
  const sd = stepsPerDay(series.stepMinutes);
  const past = context.history?.[TEMPERATURE];
  const fullTemp = past && past.length === series.y.length ? past.slice() : null;
  const prepared = new Map<boolean, Prepared>();
  const plans = folds.map(({ origin, history, context: foldContext }) => {
    if (firstFitted(origin) > 0) return { origin, history, foldContext, prep: null, cut: -1 };
    // A fold's temperature counts only when its horizon has some (temperatureTimeline), as in its own fit.
    const withTemp = temperatureTimeline(foldContext, origin, 0) !== null;
    let prep = prepared.get(withTemp);
    if (!prep) prepared.set(withTemp, (prep = prepare(series, context, withTemp ? fullTemp : null, 0)));
    const count = rowsBefore(prep.lagged, origin);
    return { origin, history, foldContext, prep, cut: count >= 2 * sd ? count - validationRows(count, sd) : -1 };
  });
  const sumsAt = new Map<Prepared, Map<number, RawSums>>();
  for (const prep of prepared.values()) {
    const cuts = [...new Set(plans.filter((f) => f.prep === prep && f.cut >= 0).map((f) => f.cut))].sort((a, b) => a - b);
    const kept = new Map<number, RawSums>();
    if (cuts.length) {
      const running = emptySums(prep.lagged.rows[0].length);
      for (const cut of cuts) kept.set(cut, copySums(accumulate(running, prep.lagged.rows, prep.lagged.targets, running.count, cut)));
    }
    sumsAt.set(prep, kept);
  }
  return plans.map(({ origin, history, foldContext, prep, cut }) => {
    const model = prep ? fitPrepared(history, foldContext, prep, origin, sumsAt.get(prep)?.get(cut)) : fitLoadRegression(history, foldContext);
    return model.predict(horizonSteps);
  });
}

/** Ridge regression of load on calendar, temperature and lags (ARCHITECTURE 7). */
export const loadRegressionMember: ForecastMember = {
  name: 'load_regression',
  supports: (kind) => kind === 'load' || kind === 'generic',
  minHistory: (stepMinutes) => LOAD_MIN_DAYS * stepsPerDay(stepMinutes),
  fit: fitLoadRegression,
  foldForecasts: loadRegressionFolds,
  holidays: true,
};

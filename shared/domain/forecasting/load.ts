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
import { CholeskyDecomposition, Matrix, solve } from 'ml-matrix';
import { calendarFeatures, dayType, futureTimes, type CalendarFeatures } from './calendar';
import { type FitContext, type FittedModel, type ForecastMember, type RegularSeries, stepsPerDay } from './types';

/** Heating and cooling degree base temperatures (C): the UK's 15.5 C heating base, 22 C for cooling. */
export const HEATING_BASE_C = 15.5;
export const COOLING_BASE_C = 22;
/** Ridge penalties tried, as a multiple of the row count on standardised features. */
export const RIDGE_LAMBDAS = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1];
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

interface Ridge {
  beta: number[];
  mean: number[];
  scale: number[];
  lambda: number;
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

/**
 * Gram matrix and cross-products of standardised rows with an intercept column first. Built from the raw
 * sums over the non-zero entries (most features are one-hot calendar dummies, about 10 of 90 are non-zero
 * per row) and standardised afterwards: sum((x_a - m_a)(x_b - m_b)) = S_ab - m_a s_b - m_b s_a + n m_a m_b.
 */
function normalEquations(rows: number[][], targets: number[], mean: number[], scale: number[]): { gram: Matrix; xty: Matrix } {
  const p = mean.length;
  const n = rows.length;
  const raw = new Float64Array(p * p);
  const sums = new Float64Array(p);
  const crossY = new Float64Array(p);
  let sumY = 0;
  const nonZero: number[] = [];
  for (let r = 0; r < n; r++) {
    const x = rows[r];
    const target = targets[r];
    sumY += target;
    nonZero.length = 0;
    for (let c = 0; c < p; c++) if (x[c] !== 0) nonZero.push(c);
    for (const a of nonZero) {
      sums[a] += x[a];
      crossY[a] += x[a] * target;
      for (const b of nonZero) raw[a * p + b] += x[a] * x[b];
    }
  }
  const gram = new Matrix(p + 1, p + 1);
  const xty = new Matrix(p + 1, 1);
  gram.set(0, 0, n);
  xty.set(0, 0, sumY);
  for (let a = 0; a < p; a++) {
    const centred = (sums[a] - n * mean[a]) / scale[a];
    gram.set(0, a + 1, centred);
    gram.set(a + 1, 0, centred);
    xty.set(a + 1, 0, (crossY[a] - mean[a] * sumY) / scale[a]);
    for (let b = a; b < p; b++) {
      const value = (raw[a * p + b] - mean[a] * sums[b] - mean[b] * sums[a] + n * mean[a] * mean[b]) / (scale[a] * scale[b]);
      gram.set(a + 1, b + 1, value);
      gram.set(b + 1, a + 1, value);
    }
  }
  return { gram, xty };
}

/** Closed-form ridge, (X'X + lambda n D) b = X'y, D = I without the intercept (Hoerl & Kennard 1970). */
function solveRidge(gram: Matrix, xty: Matrix, lambda: number, n: number): number[] {
  const a = gram.clone();
  for (let c = 1; c < a.rows; c++) a.set(c, c, a.get(c, c) + lambda * n);
  const chol = new CholeskyDecomposition(a);
  const b = chol.isPositiveDefinite() ? chol.solve(xty) : solve(a, xty);
  return b.getColumn(0);
}

function predictRow(model: Ridge, x: number[]): number {
  let s = model.beta[0];
  for (let c = 0; c < x.length; c++) s += (model.beta[c + 1] * (x[c] - model.mean[c])) / model.scale[c];
  return s;
}

/** Fits ridge on the usable rows, choosing lambda by the error on the last `validation` rows. */
function fitRidge(rows: number[][], targets: number[], validation: number): Ridge {
  const p = rows[0].length;
  const mean = new Array<number>(p).fill(0);
  const scale = new Array<number>(p).fill(0);
  for (const x of rows) for (let c = 0; c < p; c++) mean[c] += x[c] / rows.length;
  for (const x of rows) for (let c = 0; c < p; c++) scale[c] += (x[c] - mean[c]) ** 2 / rows.length;
  // A constant column (no holidays in the history) standardises to zeros and keeps a zero coefficient.
  for (let c = 0; c < p; c++) scale[c] = Math.sqrt(scale[c]) || 1;

  const cut = rows.length - validation;
  const train = normalEquations(rows.slice(0, cut), targets.slice(0, cut), mean, scale);
  const held = normalEquations(rows.slice(cut), targets.slice(cut), mean, scale);
  let bestLambda = RIDGE_LAMBDAS[0];
  let bestSse = Infinity;
  for (const lambda of RIDGE_LAMBDAS) {
    const model = { beta: solveRidge(train.gram, train.xty, lambda, cut), mean, scale, lambda };
    let sse = 0;
    for (let r = cut; r < rows.length; r++) sse += (targets[r] - predictRow(model, rows[r])) ** 2;
    if (sse < bestSse) {
      bestSse = sse;
      bestLambda = lambda;
    }
  }
  const all = { gram: train.gram.add(held.gram), xty: train.xty.add(held.xty) };
  return { beta: solveRidge(all.gram, all.xty, bestLambda, rows.length), mean, scale, lambda: bestLambda };
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
function residualAr(model: Ridge, fitted: { rows: number[][]; targets: number[]; index: number[] }, last: number): { phi: number; lastError: number } {
  let num = 0;
  let den = 0;
  let lastError = 0;
  let prev = NaN;
  let prevIndex = -2;
  for (let r = 0; r < fitted.rows.length; r++) {
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

/** Ridge regression of load on calendar, temperature and lags; see the module comment. */
export function fitLoadRegression(history: RegularSeries, context: FitContext): LoadRegressionModel {
  const { stepMinutes } = history;
  const sd = stepsPerDay(stepMinutes);
  const n = history.y.length;
  // Room in the timeline for the horizon is made at predict time; the fit sees the history only.
  const temp = temperatureTimeline(context, n, 0);
  const y = history.y.slice();
  const cal = calendarFeatures(history.t, context.timezone ?? 'UTC', context.country);
  const from = Math.max(0, n - MAX_FIT_ROWS);
  const validationOf = (rows: number) => (rows >= 21 * sd ? VALIDATION_DAYS * sd : Math.max(1, Math.floor(rows / 4)));

  const lagged = usableRows(design(cal, y, temp, sd, true), y, from, n);
  const plain = usableRows(design(cal, y, temp, sd, false), y, from, n);
  if (plain.rows.length < 2) throw new RangeError('load_regression: fewer than two usable rows in the history');
  const withLags = lagged.rows.length >= 2 * sd ? fitRidge(lagged.rows, lagged.targets, validationOf(lagged.rows.length)) : null;
  const withoutLags = fitRidge(plain.rows, plain.targets, validationOf(plain.rows.length));

  const main = withLags ?? withoutLags;
  const ar = residualAr(main, withLags ? lagged : plain, n - 1);
  const names = design(cal, y, temp, sd, withLags !== null).names;
  const coefficients: Record<string, number> = {};
  names.forEach((name, c) => {
    if (!name.startsWith('hour_')) coefficients[name] = main.beta[c + 1] / main.scale[c];
  });

  return {
    coefficients,
    lambda: main.lambda,
    usesTemperature: temp !== null,
    residualPhi: ar.phi,
    predict(steps: number): number[] {
      const times = history.t.concat(futureTimes(history.t[n - 1], stepMinutes, steps));
      const calAll = calendarFeatures(times, context.timezone ?? 'UTC', context.country);
      const tempAll = temp ? temperatureTimeline(context, n, steps) : null;
      const yAll = y.concat(new Array<number>(steps).fill(NaN));
      const dLags = design(calAll, yAll, tempAll, sd, true);
      const dPlain = design(calAll, yAll, tempAll, sd, false);
      const out = new Array<number>(steps);
      let carried = ar.lastError;
      for (let k = 0; k < steps; k++) {
        const j = n + k;
        const xl = withLags ? dLags.row(j) : null;
        const xp = xl ? null : dPlain.row(j);
        carried *= ar.phi;
        out[k] = (withLags && xl ? predictRow(withLags, xl) : xp ? predictRow(withoutLags, xp) : NaN) + carried;
        yAll[j] = out[k];
      }
      return out;
    },
  };
}

/** Ridge regression of load on calendar, temperature and lags (ARCHITECTURE 7). */
export const loadRegressionMember: ForecastMember = {
  name: 'load_regression',
  supports: (kind) => kind === 'load' || kind === 'generic',
  minHistory: (stepMinutes) => LOAD_MIN_DAYS * stepsPerDay(stepMinutes),
  fit: fitLoadRegression,
};

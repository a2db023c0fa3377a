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
import { fitRidge, predictRow, type Ridge } from './ridge';
import { type FitContext, type FittedModel, type ForecastMember, type RegularSeries, stepsPerDay } from './types';

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
  // The model without lags serves only steps whose lags are missing: fitted when one is met (it halves a fit's cost).
  let plainModel: Ridge | null = null;
  const withoutLags = () => (plainModel ??= fitRidge(plain.rows, plain.targets, validationOf(plain.rows.length)));

  const main = withLags ?? withoutLags();
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

/** Ridge regression of load on calendar, temperature and lags (ARCHITECTURE 7). */
export const loadRegressionMember: ForecastMember = {
  name: 'load_regression',
  supports: (kind) => kind === 'load' || kind === 'generic',
  minHistory: (stepMinutes) => LOAD_MIN_DAYS * stepsPerDay(stepMinutes),
  fit: fitLoadRegression,
};

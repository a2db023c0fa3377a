/**
 * Autoregressive wind power (ARCHITECTURE 7): a direct regression per lead (wind-direct.ts) of the power at
 * t+k on the recent power at several time scales, the last value and the means over the last 1, 3 and 6
 * hours (the heterogeneous autoregression of Corsi 2009, J. Financ. Econom. 7:174-196: a few averages stand
 * in for many lags), and the mean of the hour before the last, estimated on the history by least squares.
 * That last term frees the power's trend over the last hour from the averages, which tie the hours before
 * the last one together: on hourly GEFCom farms it lifted the first hour's skill over persistence from 0.02-0.10
 * to 0.03-0.15 (TUNE farms 1-3 +0.005 to +0.05, every REPORT farm up too).
 * With a wind-speed forecast over the horizon (NWP, `future.wind_speed_ms`, the history's speeds from the
 * same source), the power curve of the forecast speed at t+k is the lead's own regressor and the curve of
 * the recent speeds joins the features: a model-output-statistics correction (Glahn & Lowry 1972,
 * J. Appl. Meteorol. 11:1203-1211) that learns how far to trust the NWP at each lead and how long its
 * current error persists. Each lead keeps whichever of these nested models validates best on the latest
 * rows; a lead whose forecast speed is missing uses the best model without it.
 * Measured speed in the history alone is not a regressor: on La Haute Borne R80721 neither its power curve
 * nor an autoregression of the speed carried through the curve beat the power's own history. Forecasts lie
 * within 0 and the rated power (wind-bounds.ts), the NWP power curve's plateau counting toward the latter.
 */
import { finiteMean } from './baselines';
import { stepsPerDay, type FitContext, type FittedModel, type ForecastMember, type RegularSeries } from './types';
import { fitPowerCurve, type PowerCurve } from './wind';
import { clampPower, ratedPower } from './wind-bounds';
import { type DirectFit, fitDirect, leadGrid, predictLead, trailingMean } from './wind-direct';

const WIND_SPEED = 'wind_speed_ms';
/** Averaging windows of the recent power (0: the last value alone). */
export const WIND_AR_WINDOWS_MINUTES = [0, 60, 180, 360];
/** The window of the mean a window earlier: the hour before the last, against the last hour's mean. */
export const WIND_AR_TREND_MINUTES = 60;
/** Averaging windows of the power curve of the history's NWP speeds: the persistence of the NWP's error. */
export const NWP_WINDOWS_MINUTES = [0, 180, 360];
/**
 * Rows fitted at most: 56 days at 10 minutes. It bounds the fit time (under 20 ms) and keeps the model on
 * the recent regime; hourly data keeps 336 days.
 */
export const MAX_FIT_ROWS = 8064;
/** Leads past this many hours reuse the last fitted lead's model (the forecast has reached climatology). */
export const MAX_DIRECT_LEAD_HOURS = 48;

export interface WindArModel extends FittedModel {
  /** The power curve of the history's speeds, or null without speeds over both the history and the horizon. */
  curve: PowerCurve | null;
  /** The upper bound of the forecasts. */
  rated: number;
}

/** Options of fitWindAr for comparisons: whether the speed information is used at all. */
export interface WindArChoices {
  useSpeed: boolean;
}

const lastFinite = (values: ArrayLike<number>) => {
  for (let i = values.length - 1; i >= 0; i--) if (Number.isFinite(values[i])) return values[i];
  return NaN;
};

/** The values `steps` earlier (NaN before the start). */
const delayed = (values: Float64Array, steps: number) => {
  const out = new Float64Array(values.length).fill(NaN);
  if (steps < values.length) out.set(values.subarray(0, values.length - steps), steps);
  return out;
};

export function fitWindAr(history: RegularSeries, context: FitContext, choices: WindArChoices = { useSpeed: true }): WindArModel {
  const { stepMinutes } = history;
  const from = Math.max(0, history.y.length - MAX_FIT_ROWS);
  const y = history.y.slice(from);
  const n = y.length;
  const pastSpeedAll = context.history?.[WIND_SPEED];
  const pastSpeed = choices.useSpeed && pastSpeedAll?.length === history.y.length ? pastSpeedAll.slice(from) : undefined;
  const futureSpeed = choices.useSpeed ? context.future?.[WIND_SPEED] : undefined;
  // The curve serves the NWP only: measured speed in the history alone does not improve the forecast.
  const curve = pastSpeed && futureSpeed ? fitPowerCurve(pastSpeed, y) : null;
  const rated = ratedPower(y, context, curve ? curve.power[curve.power.length - 1] : undefined);
  const steps = (minutes: number) => Math.max(1, Math.round(minutes / stepMinutes));

  const widths = [...new Set(WIND_AR_WINDOWS_MINUTES.map(steps))];
  const columns: Float64Array[] = widths.map((w) => trailingMean(y, w));
  const trend = steps(WIND_AR_TREND_MINUTES);
  columns.push(delayed(trailingMean(y, trend), trend));
  const powerColumns = columns.length;
  const nwp = curve && pastSpeed && futureSpeed ? Float64Array.from(pastSpeed, (v) => (Number.isFinite(v) ? curve.evaluate(v) : NaN)) : null;
  if (nwp) for (const w of new Set(NWP_WINDOWS_MINUTES.map(steps))) columns.push(trailingMean(nwp, w));
  const origin = columns.map(lastFinite);
  let lastIndex = n - 1;
  while (lastIndex >= 0 && !Number.isFinite(y[lastIndex])) lastIndex--;
  // Steps since the last observation: the lead of a forecast counts from it.
  const stale = lastIndex >= 0 ? n - 1 - lastIndex : 0;
  const firstRow = Math.max(...widths, 2 * trend) - 1;
  const mean = finiteMean(y) || 0;

  const maxLead = steps(MAX_DIRECT_LEAD_HOURS * 60);
  const fits = new Map<number, DirectFit | null>();
  const fitFor = (K: number) => {
    if (!fits.has(K)) {
      const grid = leadGrid(K);
      // The NWP regressor of lead k at row i is the curve of the (history's) forecast speed at i + k.
      const shifted = (k: number) => {
        const out = new Float64Array(n).fill(NaN);
        for (let i = 0; i + k < n; i++) out[i] = nwp![i + k];
        return out;
      };
      // Each lead chooses between the power alone and the power with the speed's features (wind-direct.ts).
      fits.set(K, fitDirect(columns, y, grid, firstRow, nwp ? shifted : undefined, [powerColumns, columns.length]));
    }
    return fits.get(K)!;
  };

  return {
    curve,
    rated,
    predict(horizon: number): number[] {
      const K = Math.min(horizon + stale, maxLead);
      const fit = fitFor(K);
      const fallback = clampPower(Number.isFinite(origin[0]) ? origin[0] : mean, rated);
      return Array.from({ length: horizon }, (_, j) => {
        if (!fit || origin.some((v) => !Number.isFinite(v))) return fallback;
        const k = Math.min(j + 1 + stale, K);
        const speed = futureSpeed?.[j];
        const extra = nwp && speed !== undefined && Number.isFinite(speed) ? curve!.evaluate(speed) : NaN;
        return clampPower(predictLead(fit, k, origin, extra), rated);
      });
    },
  };
}

/** Direct autoregression of wind power, with the power curve of forecast wind speed when given. */
export const windArMember: ForecastMember = {
  name: 'wind_ar',
  supports: (kind) => kind === 'wind',
  minHistory: (stepMinutes) => 2 * stepsPerDay(stepMinutes),
  fit: (history, context) => fitWindAr(history, context),
};

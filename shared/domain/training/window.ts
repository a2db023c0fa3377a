/**
 * The history a site's model trains and serves on: a bounded window read from the store (never the whole
 * history, so a site is never refused for having too much), at the step the members need.
 *
 * What each member (domain/forecasting/members.ts, plus the feature regression) reads of that window. Site
 * series are solar, load, wind or generic (inferKind never infers prices), so the price members do not train
 * here. Every member is fitted on 15-minute or coarser steps: finer data is averaged to 15 minutes first.
 * - persistence, seasonal_naive, smart_persistence, mean_profile_7d: the last day to PROFILE_DAYS (7) days.
 * - solar_clear_sky, clear_sky_index_persistence: the last SOLAR_FIT_DAYS (14) days; hourly weather, so
 *   15-minute steps lose nothing the irradiance explains.
 * - pv_physical: the site's PV specs and the last PV_TUNING_DAYS (30) days for its correction.
 * - double_seasonal_holt_winters, holt_winters_daily: at most HW_MAX_HISTORY_WEEKS (12) weeks.
 * - load_regression: its last MAX_FIT_ROWS (20,000) rows, 208 days at 15 minutes.
 * - mstl_ets: the whole window given it (two seasonal periods, day and week, need 14 days at least).
 * - wind_power_curve, nielsen_blend, wind_ar: wind_ar its last 8,064 rows (84 days at 15 minutes).
 * - feature_regression: every complete row of the window; its calendar features see a whole year, which is
 *   why the window is a year and a month, and the training's test split (a tenth) stays within it.
 * Serving re-fits the members on the last SERVING_HISTORY_DAYS (serve.ts), resampled to the model's step.
 */
import { ForecastInputError } from '../forecasting/regularise';
import type { RegularSeries } from '../forecasting/types';
import { DAY_MS } from '../time';

/**
 * Days of a site's latest history a model trains on: a year for the calendar features, and a month more for the
 * test. Read before regularise, so at the finest stored step (5 minutes, 115,200 points) it stays within
 * regularise's MAX_GRID_POINTS.
 */
export const TRAINING_WINDOW_DAYS = 400;
/** The finest step the members are fitted on, minutes: 5-minute data is averaged to 15 minutes (three times fewer points to fit, validate and keep in memory). */
export const MODEL_MIN_STEP_MINUTES = 15;
/** A step the model is resampled to divides the hour, so its grid stays on whole hours (the weather is hourly). */
const HOUR_MINUTES = 60;

/** The first instant of the training window that ends at `lastMs` (the site's latest data point). */
export const trainingWindowStart = (lastMs: number, days = TRAINING_WINDOW_DAYS): number => lastMs - days * DAY_MS;

/**
 * The step a model fits a series of `stepMinutes` on: the step itself from MODEL_MIN_STEP_MINUTES up, else the
 * smallest whole multiple of it that is at least MODEL_MIN_STEP_MINUTES and divides the hour (5 -> 15, 10 -> 20);
 * a step with no such multiple is kept.
 */
export function modelStepMinutes(stepMinutes: number): number {
  if (stepMinutes >= MODEL_MIN_STEP_MINUTES) return stepMinutes;
  for (let step = stepMinutes; step <= HOUR_MINUTES; step += stepMinutes) if (step >= MODEL_MIN_STEP_MINUTES && HOUR_MINUTES % step === 0) return step;
  return stepMinutes;
}

/**
 * The series averaged to `stepMinutes` (a whole multiple of its own step): each value is the mean of the known
 * values in [T, T + step), labelled T, with T on the UTC grid of that step, so a bucket keeps the labelling
 * convention of its first sample; a bucket with no known value is missing (NaN). Leading and trailing partial
 * buckets are kept as means of what they hold.
 * @throws ForecastInputError when the step is not a whole multiple of the series' step
 */
export function resampleMean(series: RegularSeries, stepMinutes: number): RegularSeries {
  if (stepMinutes === series.stepMinutes) return series;
  const factor = stepMinutes / series.stepMinutes;
  if (!Number.isInteger(factor) || factor < 1) throw new ForecastInputError(`A ${series.stepMinutes}-minute series cannot be averaged to ${stepMinutes}-minute steps; the step must be a whole multiple of the series' step`);
  const n = series.t.length;
  if (!n) return { t: [], y: [], stepMinutes };
  const stepMs = stepMinutes * 60_000;
  const first = Math.floor(series.t[0] / stepMs) * stepMs;
  const length = Math.floor((series.t[n - 1] - first) / stepMs) + 1;
  const sums = new Float64Array(length);
  const counts = new Uint32Array(length);
  for (let i = 0; i < n; i++) {
    const v = series.y[i];
    if (!Number.isFinite(v)) continue;
    const k = Math.floor((series.t[i] - first) / stepMs);
    sums[k] += v;
    counts[k]++;
  }
  const t = Array.from({ length }, (_, k) => first + k * stepMs);
  const y = Array.from({ length }, (_, k) => (counts[k] ? sums[k] / counts[k] : NaN));
  return { t, y, stepMinutes };
}

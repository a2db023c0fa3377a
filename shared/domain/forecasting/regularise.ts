/**
 * From raw points to the regular series the members fit on, and the checks the forecast endpoint runs
 * before fitting. Every rejection is a ForecastInputError whose message says what to fix.
 */
import { HOUR_MS, type RegularSeries } from './types';

/** Why a series cannot be forecast as given; the endpoint answers 400 with the message. */
export class ForecastInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ForecastInputError';
  }
}

/** Steps the engine accepts, minutes (ARCHITECTURE 7: 5-minute to hourly data). */
export const MIN_STEP_MINUTES = 5;
export const MAX_STEP_MINUTES = 60;
/** Largest grid built from one request: two years of 5-minute values. */
export const MAX_GRID_POINTS = 2 * 366 * 288;
/** History every forecast needs at least, hours: two daily cycles (one to fit, one to compare). */
export const MIN_HISTORY_HOURS = 48;
/** Share of the last MIN_HISTORY_HOURS that must hold values. */
export const MIN_RECENT_COMPLETENESS = 0.5;
/** A point further than this share of a step from the grid makes the series irregular. */
const GRID_TOLERANCE = 0.25;

export interface RawPoint {
  t: number;
  value: number;
}

const iso = (t: number) => (Number.isFinite(t) ? new Date(t).toISOString() : String(t));
const hours = (h: number) => (Number.isInteger(h) ? String(h) : h.toFixed(1));

/** The most common positive difference between consecutive timestamps, ms. */
function modalStep(times: readonly number[]): number {
  const counts = new Map<number, number>();
  for (let i = 1; i < times.length; i++) {
    const d = times[i] - times[i - 1];
    counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  let best = 0;
  let bestCount = 0;
  for (const [d, c] of counts) {
    if (c > bestCount || (c === bestCount && d < best)) [best, bestCount] = [d, c];
  }
  return best;
}

/**
 * Places raw points on a regular UTC grid: the step is the most common interval between timestamps
 * (5 to 60 whole minutes), the grid starts at the first timestamp, gaps become NaN.
 * @throws ForecastInputError for a non-numeric value or timestamp, a duplicated or decreasing timestamp,
 *   a step outside 5..60 minutes, points off the grid, or fewer than 2 points
 */
export function regularise(points: readonly RawPoint[]): RegularSeries {
  if (points.length < 2) throw new ForecastInputError(`At least 2 points are needed to infer the time step, got ${points.length}`);
  points.forEach((p, i) => {
    if (typeof p.t !== 'number' || !Number.isFinite(p.t)) throw new ForecastInputError(`Point ${i} has no valid timestamp (${String(p.t)}); give each point an ISO 8601 time`);
    if (typeof p.value !== 'number' || !Number.isFinite(p.value)) {
      throw new ForecastInputError(`Point ${i} at ${iso(p.t)} has a non-numeric value (${JSON.stringify(p.value)}); send numbers only and leave missing intervals out`);
    }
    if (i > 0) {
      const previous = points[i - 1].t;
      if (p.t === previous) throw new ForecastInputError(`Timestamp ${iso(p.t)} appears more than once; send one value per interval (merge or drop the duplicate)`);
      if (p.t < previous) throw new ForecastInputError(`Timestamp ${iso(p.t)} comes after ${iso(previous)}; sort the points by time, oldest first`);
    }
  });
  const times = points.map((p) => p.t);
  const stepMs = modalStep(times);
  const stepMinutes = stepMs / 60_000;
  if (!Number.isInteger(stepMinutes) || stepMinutes < MIN_STEP_MINUTES || stepMinutes > MAX_STEP_MINUTES) {
    throw new ForecastInputError(`The most common interval between points is ${+stepMinutes.toFixed(2)} minutes; resample to a regular step of ${MIN_STEP_MINUTES} to ${MAX_STEP_MINUTES} whole minutes`);
  }
  const start = times[0];
  const length = Math.round((times[times.length - 1] - start) / stepMs) + 1;
  if (length > MAX_GRID_POINTS) throw new ForecastInputError(`The series spans ${length} intervals of ${stepMinutes} minutes, more than ${MAX_GRID_POINTS}; send a shorter history`);
  const t = Array.from({ length }, (_, i) => start + i * stepMs);
  const y = new Array<number>(length).fill(NaN);
  for (const p of points) {
    const position = (p.t - start) / stepMs;
    const index = Math.round(position);
    if (Math.abs(position - index) > GRID_TOLERANCE) {
      throw new ForecastInputError(
        `Timestamp ${iso(p.t)} is off the ${stepMinutes}-minute grid that starts at ${iso(start)}; resample the series to a regular ${stepMinutes}-minute step`,
      );
    }
    if (!Number.isNaN(y[index])) throw new ForecastInputError(`Timestamps near ${iso(t[index])} fall in the same ${stepMinutes}-minute interval; send one value per interval`);
    y[index] = p.value;
  }
  return { t, y, stepMinutes };
}

/**
 * Whether a series has enough recent history for a horizon: at least max(48 hours, the horizon), and at
 * least half of the last 48 hours with values.
 * @throws ForecastInputError saying how much is given and how much is needed
 */
export function checkHistory(series: RegularSeries, horizonSteps: number): void {
  if (!Number.isInteger(horizonSteps) || horizonSteps < 1) throw new ForecastInputError(`The horizon must be a positive whole number of steps, got ${horizonSteps}`);
  const stepHours = series.stepMinutes / 60;
  const givenHours = series.t.length * stepHours;
  const horizonHours = horizonSteps * stepHours;
  const neededHours = Math.max(MIN_HISTORY_HOURS, horizonHours);
  if (givenHours + 1e-9 < neededHours) {
    throw new ForecastInputError(`History too short: ${hours(givenHours)} hours given, at least ${hours(neededHours)} hours are needed for a ${hours(horizonHours)}-hour horizon`);
  }
  const recentSteps = Math.round((MIN_HISTORY_HOURS * HOUR_MS) / (series.stepMinutes * 60_000));
  const recent = series.y.slice(-recentSteps);
  const share = recent.filter(Number.isFinite).length / recent.length;
  if (share < MIN_RECENT_COMPLETENESS) {
    throw new ForecastInputError(
      `Too many missing values: ${Math.round(share * 100)}% of the last ${MIN_HISTORY_HOURS} hours have values, at least ${MIN_RECENT_COMPLETENESS * 100}% are needed; fill the gaps or send more recent data`,
    );
  }
}

/**
 * Fills missing values of values[0, end) in place: linearly between known values, the first known value before
 * them and the last after them (a series with no known value is left as it is).
 */
export function fillLinear(values: Float64Array, end = values.length): void {
  let previous = -1;
  for (let i = 0; i < end; i++) {
    if (!Number.isFinite(values[i])) continue;
    if (previous === -1) values.fill(values[i], 0, i);
    else for (let k = previous + 1; k < i; k++) values[k] = values[previous] + ((values[i] - values[previous]) * (k - previous)) / (i - previous);
    previous = i;
  }
  if (previous >= 0) values.fill(values[previous], previous + 1, end);
}

/**
 * Observe stage of asset operations (ARCHITECTURE 7): compares an asset's measured output with its expected
 * output and flags what a fault or a bad sensor leaves in the data. Each step carries at most one kind, taken
 * in this order: impossible_value, spike, straight_line, zero_output, flatline, clipping, underperformance.
 * Steps of one kind that follow each other (for zero output and underperformance: with only night or
 * unassessed steps between them) make one anomaly. Linear in the number of steps.
 */
import { stepsPerDay } from '../forecasting/types';
import { expectedOutput, type AssetSpec, type ExpectedOutput, type OutputSeries } from './expected-output';
import { roundHalfUp } from '../rounding';
import { iso } from '../time';

export type { AssetSpec, OutputSeries } from './expected-output';

export type AnomalyKind = 'underperformance' | 'zero_output' | 'flatline' | 'straight_line' | 'clipping' | 'spike' | 'impossible_value';

export interface Anomaly {
  kind: AnomalyKind;
  /** Epoch ms of the first step. */
  start: number;
  /** Epoch ms of the last step (inclusive). */
  end: number;
  /** Flagged steps (night steps an anomaly spans are not counted). */
  steps: number;
  severity: 'critical' | 'warning' | 'info';
  /** Energy lost against the expected output over the anomaly, kWh; 0 where the data, not the output, is at fault. */
  energyAtRiskKwh: number;
  evidence: Record<string, number | string>;
}

export interface DetectionResult {
  anomalies: Anomaly[];
  /** Expected output at each step of the input, kW (NaN where no model could be built). */
  expectedKw: number[];
  /** Steps with a measurement. */
  checkedSteps: number;
  /** Steps with a measurement while the sun was up. */
  daylightSteps: number;
  message: string;
}

export interface DetectionOptions {
  /** Only these kinds (all by default). */
  kinds?: readonly AnomalyKind[];
}

// --- Thresholds. Shares are of the capacity (AC rating) unless said otherwise. ---

/** Above this multiple of the AC rating no inverter delivers: a meter or scaling error. */
export const MAX_OUTPUT_SHARE = 1.2;
/** An inverter draws well under 1% of its rating at night; below minus this share is a sign or meter error. */
export const SELF_CONSUMPTION_SHARE = 0.02;
/** Hampel filter (Hampel 1974; Pearson 2002): steps either side in the moving window. */
export const HAMPEL_HALF_WINDOW = 3;
/** Hampel filter: deviations from the window median beyond this many robust standard deviations. */
export const HAMPEL_K = 3;
/** MAD to standard deviation for normal data. */
const MAD_TO_SIGMA = 1.4826;
/** A spike also jumps at least this share away from both neighbours (small swings are clouds). */
export const SPIKE_MIN_JUMP_SHARE = 0.2;
/** Below this share of expected output the Hampel filter runs on values rather than on ratios to the expected. */
const SPIKE_RATIO_MIN_EXPECTED_SHARE = 0.05;
/**
 * A spike up exceeds the clear-sky output by more than cloud enhancement does over an interval (SERF East
 * reaches 1.5x in 15 minutes on 2016-07-01; the labelled spike of inverter 7539 is 1.7x).
 */
export const CLOUD_ENHANCEMENT_MAX = 1.6;
/**
 * ...or above this multiple of the AC rating, the inverter's own limit, which no sky lifts it past (a
 * summer noon's clear sky is near the rating, so a meter glitch there would not exceed 1.6x of it).
 */
export const SPIKE_ABOVE_RATING_SHARE = 1.05;
/** A spike down falls below this share of the clear-sky output: a cloud's shadow still leaves the diffuse light. */
export const CLOUD_SHADOW_MIN_RATIO = 0.15;
/** Output at or below this share of the capacity is "zero"... */
export const ZERO_OUTPUT_SHARE = 0.01;
/**
 * ...and at or below this share of the day's own clear-sky peak: a winter day's peak is a quarter of the rating
 * in Berlin, and the output under a heavy overcast there (a tenth of clear sky) must not read as zero.
 */
export const ZERO_OF_DAY_PEAK_SHARE = 0.03;
/**
 * Zero output is judged on steps where at least this share of the day's own clear-sky peak was expected: the
 * hours around noon in any season (a fixed share of the capacity is never reached on a high-latitude winter day,
 * so a dead inverter went unseen there). With the sun lower, heavy overcast or fog keeps an inverter asleep
 * (SERF East shows it on autumn mornings).
 */
export const ZERO_MIN_EXPECTED_OF_DAY_PEAK = 0.3;
/** A day whose clear-sky peak is below this share of the capacity (polar night, a series without sun) is not judged. */
export const ZERO_MIN_DAY_PEAK_SHARE = 0.02;
/** A run of zeros lasts at least this long (a storm can darken a single interval)... */
export const ZERO_MIN_MINUTES = 45;
/**
 * ...or this long when it starts before the day's first output or ends after its last: an inverter that has not
 * woken up under a dark morning sky looks like one that tripped (SERF East, 2016-09-13, 06:45 MST).
 */
export const ZERO_AT_DAY_EDGE_MIN_MINUTES = 120;
/**
 * A run shorter than ZERO_CERTAIN_MINUTES is an outage only when the sun is seen on both sides of it (on the one
 * side with output, at a day's edge): output over ZERO_EDGE_MINUTES next to the run at least this share of the
 * expected. A trip falls from full output to nothing in one step; a thunderstorm dims the output first and can
 * put the inverter to sleep for half an hour (SERF East, 2016-08-19, 15:45-16:15 MST).
 */
export const ZERO_EDGE_MIN_RATIO = 0.25;
export const ZERO_EDGE_MINUTES = 60;
/**
 * Zeros over this long with the sun at ZERO_MIN_EXPECTED_OF_DAY_PEAK of its day's peak, or over a whole day, are
 * an outage whatever the neighbours: the diffuse light under the thickest overcast still gives a working array
 * several per cent of its clear-sky output (snow cover also gives zero for days: a loss to act on as well).
 */
export const ZERO_CERTAIN_MINUTES = 180;
/** Values within this share of each other are "the same value" for a flatline (a stuck register repeats exactly). */
export const FLAT_TOLERANCE_SHARE = 0.0005;
/** A flatline lasts at least this long... */
export const FLATLINE_MIN_MINUTES = 60;
/** ...while the expected output moves by at least this share. */
export const FLATLINE_MIN_EXPECTED_CHANGE_SHARE = 0.05;
/** An inverter holding its limit stays within this share (MPPT regulation and averaging). */
export const CLIPPING_TOLERANCE_SHARE = 0.003;
/** A flat top lasts at least this long to count as clipping. */
export const CLIPPING_MIN_MINUTES = 60;
/** Flat tops below this share are not clipping (night, dawn). */
export const CLIPPING_MIN_LEVEL_SHARE = 0.2;
/** A flat run is at an output limit when the uncapped potential exceeds its level on this share of its steps... */
export const CLIPPING_MIN_EXCEED_SHARE = 0.8;
/** ...or when its level is at least this share of the highest output within CLIPPING_TOP_WINDOW_DAYS (an inverter limit is the top)... */
export const CLIPPING_TOP_SHARE = 0.98;
export const CLIPPING_TOP_WINDOW_DAYS = 7;
/**
 * ...but never when, on more than CLIPPING_MAX_STARVED_SHARE of its steps, the potential is more than
 * CLIPPING_POTENTIAL_SLACK below the level: the sun could not give that output there, so the value is stuck.
 */
export const CLIPPING_POTENTIAL_SLACK = 0.2;
export const CLIPPING_MAX_STARVED_SHARE = 0.2;
/** Below the top, values within this share of each other over a flat run are one value repeated: stuck, not regulated. */
export const EXACT_REPEAT_SHARE = 1e-6;
/**
 * Over a flat top the potential must move by at least this share more than the output does: near noon a
 * clear day's output is naturally flat for three quarters of an hour, an output limit holds while the sun moves.
 */
export const CLIPPING_MIN_POTENTIAL_CHANGE_SHARE = 0.05;
/** Second differences within this share are zero: a logger's straight-line fill (floating-point noise is far below). */
export const STRAIGHT_LINE_TOLERANCE_SHARE = 1e-7;
/** ...on a slope of at least this share per step (flat runs are flatlines, not lines). */
export const STRAIGHT_LINE_MIN_SLOPE_SHARE = 1e-6;
/** ...and of at least this many times the decimal quantum the values are written in (rounded data make short lines by chance). */
export const STRAIGHT_LINE_MIN_SLOPE_QUANTA = 10;
/** Decimal places beyond which values count as not rounded. */
const MAX_QUANTUM_DIGITS = 9;
/** Consecutive collinear interior steps that make a straight-line segment. */
export const STRAIGHT_LINE_MIN_STEPS = 3;
/** Underperformance: measured below this share of the expected output times the clean level (CLEAN_LEVEL_WINDOW_DAYS)... */
export const UNDERPERFORMANCE_RATIO = 0.75;
/**
 * ...on steps where at least this share was expected: with the sun low, the horizon and the clear-sky model's
 * errors at high air mass dominate (SERF East's July late afternoons fall 40% short of the model, likely the
 * foothills west of Golden)...
 */
export const UNDERPERFORMANCE_MIN_EXPECTED_SHARE = 0.25;
/** ...for at least this long... */
export const UNDERPERFORMANCE_MIN_MINUTES = 60;
/**
 * ...and on this many consecutive days at the same time of day (before or after): clouds rarely hide the sun
 * at the same hour day after day, a fault does. Not needed when the series carries irradiance.
 */
export const ENVELOPE_DAYS = 4;
/** Daily underperformance: the best of DAILY_ENVELOPE_DAYS consecutive days falls this share below the clean level. */
export const DAILY_LOSS_THRESHOLD = 0.1;
/** A week: most climates give at least one clear noon in seven days; monsoon afternoons in Colorado do not in four. */
export const DAILY_ENVELOPE_DAYS = 7;
/**
 * The clean level at a day is read over the days within this many days of it: the clear-sky model drifts by a
 * few per cent over the seasons (SERF East: July 5-8% above September).
 */
export const CLEAN_LEVEL_WINDOW_DAYS = 60;
/** A day's performance ratio is read on steps with at least this share of the day's highest expected output. */
const DAILY_PR_MIN_EXPECTED_OF_PEAK = 0.5;
/**
 * Quantile of the step ratios around noon that stands for a day's performance ratio: the median, which on a
 * clear day is steady from day to day (the model's shape errors come back at the same hours), while clouds only
 * lower it (ENVELOPE_DAYS then looks past them). A high quantile chased cloud enhancement and broke on SERF East.
 */
const DAILY_PR_QUANTILE = 0.5;
/** High quantile of the daily ratios that stands for the clean, clear level. */
const BASELINE_QUANTILE = 0.9;
/** Steps a day needs for a performance ratio, in number and as a share of its central steps. */
const MIN_STEPS_FOR_DAILY_PR = 4;
const MIN_JUDGED_SHARE_FOR_DAILY_PR = 0.5;
/** Largest grid built from one series: two years of 5-minute steps. */
export const MAX_GRID_STEPS = 2 * 366 * 288;
/** A timestamp further than this share of a step from the grid is dropped. */
const GRID_TOLERANCE = 0.25;

// A logger's straight line comes before zero output and flatline: it says the values were invented, so what
// they show (a slow ramp near zero, a near-flat stretch) is not the asset's behaviour.
const KIND_ORDER: readonly AnomalyKind[] = ['impossible_value', 'spike', 'straight_line', 'zero_output', 'flatline', 'clipping', 'underperformance'];
/** Kinds whose steps merge across night and unassessed steps. */
const MERGE_ACROSS_GAPS: ReadonlySet<AnomalyKind> = new Set(['zero_output', 'underperformance']);

/** The series on a regular grid, with where each input point went. */
interface Grid {
  t: number[];
  y: Float64Array;
  irradiance?: number[];
  temperature?: number[];
  /** Grid index of each input point (-1 when dropped). */
  position: Int32Array;
  dropped: number;
}

function toGrid(series: OutputSeries): Grid | string {
  const { t, powerKw, stepMinutes } = series;
  const stepMs = stepMinutes * 60_000;
  const t0 = t[0];
  const last = t[t.length - 1];
  if (!Number.isFinite(t0) || !Number.isFinite(last) || last < t0) return 'the timestamps are not finite and increasing';
  const length = Math.round((last - t0) / stepMs) + 1;
  if (length > MAX_GRID_STEPS) return `the series spans ${length} steps of ${stepMinutes} minutes; at most ${MAX_GRID_STEPS} are examined at once`;
  const y = new Float64Array(length).fill(NaN);
  const filled = new Uint8Array(length);
  const position = new Int32Array(t.length).fill(-1);
  const irradiance = series.irradianceWm2?.length === t.length ? new Array<number>(length).fill(NaN) : undefined;
  const temperature = series.temperatureC?.length === t.length ? new Array<number>(length).fill(NaN) : undefined;
  let dropped = 0;
  for (let j = 0; j < t.length; j++) {
    const exact = (t[j] - t0) / stepMs;
    const k = Math.round(exact);
    if (!(Math.abs(exact - k) <= GRID_TOLERANCE) || k < 0 || k >= length || filled[k]) {
      dropped++;
      continue;
    }
    filled[k] = 1;
    position[j] = k;
    y[k] = powerKw[j];
    if (irradiance) irradiance[k] = series.irradianceWm2![j];
    if (temperature) temperature[k] = series.temperatureC![j];
  }
  return { t: Array.from({ length }, (_, k) => t0 + k * stepMs), y, irradiance, temperature, position, dropped };
}

const minSteps = (minutes: number, stepMinutes: number, floor: number) => Math.max(floor, Math.ceil(minutes / stepMinutes));

function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const lo = Math.floor(position);
  const hi = Math.ceil(position);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (position - lo);
}

/** Median of a small scratch array (sorted in place). */
function medianInPlace(values: number[]): number {
  values.sort((a, b) => a - b);
  const m = values.length >> 1;
  return values.length % 2 ? values[m] : (values[m - 1] + values[m]) / 2;
}

/** What the detectors share. */
interface Context {
  y: Float64Array;
  t: number[];
  stepMinutes: number;
  capacity: number;
  model: ExpectedOutput;
  hasModel: boolean;
  /** Kind index per step (-1: none). */
  kind: Int8Array;
  /** Power lost against expected at a flagged step, kW. */
  lossKw: Float64Array;
  /** Per-step evidence a detector leaves for the anomaly summary (e.g. the ratio it judged). */
  score: Float64Array;
  /** Extra evidence per run start (flat levels and the like), by grid index. */
  notes: Map<number, Record<string, number | string>>;
  /** Clean level of the daily performance ratio at each flagged underperformance step. */
  level: Float64Array;
  /** Which underperformance rule flagged a step: 1 sustained dip, 2 daily level. */
  rule: Uint8Array;
  irradianceMeasured: boolean;
  /** Output at or below this is zero, kW (ZERO_OUTPUT_SHARE of the capacity, less on a dim day: flagZeroOutput). */
  zeroKw: Float64Array;
}

const K = (kind: AnomalyKind) => KIND_ORDER.indexOf(kind);

function flagImpossible(c: Context): void {
  const high = MAX_OUTPUT_SHARE * c.capacity;
  const low = -SELF_CONSUMPTION_SHARE * c.capacity;
  for (let i = 0; i < c.y.length; i++) {
    const v = c.y[i];
    if (Number.isNaN(v)) continue;
    if (!Number.isFinite(v) || v > high || v < low) {
      c.kind[i] = K('impossible_value');
      c.score[i] = v;
    }
  }
}

/** Clean value at i: measured, not already flagged as impossible. */
const usable = (c: Context, i: number) => Number.isFinite(c.y[i]) && c.kind[i] !== K('impossible_value');

function flagSpikes(c: Context): void {
  const n = c.y.length;
  const jump = SPIKE_MIN_JUMP_SHARE * c.capacity;
  const window: number[] = [];
  for (let i = 1; i < n - 1; i++) {
    if (c.kind[i] >= 0 || !usable(c, i) || !usable(c, i - 1) || !usable(c, i + 1)) continue;
    const v = c.y[i];
    const up = v - c.y[i - 1] > jump && v - c.y[i + 1] > jump;
    const down = c.y[i - 1] - v > jump && c.y[i + 1] - v > jump;
    if (!up && !down) continue;
    // Hampel on the ratio to the expected output where there is one (a clear morning's ramp is then flat and
    // the MAD small), else on the values themselves.
    const expected = c.model.expectedKw;
    const ratioAt = (j: number) => (c.hasModel && expected[j] >= SPIKE_RATIO_MIN_EXPECTED_SHARE * c.capacity ? c.y[j] / expected[j] : NaN);
    const useRatio = Number.isFinite(ratioAt(i));
    window.length = 0;
    for (let j = Math.max(0, i - HAMPEL_HALF_WINDOW); j <= Math.min(n - 1, i + HAMPEL_HALF_WINDOW); j++) {
      if (!usable(c, j)) continue;
      const value = useRatio ? ratioAt(j) : c.y[j];
      if (Number.isFinite(value)) window.push(value);
    }
    const centre = useRatio ? ratioAt(i) : v;
    const median = medianInPlace(window);
    for (let k = 0; k < window.length; k++) window[k] = Math.abs(window[k] - median);
    const sigma = MAD_TO_SIGMA * medianInPlace(window);
    if (!(Math.abs(centre - median) > HAMPEL_K * sigma)) continue;
    // Implausible under any sky: clouds neither lift output far above clear sky nor take the diffuse light away
    // (judged against clear sky even when irradiance was measured: that is the range clouds move within).
    if (c.hasModel) {
      if (up && c.model.daylight[i] && !(v > CLOUD_ENHANCEMENT_MAX * c.model.clearSkyKw[i] || v > SPIKE_ABOVE_RATING_SHARE * c.capacity)) continue;
      if (down && !(v < CLOUD_SHADOW_MIN_RATIO * Math.min(c.capacity, c.model.clearSkyKw[i]))) continue;
    }
    c.kind[i] = K('spike');
    c.score[i] = useRatio ? v - median * expected[i] : v - median;
  }
}

/** Each step's solar day's clear-sky peak, kW (capped at the capacity; 0 where the day has no model). */
function dayPeaks(c: Context): Float64Array {
  const peakOfDay = new Map<number, number>();
  const day = c.model.solarDay;
  for (let i = 0; i < c.y.length; i++) {
    const clear = Math.min(c.capacity, c.model.clearSkyKw[i]);
    if (Number.isFinite(clear) && clear > (peakOfDay.get(day[i]) ?? 0)) peakOfDay.set(day[i], clear);
  }
  return Float64Array.from(day, (d) => peakOfDay.get(d) ?? 0);
}

/**
 * Zero output judged against the day's own clear sky (the ZERO_* constants): runs of zeros on the steps where the
 * sun gives at least ZERO_MIN_EXPECTED_OF_DAY_PEAK of its day's peak; an outage when the whole day is dead, when
 * the run lasts ZERO_CERTAIN_MINUTES, or when it lasts ZERO_MIN_MINUTES (ZERO_AT_DAY_EDGE_MIN_MINUTES at a day's
 * edge) beside output that shows the sun. An outage found extends over the zeros of lower sun next to it, so
 * that its energy and its start and end are the outage's.
 */
function flagZeroOutput(c: Context): void {
  if (!c.hasModel) return;
  const n = c.y.length;
  const peak = dayPeaks(c);
  for (let i = 0; i < n; i++) if (peak[i] > 0) c.zeroKw[i] = Math.min(ZERO_OUTPUT_SHARE * c.capacity, ZERO_OF_DAY_PEAK_SHARE * peak[i]);
  const need = minSteps(ZERO_MIN_MINUTES, c.stepMinutes, 2);
  const needAtEdge = minSteps(ZERO_AT_DAY_EDGE_MIN_MINUTES, c.stepMinutes, 2);
  const certain = minSteps(ZERO_CERTAIN_MINUTES, c.stepMinutes, 2);
  const edgeSteps = minSteps(ZERO_EDGE_MINUTES, c.stepMinutes, 1);
  const day = c.model.solarDay;
  const expected = c.model.expectedKw;
  const isZero = (i: number) => c.kind[i] < 0 && usable(c, i) && c.y[i] <= c.zeroKw[i];
  const judged = (i: number) => c.model.daylight[i] && peak[i] >= ZERO_MIN_DAY_PEAK_SHARE * c.capacity && expected[i] >= ZERO_MIN_EXPECTED_OF_DAY_PEAK * peak[i];
  const sameDay = (i: number, j: number) => j >= 0 && j < n && day[j] === day[i];
  /** Whether the day produced (above the zero level) somewhere from `from` stepping by `direction` within the day. */
  const producedBeyond = (from: number, direction: number) => {
    for (let j = from; sameDay(from, j); j += direction) if (usable(c, j) && c.y[j] > c.zeroKw[j]) return true;
    return false;
  };
  /** Mean ratio of measured to expected over the EDGE steps of daylight next to a run, on one side (NaN when none). */
  const besideRatio = (from: number, direction: number) => {
    let sum = 0;
    let count = 0;
    for (let j = from, k = 0; k < edgeSteps && sameDay(from, j); j += direction, k++) {
      if (!usable(c, j) || !(expected[j] > 0)) continue;
      sum += Math.max(0, c.y[j]) / expected[j];
      count++;
    }
    return count ? sum / count : NaN;
  };
  let runStart = -1;
  const close = (end: number) => {
    if (runStart < 0) return;
    const start = runStart;
    runStart = -1;
    const before = start > 0 && producedBeyond(start - 1, -1);
    const after = end < n && producedBeyond(end, 1);
    const length = end - start;
    // The darker side decides: a storm dims the output before it goes dark (SERF East, 2016-08-19, 15:45 MST).
    const beside = Math.min(before ? besideRatio(start - 1, -1) : Infinity, after ? besideRatio(end, 1) : Infinity);
    const deadDay = !before && !after;
    const outage = deadDay || length >= certain || (length >= (before && after ? need : needAtEdge) && beside >= ZERO_EDGE_MIN_RATIO);
    if (!outage) return;
    let [from, to] = [start, end];
    while (sameDay(start, from - 1) && c.model.daylight[from - 1] && isZero(from - 1)) from--;
    while (sameDay(start, to) && c.model.daylight[to] && isZero(to)) to++;
    for (let j = from; j < to; j++) {
      c.kind[j] = K('zero_output');
      c.lossKw[j] = Math.max(0, expected[j] - Math.max(0, c.y[j]));
      c.score[j] = expected[j];
    }
    if (!c.notes.has(from)) c.notes.set(from, { day_clear_sky_peak_kw: roundHalfUp(peak[start], 3, NaN), ...(deadDay ? { whole_day: 'yes' } : Number.isFinite(beside) ? { output_beside_ratio: roundHalfUp(beside, 3, NaN) } : {}) });
  };
  for (let i = 0; i < n; i++) {
    const candidate = judged(i) && isZero(i);
    if (candidate && runStart < 0) runStart = i;
    if (!candidate) close(i);
  }
  close(n);
}

/** Runs of values within `tolerance` of each other (range), as [start, end) pairs of at least `need` steps. */
function flatRuns(c: Context, tolerance: number, need: number): [number, number][] {
  const runs: [number, number][] = [];
  let start = 0;
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i <= c.y.length; i++) {
    const ok = i < c.y.length && usable(c, i) && c.kind[i] < 0;
    const v = ok ? c.y[i] : NaN;
    if (ok && Math.max(hi, v) - Math.min(lo, v) <= tolerance) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
      continue;
    }
    if (i - start >= need && hi >= lo) runs.push([start, i]);
    start = ok ? i : i + 1;
    lo = ok ? v : Infinity;
    hi = ok ? v : -Infinity;
  }
  return runs;
}

/** Share of a run's steps on which the uncapped potential exceeds the level (by the clipping tolerance). */
function exceedShare(c: Context, start: number, end: number, level: number): number {
  let above = 0;
  for (let j = start; j < end; j++) if (c.model.potentialKw[j] > level + CLIPPING_TOLERANCE_SHARE * c.capacity) above++;
  return above / (end - start);
}

function markRun(c: Context, start: number, end: number, kind: AnomalyKind, loss: (j: number) => number, note: Record<string, number | string>): void {
  for (let j = start; j < end; j++) {
    c.kind[j] = K(kind);
    c.lossKw[j] = loss(j);
  }
  c.notes.set(start, note);
}

/** Highest output within CLIPPING_TOP_WINDOW_DAYS of a step (a moving maximum over whole days). */
function movingTop(c: Context): Float64Array {
  const half = Math.round((CLIPPING_TOP_WINDOW_DAYS * 1440) / c.stepMinutes);
  const n = c.y.length;
  const top = new Float64Array(n).fill(-Infinity);
  // Block maxima of `half` steps, then the max of the blocks that the window touches: O(n).
  const blocks = Math.ceil(n / half);
  const blockMax = new Float64Array(blocks).fill(-Infinity);
  for (let i = 0; i < n; i++) if (usable(c, i) && c.y[i] > blockMax[Math.floor(i / half)]) blockMax[Math.floor(i / half)] = c.y[i];
  for (let i = 0; i < n; i++) {
    const b = Math.floor(i / half);
    top[i] = Math.max(blockMax[b], b > 0 ? blockMax[b - 1] : -Infinity, b + 1 < blocks ? blockMax[b + 1] : -Infinity);
  }
  return top;
}

/**
 * What a flat run in daylight is: a stuck value (flatline) when the sun could not have given that output on a
 * good share of its steps, or when it sits neither at the top of the recent output nor under a potential that
 * exceeds it; an output limit (clipping) otherwise. Null when it is no fault (night, zero, too low).
 */
function classifyFlat(c: Context, start: number, end: number, level: number, top: Float64Array): 'flatline' | 'clipping' | null {
  let lit = 0;
  let low = Infinity;
  let high = -Infinity;
  let starved = 0;
  let atTop = 0;
  for (let j = start; j < end; j++) {
    if (c.model.daylight[j]) lit++;
    const e = c.model.expectedKw[j];
    if (Number.isFinite(e)) [low, high] = [Math.min(low, e), Math.max(high, e)];
    if (c.hasModel && c.model.potentialKw[j] < (1 - CLIPPING_POTENTIAL_SLACK) * level) starved++;
    if (level >= CLIPPING_TOP_SHARE * top[j]) atTop++;
  }
  // A flat zero is judged by the zero-output rule (and is simply night when nothing was expected).
  if (Math.abs(level) <= ZERO_OUTPUT_SHARE * c.capacity) return null;
  // Without a model (no site, no day of production) an hour of one non-zero value is itself the evidence.
  if (!c.hasModel) return 'flatline';
  if (lit === 0) return null;
  // The expected output must move under it, or there is nothing to contradict a flat value.
  if (high - low < FLATLINE_MIN_EXPECTED_CHANGE_SHARE * c.capacity) return null;
  const length = end - start;
  if (level < CLIPPING_MIN_LEVEL_SHARE * c.capacity || starved > CLIPPING_MAX_STARVED_SHARE * length) return 'flatline';
  if (atTop === length) return 'clipping';
  // Below the top, a value repeated to the last digit is a register read back unchanged: a regulated output
  // (a curtailment setpoint) still moves a little from one interval to the next.
  let lo = Infinity;
  let hi = -Infinity;
  for (let j = start; j < end; j++) [lo, hi] = [Math.min(lo, c.y[j]), Math.max(hi, c.y[j])];
  if (hi - lo <= EXACT_REPEAT_SHARE * c.capacity) return 'flatline';
  return exceedShare(c, start, end, level) >= CLIPPING_MIN_EXCEED_SHARE ? 'clipping' : 'flatline';
}

function flagFlatlines(c: Context, top: Float64Array): void {
  for (const [start, end] of flatRuns(c, FLAT_TOLERANCE_SHARE * c.capacity, minSteps(FLATLINE_MIN_MINUTES, c.stepMinutes, 3))) {
    const level = c.y[start];
    if (classifyFlat(c, start, end, level, top) !== 'flatline') continue;
    let lo = Infinity;
    let hi = -Infinity;
    let lit = 0;
    for (let j = start; j < end; j++) {
      if (Number.isFinite(c.model.expectedKw[j])) [lo, hi] = [Math.min(lo, c.model.expectedKw[j]), Math.max(hi, c.model.expectedKw[j])];
      if (c.model.daylight[j]) lit++;
    }
    markRun(c, start, end, 'flatline', () => 0, { value_kw: roundHalfUp(level, 4, NaN), expected_min_kw: roundHalfUp(lo, 3, NaN), expected_max_kw: roundHalfUp(hi, 3, NaN), daylight_steps: lit });
  }
}

/** The decimal quantum the values are written in (1e-4 for tenths of a watt in kW), 0 when they are not rounded. */
function quantum(values: Float64Array): number {
  for (let digits = 0; digits <= MAX_QUANTUM_DIGITS; digits++) {
    const scale = 10 ** digits;
    let rounded = true;
    for (let i = 0; i < values.length && rounded; i++) {
      const v = values[i] * scale;
      if (Number.isFinite(v) && Math.abs(v - Math.round(v)) > 1e-6) rounded = false;
    }
    if (rounded) return 1 / scale;
  }
  return 0;
}

function flagStraightLines(c: Context): void {
  const n = c.y.length;
  const tolerance = STRAIGHT_LINE_TOLERANCE_SHARE * c.capacity;
  // Quantised data (whole watts, tenths) make short exact lines by chance: the slope must span several quanta.
  const minSlope = Math.max(STRAIGHT_LINE_MIN_SLOPE_SHARE * c.capacity, STRAIGHT_LINE_MIN_SLOPE_QUANTA * quantum(c.y));
  const linear = (i: number) => {
    if (i < 1 || i >= n - 1 || !usable(c, i - 1) || !usable(c, i) || !usable(c, i + 1)) return false;
    const d2 = c.y[i + 1] - 2 * c.y[i] + c.y[i - 1];
    return Math.abs(d2) <= tolerance && Math.abs(c.y[i + 1] - c.y[i - 1]) / 2 >= minSlope;
  };
  let start = -1;
  for (let i = 0; i <= n; i++) {
    const ok = i < n && c.kind[i] < 0 && linear(i);
    if (ok && start < 0) start = i;
    if (ok || start < 0) continue;
    const end = i;
    if (end - start >= STRAIGHT_LINE_MIN_STEPS) {
      // A line is a fault where the truth is not a line: the expected curve bends, or the line departs from it.
      let bends = !c.hasModel;
      let lit = 0;
      for (let j = start; j < end && c.hasModel; j++) {
        const e = c.model.expectedKw;
        if (Math.abs(e[j + 1] - 2 * e[j] + e[j - 1]) > tolerance || Math.abs(c.y[j] - e[j]) > tolerance) bends = true;
      }
      for (let j = start; j < end; j++) if (c.model.daylight[j]) lit++;
      if (bends) {
        const slope = (c.y[end] - c.y[start - 1]) / (end - start + 1);
        markRun(c, start, end, 'straight_line', () => 0, { from_kw: roundHalfUp(c.y[start - 1], 4, NaN), to_kw: roundHalfUp(c.y[end], 4, NaN), slope_kw_per_step: roundHalfUp(slope, 6, NaN), daylight_steps: lit });
      }
    }
    start = -1;
  }
}

function flagClipping(c: Context, top: Float64Array): void {
  if (!c.hasModel) return;
  for (const [start, end] of flatRuns(c, CLIPPING_TOLERANCE_SHARE * c.capacity, minSteps(CLIPPING_MIN_MINUTES, c.stepMinutes, 3))) {
    let sum = 0;
    for (let j = start; j < end; j++) sum += c.y[j];
    const level = sum / (end - start);
    if (classifyFlat(c, start, end, level, top) !== 'clipping') continue;
    let potential = 0;
    let potentialLow = Infinity;
    for (let j = start; j < end; j++) [potential, potentialLow] = [Math.max(potential, c.model.potentialKw[j]), Math.min(potentialLow, c.model.potentialKw[j])];
    if (potential - potentialLow < CLIPPING_MIN_POTENTIAL_CHANGE_SHARE * c.capacity) continue;
    markRun(c, start, end, 'clipping', (j) => Math.max(0, Math.min(c.capacity, c.model.potentialKw[j]) - c.y[j]), {
      level_kw: roundHalfUp(level, 3, NaN),
      level_share_of_capacity: roundHalfUp(level / c.capacity, 3, NaN),
      potential_max_kw: roundHalfUp(potential, 3, NaN),
      potential_above_share: roundHalfUp(exceedShare(c, start, end, level), 3, NaN),
    });
  }
}

/** Steps where underperformance can be judged, and the ratio of measured to expected there. */
function ratios(c: Context): Float64Array {
  const r = new Float64Array(c.y.length).fill(NaN);
  const floor = UNDERPERFORMANCE_MIN_EXPECTED_SHARE * c.capacity;
  for (let i = 0; i < c.y.length; i++) {
    const e = c.model.expectedKw[i];
    if (c.kind[i] < 0 && usable(c, i) && e >= floor) r[i] = Math.max(0, c.y[i]) / e;
  }
  return r;
}

/** Performance ratio per solar day: a high quantile of the step ratios around the day's peak; the day of each step. */
function dailyRatios(c: Context, r: Float64Array): { days: number[]; pr: number[]; dayOf: Int32Array } {
  const days: number[] = [];
  const pr: number[] = [];
  const dayOf = new Int32Array(c.y.length).fill(-1);
  const solarDay = c.model.solarDay;
  let start = 0;
  for (let i = 1; i <= c.y.length; i++) {
    if (i < c.y.length && solarDay[i] === solarDay[start]) continue;
    let peak = 0;
    for (let j = start; j < i; j++) peak = Math.max(peak, c.model.expectedKw[j] || 0);
    const central: number[] = [];
    let around = 0;
    for (let j = start; j < i; j++) {
      if (!(c.model.expectedKw[j] >= DAILY_PR_MIN_EXPECTED_OF_PEAK * peak)) continue;
      around++;
      if (Number.isFinite(r[j])) central.push(r[j]);
    }
    for (let j = start; j < i; j++) dayOf[j] = days.length;
    days.push(solarDay[start]);
    // A day whose central hours are mostly missing or flagged otherwise (clipped, stuck) has no ratio.
    pr.push(central.length >= MIN_STEPS_FOR_DAILY_PR && central.length >= MIN_JUDGED_SHARE_FOR_DAILY_PR * around ? quantile(central, DAILY_PR_QUANTILE) : NaN);
    start = i;
  }
  return { days, pr, dayOf };
}

/**
 * Best value over the `span` entries ending at k and over the `span` entries starting at k (every `stride`),
 * the lower of the two: low only when a whole run of `span` entries was low. A window cut off by an end of the
 * series does not count, unless neither is whole (a series shorter than the span: all its entries).
 */
function envelope(values: (k: number) => number, count: number, k: number, span: number, stride: number): number {
  const best = (direction: number) => {
    let value = -Infinity;
    let seen = 0;
    for (let d = 0; d < span; d++) {
      const j = k + direction * d * stride;
      if (j < 0 || j >= count) return { value, whole: false, seen };
      const v = values(j);
      if (Number.isFinite(v)) [value, seen] = [Math.max(value, v), seen + 1];
    }
    return { value, whole: true, seen };
  };
  const [back, ahead] = [best(-1), best(1)];
  const candidates = [back, ahead].filter((w) => w.whole && w.seen > 0);
  if (candidates.length) return Math.min(...candidates.map((w) => w.value));
  // Neither window whole: the series is shorter than the span; the best over all of it at this position.
  let value = -Infinity;
  for (let j = k % stride; j < count; j += stride) {
    const v = values(j);
    if (Number.isFinite(v)) value = Math.max(value, v);
  }
  return Number.isFinite(value) ? value : NaN;
}

/** Clean level per day: a high quantile of the daily ratios within CLEAN_LEVEL_WINDOW_DAYS (1 when none can be read). */
function cleanLevels(days: readonly number[], pr: readonly number[]): number[] {
  const fallback = quantile(pr.filter(Number.isFinite), BASELINE_QUANTILE);
  return days.map((day) => {
    const near: number[] = [];
    for (let k = 0; k < days.length; k++) if (Math.abs(days[k] - day) <= CLEAN_LEVEL_WINDOW_DAYS && Number.isFinite(pr[k])) near.push(pr[k]);
    const level = near.length ? quantile(near, BASELINE_QUANTILE) : fallback;
    return level > 0 ? level : 1;
  });
}

function flagUnderperformance(c: Context): void {
  if (!c.hasModel) return;
  const n = c.y.length;
  const r = ratios(c);
  const perDay = stepsPerDay(c.stepMinutes);
  const { days, pr, dayOf } = dailyRatios(c, r);
  const levels = cleanLevels(days, pr);
  const levelAt = (i: number) => (dayOf[i] >= 0 ? levels[dayOf[i]] : 1);
  // Rule 1, a sustained dip: the step ratio (mean of it and its neighbours) and, without measured irradiance,
  // the best ratio at that time of day (and the neighbouring steps) over ENVELOPE_DAYS days before or after,
  // both below UNDERPERFORMANCE_RATIO of the clean level, for UNDERPERFORMANCE_MIN_MINUTES.
  const slotBest = (i: number) => {
    let best = NaN;
    for (let j = i - 1; j <= i + 1; j++) if (j >= 0 && j < n && Number.isFinite(r[j]) && !(r[j] <= best)) best = r[j];
    return best;
  };
  const dip = new Float64Array(n).fill(NaN);
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(r[i])) continue;
    const threshold = UNDERPERFORMANCE_RATIO * levelAt(i);
    let sum = 0;
    let count = 0;
    for (let j = i - 1; j <= i + 1; j++) if (j >= 0 && j < n && Number.isFinite(r[j])) [sum, count] = [sum + r[j], count + 1];
    const smooth = sum / count;
    if (smooth >= threshold) continue;
    const best = c.irradianceMeasured ? smooth : envelope(slotBest, n, i, ENVELOPE_DAYS, perDay);
    if (best < threshold) dip[i] = best / levelAt(i);
  }
  const need = minSteps(UNDERPERFORMANCE_MIN_MINUTES, c.stepMinutes, 2);
  let start = -1;
  for (let i = 0; i <= n; i++) {
    const flagged = i < n && Number.isFinite(dip[i]);
    if (flagged && start < 0) start = i;
    if (flagged || start < 0) continue;
    if (i - start >= need) {
      for (let j = start; j < i; j++) {
        c.kind[j] = K('underperformance');
        c.score[j] = dip[j];
        c.level[j] = levelAt(j);
        c.rule[j] = 1;
        c.lossKw[j] = c.model.expectedKw[j] * Math.max(0, 1 - dip[j]);
      }
    }
    start = -1;
  }
  // Rule 2, a lower level: the day's performance ratio, best over ENVELOPE_DAYS days before or after, more
  // than DAILY_LOSS_THRESHOLD below the clean level; flags all the day's judged steps (the loss is the day's).
  const limit = 1 - DAILY_LOSS_THRESHOLD;
  const dayEnvelope = pr.map((_, d) => (c.irradianceMeasured ? pr[d] : envelope((k) => pr[k], pr.length, d, DAILY_ENVELOPE_DAYS, 1)) / levels[d]);
  for (let i = 0; i < n; i++) {
    const d = dayOf[i];
    if (d < 0 || !(dayEnvelope[d] < limit) || !Number.isFinite(r[i]) || c.kind[i] >= 0) continue;
    c.kind[i] = K('underperformance');
    c.score[i] = dayEnvelope[d];
    c.level[i] = levels[d];
    c.rule[i] = 2;
    c.lossKw[i] = c.model.expectedKw[i] * Math.max(0, 1 - dayEnvelope[d]);
  }
}

const DETECTORS: Record<AnomalyKind, (c: Context, top: Float64Array) => void> = {
  impossible_value: flagImpossible,
  spike: flagSpikes,
  zero_output: flagZeroOutput,
  flatline: flagFlatlines,
  straight_line: flagStraightLines,
  clipping: flagClipping,
  underperformance: flagUnderperformance,
};

function severityOf(kind: AnomalyKind, c: Context, steps: number, evidence: Record<string, number | string>): Anomaly['severity'] {
  const hours = (steps * c.stepMinutes) / 60;
  switch (kind) {
    case 'zero_output':
      return hours >= 1 ? 'critical' : 'warning';
    case 'underperformance':
      // Against clear sky alone, a week of overcast looks like a halved output: critical needs measured irradiance.
      return c.irradianceMeasured && Number(evidence.ratio_median) < 0.5 ? 'critical' : 'warning';
    case 'clipping':
      return Number(evidence.level_share_of_capacity) >= 0.9 ? 'info' : 'warning';
    case 'straight_line':
      return Number(evidence.daylight_steps) > 0 ? 'warning' : 'info';
    case 'spike':
      return 'info';
    default:
      return 'warning';
  }
}

/**
 * Whether step j ends a run of `kind`: any step for most kinds; for zero output only a step where output came
 * back, for underperformance only a step judged and found normal (night and missing steps do not end them).
 */
function endsRun(c: Context, kind: AnomalyKind, j: number): boolean {
  if (!MERGE_ACROSS_GAPS.has(kind) || c.kind[j] >= 0) return true;
  if (!usable(c, j)) return false;
  if (kind === 'zero_output') return c.y[j] > c.zeroKw[j];
  return c.model.daylight[j] && c.model.expectedKw[j] >= UNDERPERFORMANCE_MIN_EXPECTED_SHARE * c.capacity;
}

/** Flagged steps into anomalies: one per run of a kind (see MERGE_ACROSS_GAPS). */
function collect(c: Context): Anomaly[] {
  const n = c.y.length;
  const stepHours = c.stepMinutes / 60;
  const anomalies: Anomaly[] = [];
  let i = 0;
  while (i < n) {
    const k = c.kind[i];
    if (k < 0) {
      i++;
      continue;
    }
    const kind = KIND_ORDER[k];
    const members = [i];
    let j = i + 1;
    for (; j < n; j++) {
      if (c.kind[j] === k) members.push(j);
      else if (endsRun(c, kind, j)) break;
    }
    const last = members[members.length - 1];
    let energy = 0;
    let measured = 0;
    let expected = 0;
    let lit = 0;
    const scores: number[] = [];
    for (const m of members) {
      energy += c.lossKw[m] * stepHours;
      measured += Number.isFinite(c.y[m]) ? c.y[m] : 0;
      expected += Number.isFinite(c.model.expectedKw[m]) ? c.model.expectedKw[m] : 0;
      if (c.model.daylight[m]) lit++;
      if (Number.isFinite(c.score[m])) scores.push(c.score[m]);
    }
    const evidence: Record<string, number | string> = {
      measured_mean_kw: roundHalfUp(measured / members.length, 3, NaN),
      expected_mean_kw: roundHalfUp(expected / members.length, 3, NaN),
      daylight_steps: lit,
      ...c.notes.get(members[0]),
    };
    if (kind === 'underperformance') {
      const rules = new Set(members.map((m) => c.rule[m]));
      evidence.ratio_median = roundHalfUp(quantile(scores, 0.5), 3, NaN);
      evidence.clean_level = roundHalfUp(c.level[members[0]], 3, NaN);
      evidence.rule = [...rules].sort().map((r) => (r === 1 ? 'sustained_dip' : 'daily_level')).join('+');
    }
    if (kind === 'spike' || kind === 'impossible_value') {
      evidence.value_kw = roundHalfUp(c.y[members[0]], 4, NaN);
      if (kind === 'spike') evidence.deviation_from_median_kw = roundHalfUp(c.score[members[0]], 4, NaN);
      else evidence.limit_kw = roundHalfUp(c.y[members[0]] > 0 || !Number.isFinite(c.y[members[0]]) ? MAX_OUTPUT_SHARE * c.capacity : -SELF_CONSUMPTION_SHARE * c.capacity, 4, NaN);
    }
    anomalies.push({
      kind,
      start: c.t[members[0]],
      end: c.t[last],
      steps: members.length,
      severity: severityOf(kind, c, members.length, evidence),
      energyAtRiskKwh: roundHalfUp(energy, 3, NaN),
      evidence,
    });
    i = last + 1;
  }
  return anomalies;
}

const empty = (expectedKw: number[], message: string, checkedSteps = 0, daylightSteps = 0): DetectionResult => ({ anomalies: [], expectedKw, checkedSteps, daylightSteps, message });

/**
 * Anomalies in one asset's measured output. The series may have missing steps (NaN, or rows left out);
 * `stepMinutes` is its step. See the constants above for each rule; a series without measurements gives no
 * anomaly and a message that says why.
 */
export function detectAnomalies(series: OutputSeries, asset: AssetSpec, options: DetectionOptions = {}): DetectionResult {
  const n = series.t.length;
  if (n === 0) return empty([], 'no data: the series has no steps');
  if (series.powerKw.length !== n) return empty(new Array<number>(n).fill(NaN), `no detection: ${n} timestamps but ${series.powerKw.length} values`);
  if (!(series.stepMinutes > 0)) return empty(new Array<number>(n).fill(NaN), `no detection: the step must be a positive number of minutes, got ${series.stepMinutes}`);
  const measured = series.powerKw.filter((v) => !Number.isNaN(v)).length;
  if (measured === 0) return empty(new Array<number>(n).fill(NaN), `no data: all ${n} values are missing`);
  const grid = toGrid(series);
  if (typeof grid === 'string') return empty(new Array<number>(n).fill(NaN), `no detection: ${grid}`);

  // The model is fitted on plausible values only: an impossible value would distort the scale.
  const rating = asset.capacityKw > 0 ? asset.capacityKw : Infinity;
  const plausible = Array.from(grid.y, (v) => (Number.isFinite(v) && v <= MAX_OUTPUT_SHARE * rating && v >= -SELF_CONSUMPTION_SHARE * rating ? v : NaN));
  const model = expectedOutput({ t: grid.t, powerKw: plausible, stepMinutes: series.stepMinutes, irradianceWm2: grid.irradiance, temperatureC: grid.temperature }, asset);
  const capacity = model.capacityKw > 0 ? model.capacityKw : Math.max(...plausible.filter(Number.isFinite).map(Math.abs), 0);
  const c: Context = {
    y: grid.y,
    t: grid.t,
    stepMinutes: series.stepMinutes,
    capacity,
    model,
    hasModel: model.method !== 'none',
    kind: new Int8Array(grid.y.length).fill(-1),
    lossKw: new Float64Array(grid.y.length),
    score: new Float64Array(grid.y.length).fill(NaN),
    notes: new Map(),
    level: new Float64Array(grid.y.length).fill(NaN),
    rule: new Uint8Array(grid.y.length),
    irradianceMeasured: model.method === 'irradiance_plane_of_array' || model.method === 'irradiance_horizontal',
    zeroKw: new Float64Array(grid.y.length).fill(ZERO_OUTPUT_SHARE * capacity),
  };
  const wanted = new Set(options.kinds ?? KIND_ORDER);
  const top = movingTop(c);
  for (const kind of KIND_ORDER) {
    if (wanted.has(kind) && capacity > 0) DETECTORS[kind](c, top);
  }
  const anomalies = collect(c);

  const expectedKw = Array.from(grid.position, (k) => (k >= 0 ? model.expectedKw[k] : NaN));
  let checked = 0;
  let daylight = 0;
  for (let i = 0; i < grid.y.length; i++) {
    if (Number.isNaN(grid.y[i])) continue;
    checked++;
    if (model.daylight[i]) daylight++;
  }
  const counts = KIND_ORDER.map((k) => [k, anomalies.filter((a) => a.kind === k).length] as const).filter(([, count]) => count > 0);
  const span = `${iso(grid.t[0])} to ${iso(grid.t[grid.t.length - 1])}`;
  const found = anomalies.length ? `${anomalies.length} anomalies (${counts.map(([k, count]) => `${count} ${k}`).join(', ')})` : 'no anomaly';
  const modelNote = c.hasModel ? `expected output: ${model.method.replace(/_/g, ' ')}; ${model.note}` : `no expected output (${model.note}): only impossible values, spikes, flat and straight segments were checked`;
  const droppedNote = grid.dropped ? `; ${grid.dropped} timestamps off the ${series.stepMinutes}-minute grid were left out` : '';
  return {
    anomalies,
    expectedKw,
    checkedSteps: checked,
    daylightSteps: daylight,
    message: `${found} in ${checked} measured steps (${daylight} in daylight) from ${span}; ${modelNote}${droppedNote}`,
  };
}

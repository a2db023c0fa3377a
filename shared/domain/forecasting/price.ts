/**
 * Day-ahead electricity prices by LEAR, the LASSO-estimated autoregressive model of Lago, Marcjasz,
 * De Schutter & Weron (2021, Applied Energy 293, 116983, section 4.1), as in their epftoolbox:
 *
 * - one linear model per hour h of the day for the price at h on day D, on the prices of D-1, D-2, D-3 and D-7
 *   at all 24 hours, each exogenous variable (load, wind, solar forecasts...) at D, D-1 and D-7 at all
 *   24 hours, and 7 day-of-week dummies;
 * - prices and exogenous inputs pass through the variance-stabilising "invariant" transform
 *   asinh((x - median) / MAD) per hour (Uniejewski, Weron & Ziel 2018), forecasts through its inverse; the
 *   prices may take another transform instead (./price-transforms, option `priceTransforms`);
 * - each model is estimated by LASSO along its exact LARS path, lambda chosen by LARS-IC's AIC (./lasso);
 * - the forecast is the mean over calibration windows of 56, 84, 364 and 728 days, those the history
 *   covers (the paper's ensemble of two short and two long windows, the long ones as issue 18 sets them),
 *   and over the most recent up to 8 weeks when it covers none of them.
 *
 * Four members: `price_lear` (the above), `price_lear_median` (the hourly median over the same windows),
 * `price_lear_vst` (the hourly median over the asinh and N-PIT transforms, each on the same windows) and
 * `epftoolbox_naive` (the paper's reference). Window models are memoised on their inputs, so members and calls that need the same
 * window on the same data fit it once.
 *
 * Days and hours are local (context.timezone, default UTC). The models work on a grid of local hours: a
 * sub-hourly series is averaged into hours and each step of the horizon gets its hour's forecast; the
 * repeated hour of a DST autumn day is averaged and the missing hour of a spring day interpolated, as in the
 * epftoolbox data sets. Beyond the first day the forecast is recursive: a day's forecasts become the lagged
 * prices of the next. Exogenous variables are used when both `context.history` and `context.future` give
 * them; horizon days the future does not cover are forecast by models fitted without them, and windows
 * reaching back before the first exogenous value are cut to the span it covers.
 *
 * Options (context.options):
 * - `duckCurve: true` adds, to the model of hour h, the solar share of day D at hour h: `solar_forecast`
 *   (divided by a load variable when one is given) if the history and future carry it, else the clear-sky
 *   irradiance at the site (Ineichen-Perez; without coordinates, latitude 50 and the zone's standard meridian).
 *   Being zero at night, it only enters the daylight hours' models.
 * - `calibrationWindows: number[]` replaces the windows (days of training targets).
 * - `lambdaRule: 'lear' | 'aic'`: 'lear' (default) reproduces epftoolbox: lambda picked by AIC on
 *   unit-norm features, then the lasso refitted with that alpha on the transformed, unnormalised features
 *   (scikit-learn's LassoLarsIC(normalize=True) then Lasso(normalize=False)), which amounts to penalising
 *   feature j by lambda_AIC / (sqrt(n) * sd_j); 'aic' keeps the AIC-selected solution itself.
 */
import { IANAZone } from 'luxon';
import { clearSkyGhiAt } from '../weather/clear-sky';
import { informationCriterion, larsLassoPath, type LassoProblem, type LassoSolution } from './lasso';
import { fillLinear } from './regularise';
import { asinhTransform, fitInvariantScaler, fitPriceTransform, median, PRICE_TRANSFORMS, type InvariantScaler, type PriceTransform, type PriceTransformName } from './price-transforms';
import { HOUR_MS, stepsPerDay, type Exogenous, type FitContext, type FittedModel, type ForecastMember, type RegularSeries } from './types';

/** Lags of the price, in days, each at all 24 hours (Lago et al. 2021, eq. 5). */
export const PRICE_LAG_DAYS = [1, 2, 3, 7] as const;
/** Lags of each exogenous variable, in days (0 = the forecast day itself). */
export const EXOGENOUS_LAG_DAYS = [0, 1, 7] as const;
/** The paper's ensemble of calibration windows, in days. */
export const LEAR_CALIBRATION_WINDOWS_DAYS = [56, 84, 364, 728] as const;
/** The window used when the history covers none of the paper's: the most recent up to 8 weeks. */
export const SHORT_CALIBRATION_DAYS = 56;
/** Fewest training days the member fits on (beside the week of lags). */
export const MIN_CALIBRATION_DAYS = 28;
const MAX_LAG_DAYS = 7;
const HOURS = 24;
/** A forecast in the transformed space is kept within this multiple of the training range (recursion guard). */
const TRANSFORMED_RANGE_GUARD = 1.5;
/** Site latitude for the clear-sky proxy when none is given. */
const DEFAULT_LATITUDE = 50;

// ---------------------------------------------------------------- local hour grid

type OffsetMinutes = (epochMs: number) => number;

/**
 * Offsets asked of a zone, kept per zone: every fold and member reads the same day boundaries again. Bounded in
 * instants per zone and in zones (the least recently used goes), so requests cycling through every zone cannot
 * grow it past about 8 x 8192 entries.
 */
const OFFSET_MEMO_SIZE = 8192;
const OFFSET_MEMO_ZONES = 8;
const offsetMemos = new Map<string, Map<number, number>>();

/**
 * The zone's offset function, memoised: luxon's lookup costs about 12 us, and a price forecast on a year of
 * local hours asked it some 30 000 times (a tenth of a cold forecast on Belgian prices).
 */
function zoneOffset(zone: string | undefined): OffsetMinutes {
  if (!zone || zone === 'UTC' || zone === 'Etc/UTC') return () => 0;
  const iana = IANAZone.create(zone);
  if (!iana.isValid) throw new RangeError(`unknown time zone ${zone}`);
  const known = offsetMemos.get(iana.name) ?? new Map<number, number>();
  offsetMemos.delete(iana.name);
  offsetMemos.set(iana.name, known);
  if (offsetMemos.size > OFFSET_MEMO_ZONES) offsetMemos.delete(offsetMemos.keys().next().value as string);
  return (epochMs) => {
    let minutes = known.get(epochMs);
    if (minutes === undefined) {
      minutes = iana.offset(epochMs);
      if (known.size >= OFFSET_MEMO_SIZE) known.clear();
      known.set(epochMs, minutes);
    }
    return minutes;
  };
}

/** Local hour numbers (floor of local epoch ms / 1 h) of instants; the zone is asked once per UTC day unless it changes within it. */
function localHourNumbers(times: ArrayLike<number>, offset: OffsetMinutes): Float64Array {
  const out = new Float64Array(times.length);
  let dayStart = NaN;
  let atStart = 0;
  let atEnd = 0;
  for (let i = 0; i < times.length; i++) {
    const ts = times[i];
    const day = Math.floor(ts / 86_400_000) * 86_400_000;
    if (day !== dayStart) {
      dayStart = day;
      atStart = offset(day);
      atEnd = offset(day + 86_400_000);
    }
    const minutes = atStart === atEnd ? atStart : offset(ts);
    out[i] = Math.floor((ts + minutes * 60_000) / HOUR_MS);
  }
  return out;
}

/** Mean of the finite values falling in each cell; NaN where none. */
function aggregateCells(values: ArrayLike<number>, cells: ArrayLike<number>, size: number): Float64Array {
  const sum = new Float64Array(size);
  const count = new Float64Array(size);
  for (let i = 0; i < values.length; i++) {
    const c = cells[i];
    const v = values[i];
    if (c < 0 || c >= size || !Number.isFinite(v)) continue;
    sum[c] += v;
    count[c]++;
  }
  return sum.map((s, c) => (count[c] ? s / count[c] : NaN));
}

/** Last cell with a value, or -1. */
function lastFinite(values: Float64Array): number {
  for (let c = values.length - 1; c >= 0; c--) if (Number.isFinite(values[c])) return c;
  return -1;
}

/** Monday = 0 for a local day number (day 0, 1970-01-01, was a Thursday). */
const weekdayOf = (dayNumber: number) => (((dayNumber + 3) % 7) + 7) % 7;

// ---------------------------------------------------------------- the model

interface PriceOptions {
  duckCurve: boolean;
  calibrationWindows?: number[];
  lambdaRule: 'lear' | 'aic';
  transforms: PriceTransformName[];
}

function priceOptions(options: Record<string, unknown> | undefined, defaultTransforms: readonly PriceTransformName[]): PriceOptions {
  const windows = options?.calibrationWindows;
  if (windows !== undefined && (!Array.isArray(windows) || !windows.every((w) => Number.isInteger(w) && w >= 1))) {
    throw new RangeError('calibrationWindows must be a list of positive whole numbers of days');
  }
  const rule = options?.lambdaRule ?? 'lear';
  if (rule !== 'lear' && rule !== 'aic') throw new RangeError("lambdaRule must be 'lear' or 'aic'");
  const transforms = options?.priceTransforms ?? defaultTransforms;
  if (!Array.isArray(transforms) || !transforms.length || !transforms.every((t) => (PRICE_TRANSFORMS as readonly unknown[]).includes(t))) {
    throw new RangeError(`priceTransforms must be a list of ${PRICE_TRANSFORMS.join(', ')}`);
  }
  return { duckCurve: options?.duckCurve === true, calibrationWindows: windows as number[] | undefined, lambdaRule: rule, transforms: transforms as PriceTransformName[] };
}

/** The inputs of one family of models: which exogenous grids, and which solar proxy for the duck curve. */
interface FeatureSet {
  exogenous: Float64Array[];
  /** Solar share per cell, when the duck-curve feature is on. */
  duck?: Float64Array;
}

/** The model of one hour in one window, in standardised coordinates of the kept columns. */
interface HourModel {
  intercept: number;
  columns: Int32Array;
  means: Float64Array;
  scales: Float64Array;
  beta: Float64Array;
  duck?: { mean: number; scale: number; beta: number };
  /** Bounds of the transformed forecast (recursion guard). */
  low: number;
  high: number;
}

interface WindowModel {
  priceTransforms: PriceTransform[];
  exogenousScalers: InvariantScaler[][];
  hours: HourModel[];
}

/** Per-hour invariant scalers of a cell grid over days [from, to]. */
function hourlyScalers(cells: Float64Array, from: number, to: number): InvariantScaler[] {
  return Array.from({ length: HOURS }, (_, h) => {
    const values: number[] = [];
    for (let d = from; d <= to; d++) values.push(cells[d * HOURS + h]);
    return fitInvariantScaler(values);
  });
}

/** Number of base features: 4 x 24 lagged prices, 3 x 24 per exogenous variable, 7 weekday dummies. */
const baseFeatureCount = (exogenous: number) => PRICE_LAG_DAYS.length * HOURS + exogenous * EXOGENOUS_LAG_DAYS.length * HOURS + 7;

/** The base features of day `d` (shared by the 24 hour models), written into `out`. */
function baseFeatures(d: number, dayNumber: number, prices: Float64Array, set: FeatureSet, model: Pick<WindowModel, 'priceTransforms' | 'exogenousScalers'>, out: Float64Array): void {
  let k = 0;
  for (const lag of PRICE_LAG_DAYS) {
    const row = (d - lag) * HOURS;
    for (let h = 0; h < HOURS; h++) out[k++] = model.priceTransforms[h].forward(prices[row + h]);
  }
  set.exogenous.forEach((grid, v) => {
    for (const lag of EXOGENOUS_LAG_DAYS) {
      const row = (d - lag) * HOURS;
      for (let h = 0; h < HOURS; h++) out[k++] = asinhTransform(grid[row + h], model.exogenousScalers[v][h]);
    }
  });
  const weekday = weekdayOf(dayNumber);
  for (let w = 0; w < 7; w++) out[k++] = w === weekday ? 1 : 0;
}

interface FitWindowInput {
  prices: Float64Array;
  set: FeatureSet;
  /** Last training day (grid index) and the number of training days. */
  lastDay: number;
  days: number;
  firstDayNumber: number;
  lambdaRule: 'lear' | 'aic';
  transform: PriceTransformName;
}

/** X'X of the features in their raw scales: the standardised Gram with row and column j times sd_j. */
function unstandardisedGram(gram: Float64Array, scales: Float64Array): Float64Array {
  const p = scales.length;
  const scaled = new Float64Array(p * p);
  for (let j = 0; j < p; j++) for (let k = 0; k < p; k++) scaled[j * p + k] = gram[j * p + k] * scales[j] * scales[k];
  return scaled;
}

/**
 * Lasso on one hour's problem, as epftoolbox: the LARS path, lambda at the knot of least AIC; rule 'lear'
 * then refits at alpha = lambda_AIC / sqrt(n) on the unnormalised transformed features (see the header).
 * `rawGram` is unstandardisedGram(problem.gram, rawScales) when the caller shares it between hours.
 */
function estimateHour(problem: LassoProblem, rawScales: Float64Array, rule: 'lear' | 'aic', rawGram?: Float64Array): Float64Array {
  let best: LassoSolution | undefined;
  let bestValue = Infinity;
  larsLassoPath(problem, {
    keep: 'last',
    onKnot: (solution) => {
      const value = informationCriterion(solution, problem, 'aic');
      if (value < bestValue) {
        bestValue = value;
        best = { ...solution, beta: solution.beta.slice() };
      }
      // The criterion is n * RSS / y'y + 2 df with RSS >= 0: once 2 df alone exceeds the best, stop.
      return 2 * solution.df <= bestValue;
    },
  });
  if (!best) return new Float64Array(problem.p);
  if (rule === 'aic') return best.beta;
  // Penalty lambda_AIC / (sqrt(n) sd_j) on standardised feature j: a plain lasso on features scaled by sd_j.
  const { n, gram, xty } = problem;
  const scaled: LassoProblem = { ...problem, gram: rawGram ?? unstandardisedGram(gram, rawScales), xty: xty.map((v, j) => v * rawScales[j]) };
  const [last] = larsLassoPath(scaled, { lambdaMin: best.lambda / Math.sqrt(n), keep: 'last' });
  return last.beta.map((b, j) => b * rawScales[j]);
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/**
 * X'X of `columns` columns of length `rows` held one after another, four products per pass over a column (the Gram
 * matrix is most of a window's fit outside the lasso); each sum runs in row order, as a plain dot product's.
 */
function columnGram(x: Float64Array, columns: number, rows: number): Float64Array {
  const gram = new Float64Array(columns * columns);
  const set = (a: number, b: number, value: number) => {
    gram[a * columns + b] = value;
    gram[b * columns + a] = value;
  };
  for (let a = 0; a < columns; a++) {
    const ao = a * rows;
    let b = a;
    for (; b + 3 < columns; b += 4) {
      const [b0, b1, b2, b3] = [b * rows, (b + 1) * rows, (b + 2) * rows, (b + 3) * rows];
      let [s0, s1, s2, s3] = [0, 0, 0, 0];
      for (let i = 0; i < rows; i++) {
        const v = x[ao + i];
        s0 += v * x[b0 + i];
        s1 += v * x[b1 + i];
        s2 += v * x[b2 + i];
        s3 += v * x[b3 + i];
      }
      [s0, s1, s2, s3].forEach((value, k) => set(a, b + k, value));
    }
    for (; b < columns; b++) {
      let s = 0;
      for (let i = 0; i < rows; i++) s += x[ao + i] * x[b * rows + i];
      set(a, b, s);
    }
  }
  return gram;
}

/** Means of the columns of a row-major rows x columns array. */
function columnMeans(values: Float64Array, rows: number, columns: number): Float64Array {
  const means = new Float64Array(columns);
  for (let i = 0; i < rows; i++) for (let j = 0; j < columns; j++) means[j] += values[i * columns + j];
  return means.map((s) => s / rows);
}

function fitWindow(input: FitWindowInput): WindowModel {
  const { prices, set, lastDay, days, firstDayNumber } = input;
  const firstDay = lastDay - days + 1;
  const scaleFrom = firstDay - MAX_LAG_DAYS;
  const model: Pick<WindowModel, 'priceTransforms' | 'exogenousScalers'> = {
    priceTransforms: Array.from({ length: HOURS }, (_, h) => {
      const values: number[] = [];
      for (let d = scaleFrom; d <= lastDay; d++) values.push(prices[d * HOURS + h]);
      return fitPriceTransform(input.transform, values);
    }),
    exogenousScalers: set.exogenous.map((grid) => hourlyScalers(grid, scaleFrom, lastDay)),
  };
  const p = baseFeatureCount(set.exogenous.length);
  // Typed arrays throughout: the design is built and reduced four times per fold, and ml-matrix's element
  // access took a third of a fit.
  const raw = new Float64Array(days * p);
  const targets = new Float64Array(days * HOURS);
  for (let i = 0; i < days; i++) {
    const d = firstDay + i;
    baseFeatures(d, firstDayNumber + d, prices, set, model, raw.subarray(i * p, (i + 1) * p));
    for (let h = 0; h < HOURS; h++) targets[i * HOURS + h] = model.priceTransforms[h].forward(prices[d * HOURS + h]);
  }
  // Standardise; columns constant over the window (a weekday absent, a flat input) carry no information.
  const means = columnMeans(raw, days, p);
  const sds = new Float64Array(p);
  for (let i = 0; i < days; i++) for (let j = 0; j < p; j++) sds[j] += (raw[i * p + j] - means[j]) ** 2;
  for (let j = 0; j < p; j++) sds[j] = Math.sqrt(sds[j] / days);
  const kept = Int32Array.from(Array.from(means.keys()).filter((j) => sds[j] > 1e-10 * (1 + Math.abs(means[j]))));
  const m = kept.length;
  // The kept standardised columns, one after another (column c at c * days).
  const x = new Float64Array(m * days);
  for (let c = 0; c < m; c++) for (let i = 0; i < days; i++) x[c * days + i] = (raw[i * p + kept[c]] - means[kept[c]]) / sds[kept[c]];
  const yMeans = columnMeans(targets, days, HOURS);
  const centred = new Float64Array(HOURS * days);
  for (let h = 0; h < HOURS; h++) for (let i = 0; i < days; i++) centred[h * days + i] = targets[i * HOURS + h] - yMeans[h];
  const column = (a: Float64Array, c: number) => a.subarray(c * days, (c + 1) * days);
  const gram = columnGram(x, m, days);
  const keptMeans = Float64Array.from(kept, (j) => means[j]);
  const keptScales = Float64Array.from(kept, (j) => sds[j]);
  let rawGram: Float64Array | undefined; // shared by the hours without a duck column (rule 'lear')

  const hours = Array.from({ length: HOURS }, (_, h): HourModel => {
    const y = column(centred, h);
    const yty = dot(y, y);
    let spread = 0;
    for (let i = 0; i < days; i++) spread = Math.max(spread, Math.abs(targets[i * HOURS + h]));
    spread *= TRANSFORMED_RANGE_GUARD;
    const base = { intercept: yMeans[h], columns: kept, means: keptMeans, scales: keptScales, low: -spread, high: spread };
    const xty = new Float64Array(m);
    for (let c = 0; c < m; c++) xty[c] = dot(column(x, c), y);
    const duckColumn = set.duck ? Array.from({ length: days }, (_, i) => (set.duck as Float64Array)[(firstDay + i) * HOURS + h]) : undefined;
    const duckMean = duckColumn ? duckColumn.reduce((s, v) => s + v, 0) / days : 0;
    const duckSd = duckColumn ? Math.sqrt(duckColumn.reduce((s, v) => s + (v - duckMean) ** 2, 0) / days) : 0;
    if (!duckColumn || !(duckSd > 1e-10 * (1 + Math.abs(duckMean)))) {
      const problem: LassoProblem = { n: days, p: m, gram, xty, yty };
      if (input.lambdaRule === 'lear') rawGram ??= unstandardisedGram(gram, keptScales);
      return { ...base, beta: estimateHour(problem, keptScales, input.lambdaRule, rawGram) };
    }
    // The duck column is hour-specific: border the shared Gram matrix with its cross-products.
    const q = m + 1;
    const u = Float64Array.from(duckColumn, (v) => (v - duckMean) / duckSd);
    const extended = new Float64Array(q * q);
    for (let a = 0; a < m; a++) extended.set(gram.subarray(a * m, (a + 1) * m), a * q);
    for (let a = 0; a < m; a++) {
      const s = dot(column(x, a), u);
      extended[a * q + m] = s;
      extended[m * q + a] = s;
    }
    extended[q * q - 1] = days;
    const xtyExtended = new Float64Array(q);
    xtyExtended.set(xty);
    xtyExtended[m] = dot(u, y);
    const scales = new Float64Array(q);
    scales.set(keptScales);
    scales[m] = duckSd;
    const beta = estimateHour({ n: days, p: q, gram: extended, xty: xtyExtended, yty }, scales, input.lambdaRule);
    return { ...base, beta: beta.subarray(0, m), duck: { mean: duckMean, scale: duckSd, beta: beta[m] } };
  });
  return { ...model, hours };
}

/**
 * Window models kept for reuse: the engine fits price_lear, price_lear_median and price_lear_vst on the same
 * histories. It validates on up to 14 folds plus the final fit, four windows each per transform (120 models), and
 * the other members read them in the order price_lear wrote them: with fewer places than a pass needs,
 * least-recently-used eviction dropped each model just before its second read, and every forecast without
 * fundamentals fitted its windows twice (4 years of Belgian prices: 20.5 s -> 9 s). About 70 kB a model.
 */
const WINDOW_CACHE_SIZE = 192;
const windowCache = new Map<string, WindowModel>();

/** Two FNV-1a hashes (64 bits together) of the words of the cells a window model reads. */
function hashCells(arrays: Float64Array[], from: number, to: number): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (const array of arrays) {
    const words = new Uint32Array(array.buffer, array.byteOffset + from * 8, (to - from) * 2);
    for (let i = 0; i < words.length; i++) {
      a = Math.imul(a ^ words[i], 0x01000193);
      b = Math.imul(b ^ words[i], 0x5bd1e995) ^ (b >>> 15);
    }
  }
  return `${(a >>> 0).toString(36)}${(b >>> 0).toString(36)}`;
}

/**
 * fitWindow, memoised on everything the fit reads: the window's days with their lags of prices, fundamentals
 * and the duck-curve column, the calendar and the lambda rule. A model depends on nothing else, so a hit
 * is the same model a fresh fit would give.
 */
function cachedWindow(input: FitWindowInput): WindowModel {
  const from = (input.lastDay - input.days + 1 - MAX_LAG_DAYS) * HOURS;
  const to = (input.lastDay + 1) * HOURS;
  const arrays = [input.prices, ...input.set.exogenous, ...(input.set.duck ? [input.set.duck] : [])];
  const key = `${input.days}|${input.firstDayNumber + input.lastDay}|${input.lambdaRule}|${input.transform}|${input.set.exogenous.length}|${input.set.duck ? 1 : 0}|${hashCells(arrays, from, to)}`;
  const hit = windowCache.get(key);
  if (hit) {
    windowCache.delete(key);
    windowCache.set(key, hit);
    return hit;
  }
  const model = fitWindow(input);
  windowCache.set(key, model);
  if (windowCache.size > WINDOW_CACHE_SIZE) windowCache.delete(windowCache.keys().next().value as string);
  return model;
}

/** The 24 forecasts of one window model for day `d`, in EUR/MWh (the series' unit). */
function predictDay(model: WindowModel, d: number, dayNumber: number, prices: Float64Array, set: FeatureSet): number[] {
  const row = new Float64Array(baseFeatureCount(set.exogenous.length));
  baseFeatures(d, dayNumber, prices, set, model, row);
  return model.hours.map((hour, h) => {
    let z = hour.intercept;
    for (let c = 0; c < hour.columns.length; c++) {
      if (hour.beta[c] !== 0) z += (hour.beta[c] * (row[hour.columns[c]] - hour.means[c])) / hour.scales[c];
    }
    if (hour.duck && set.duck) z += (hour.duck.beta * (set.duck[d * HOURS + h] - hour.duck.mean)) / hour.duck.scale;
    return model.priceTransforms[h].inverse(Math.min(Math.max(z, hour.low), hour.high));
  });
}

// ---------------------------------------------------------------- the member

/** Exogenous variables given over both the history and the horizon. */
function sharedExogenous(history: Exogenous | undefined, future: Exogenous | undefined, length: number): string[] {
  if (!history || !future) return [];
  return Object.keys(history)
    .filter((name) => history[name]?.length === length && Array.isArray(future[name]) && future[name].length > 0)
    .sort();
}

/** Clear-sky GHI at the middle of each of the first `size` local hour cells of the grid. */
function clearSkyCells(firstHour: number, size: number, offset: OffsetMinutes, latitude: number, longitude: number): Float64Array {
  const out = new Float64Array(size);
  for (let c = 0; c < size; c++) {
    const localMs = (firstHour + c + 0.5) * HOUR_MS;
    const utc = localMs - offset(localMs) * 60_000;
    out[c] = clearSkyGhiAt(new Date(utc), { latitude, longitude });
  }
  return out;
}

/** How a LEAR member combines its window models. */
interface LearSpec {
  name: string;
  windows: readonly number[];
  /** Transforms of the prices, each fitted on every window (the option `priceTransforms` overrides them). */
  transforms: readonly PriceTransformName[];
  combine: (forecasts: number[]) => number;
}

const meanOf = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;

function fitLear(history: RegularSeries, context: FitContext, spec: LearSpec): FittedModel {
  const step = history.stepMinutes;
  if (!(step > 0 && step <= 60 && 60 % step === 0)) throw new RangeError(`${spec.name} needs an hourly or sub-hourly series, got ${step}-minute steps`);
  if (!history.t.length) throw new RangeError(`${spec.name} needs a history`);
  const options = priceOptions(context.options, spec.transforms);
  const perDay = stepsPerDay(step);
  const wanted = options.calibrationWindows ?? [...spec.windows];
  // Only the tail the longest window needs (plus its lags and a partial day) is read.
  const start = Math.max(0, history.t.length - (Math.max(...wanted, SHORT_CALIBRATION_DAYS) + MAX_LAG_DAYS + 2) * perDay);
  const times = history.t.slice(start);
  const stepMs = step * 60_000;
  const lastTime = history.t[history.t.length - 1];
  const offset = zoneOffset(context.timezone);
  const names = sharedExogenous(context.history, context.future, history.t.length);
  const futureLength = Math.max(0, ...names.map((name) => context.future?.[name]?.length ?? 0));
  const futureTimes = Array.from({ length: futureLength }, (_, i) => lastTime + (i + 1) * stepMs);

  const historyHours = localHourNumbers(times, offset);
  const futureHours = localHourNumbers(futureTimes, offset);
  const firstDayNumber = Math.floor(historyHours[0] / HOURS);
  const firstHour = firstDayNumber * HOURS;
  const historyCells = historyHours.map((hour) => hour - firstHour);
  const futureCells = futureHours.map((hour) => hour - firstHour);
  const lastKnownCell = Math.max(historyCells[historyCells.length - 1], futureLength ? futureCells[futureLength - 1] : 0);
  const size = (Math.floor(lastKnownCell / HOURS) + 1) * HOURS;

  const prices = aggregateCells(history.y.slice(start), historyCells, size);
  const lastObserved = lastFinite(prices);
  if (lastObserved < 0) throw new RangeError(`${spec.name}: the history has no prices`);
  fillLinear(prices, lastObserved + 1);
  // The first day with an unobserved hour is the first day forecast; every earlier day can be a target.
  const firstForecastDay = Math.floor((lastObserved + 1) / HOURS);
  const lastTrainingDay = firstForecastDay - 1;
  const available = lastTrainingDay - MAX_LAG_DAYS + 1;
  if (available < MIN_CALIBRATION_DAYS) throw new RangeError(`${spec.name} needs ${MIN_CALIBRATION_DAYS + MAX_LAG_DAYS} complete days of prices, got ${Math.max(available + MAX_LAG_DAYS, 0)}`);
  let windows = [...new Set(wanted.filter((w) => w <= available))];
  if (!windows.length) windows = [Math.min(SHORT_CALIBRATION_DAYS, available)];

  // Exogenous grids over history and horizon; `covered` is the last cell each one reaches.
  const exogenous = names.map((name) => {
    const grid = aggregateCells((context.history as Exogenous)[name].slice(start), historyCells, size);
    const ahead = aggregateCells((context.future as Exogenous)[name], futureCells, size);
    for (let c = 0; c < size; c++) if (Number.isFinite(ahead[c])) grid[c] = ahead[c];
    const first = grid.findIndex(Number.isFinite);
    const covered = lastFinite(grid);
    fillLinear(grid, covered + 1);
    return { name, grid, first, covered };
  });
  // A variable must reach the last training day and cover the shortest calibration window with its lags.
  const daysFrom = (cell: number) => lastTrainingDay - Math.ceil(cell / HOURS) - MAX_LAG_DAYS + 1;
  const usable = exogenous.filter((v) => v.first >= 0 && v.covered >= lastTrainingDay * HOURS + HOURS - 1 && daysFrom(v.first) >= MIN_CALIBRATION_DAYS);
  const exogenousCovered = Math.min(...usable.map((v) => v.covered));
  const exogenousDays = Math.min(...usable.map((v) => daysFrom(v.first)));
  // Windows reaching back before the exogenous history would train on filled-in values: those are cut to it.
  const exogenousWindows = [...new Set(windows.map((w) => Math.min(w, exogenousDays)))];

  const standardMinutes = Math.min(offset(Date.UTC(2021, 0, 1)), offset(Date.UTC(2021, 6, 1)));
  const latitude = context.latitude ?? DEFAULT_LATITUDE;
  const longitude = context.longitude ?? standardMinutes / 4;
  let clearSky: Float64Array | undefined;
  const clearSkyUpTo = (cells: number) => {
    if (!clearSky || clearSky.length < cells) clearSky = clearSkyCells(firstHour, cells, offset, latitude, longitude);
    return clearSky;
  };
  const solarShare = (solar: Float64Array, load: Float64Array | undefined) => (load ? solar.map((s, c) => (load[c] > 0 ? s / load[c] : 0)) : solar);
  const solarVariable = usable.find((v) => v.name === 'solar_forecast');
  const loadVariable = usable.find((v) => /load/i.test(v.name));

  const fitSet = (set: FeatureSet, days = windows) =>
    days.flatMap((w) => options.transforms.map((transform) => cachedWindow({ prices, set, lastDay: lastTrainingDay, days: w, firstDayNumber, lambdaRule: options.lambdaRule, transform })));
  const fullSet: FeatureSet = {
    exogenous: usable.map((v) => v.grid),
    duck: options.duckCurve ? (solarVariable ? solarShare(solarVariable.grid, loadVariable?.grid) : clearSkyUpTo(size)) : undefined,
  };
  const families = new Map<'full' | 'reduced', WindowModel[]>([['full', fitSet(fullSet, usable.length ? exogenousWindows : windows)]]);

  return {
    predict(steps: number): number[] {
      if (!(Number.isInteger(steps) && steps >= 0)) throw new RangeError('steps must be a whole number');
      if (steps === 0) return [];
      const horizonCells = localHourNumbers(
        Array.from({ length: steps }, (_, i) => lastTime + (i + 1) * stepMs),
        offset,
      ).map((hour) => hour - firstHour);
      const lastDay = Math.floor(horizonCells[steps - 1] / HOURS);
      const cells = Math.max(size, (lastDay + 1) * HOURS);
      const working = new Float64Array(cells).fill(NaN);
      working.set(prices.subarray(0, lastObserved + 1));
      const reducedSet: FeatureSet = { exogenous: [], duck: options.duckCurve ? clearSkyUpTo(cells) : undefined };
      const reduced = () => {
        if (!families.has('reduced')) families.set('reduced', fitSet({ exogenous: [], duck: options.duckCurve ? clearSkyUpTo(size) : undefined }));
        return families.get('reduced') as WindowModel[];
      };
      for (let d = firstForecastDay; d <= lastDay; d++) {
        const withExogenous = (d + 1) * HOURS - 1 <= exogenousCovered || !usable.length;
        // The clear-sky proxy extends with the horizon; a forecast solar share only exists where given.
        const full = fullSet.duck && !solarVariable ? { ...fullSet, duck: clearSkyUpTo(cells) } : fullSet;
        const [models, set] = withExogenous ? [families.get('full') as WindowModel[], full] : [reduced(), reducedSet];
        const forecasts = models.map((model) => predictDay(model, d, firstDayNumber + d, working, set));
        for (let h = 0; h < HOURS; h++) {
          const c = d * HOURS + h;
          if (c > lastObserved) working[c] = spec.combine(forecasts.map((f) => f[h]));
        }
      }
      return Array.from(horizonCells, (c) => working[c]);
    },
  };
}

export const priceLearMember: ForecastMember = {
  name: 'price_lear',
  supports: (kind) => kind === 'price',
  minHistory: (stepMinutes) => (MIN_CALIBRATION_DAYS + MAX_LAG_DAYS + 1) * stepsPerDay(stepMinutes),
  fit: (history, context) => fitLear(history, context, { name: 'price_lear', windows: LEAR_CALIBRATION_WINDOWS_DAYS, transforms: ['asinh'], combine: meanOf }),
};

/**
 * LEAR combined by the hourly median instead of the mean over the same calibration windows: one window's
 * outlying forecast (a spike in a short window, a regime change a long one has not seen) moves it less.
 * Averaging across windows is what makes LEAR robust (Hubicka, Marcjasz & Weron 2019, IEEE Trans. Sustain.
 * Energy 10(1)); on the TUNE periods (Nord Pool 2015-2016, Belgium 2017-2018) the median was at least as
 * good as the mean with and without fundamentals, while adding a 28-day window or the models without
 * fundamentals helped on one market and hurt on the other. Its window models are price_lear's (cachedWindow),
 * so it costs almost nothing beside it.
 */
export const priceLearMedianMember: ForecastMember = {
  name: 'price_lear_median',
  supports: (kind) => kind === 'price',
  minHistory: priceLearMember.minHistory,
  fit: (history, context) => fitLear(history, context, { name: 'price_lear_median', windows: LEAR_CALIBRATION_WINDOWS_DAYS, transforms: ['asinh'], combine: median }),
};

/**
 * LEAR over two variance-stabilising transforms, asinh and N-PIT, each on the four calibration windows (eight
 * models), combined by their hourly median: Uniejewski, Weron & Ziel (2018) found combining over transforms more
 * accurate than any one of them, as combining over windows is. The median, not the mean: one window's outlying
 * forecast (a spike a short window learnt, a regime a long one has not seen) moves it less. By member on 112 spread
 * days a set (Nord Pool 2017-18 with fundamentals on all 728), MAE over LEAR on asinh, mean / median of the eight:
 * TUNE Nord Pool 2013-16 with / without fundamentals 0.996 / 1.001, 0.971 / 0.959, Belgium 2015-18 0.973 / 0.969,
 * 0.973 / 0.952; REPORT Nord Pool 2017-18 0.975 / 0.968 (728 days), 0.988 / 0.983, Belgium 2019-20 0.998 / 0.989,
 * 0.999 / 0.981. Its asinh models are price_lear's (cachedWindow).
 */
export const priceLearVstMember: ForecastMember = {
  name: 'price_lear_vst',
  supports: (kind) => kind === 'price',
  minHistory: priceLearMember.minHistory,
  fit: (history, context) => fitLear(history, context, { name: 'price_lear_vst', windows: LEAR_CALIBRATION_WINDOWS_DAYS, transforms: ['asinh', 'npit'], combine: median }),
};

// ---------------------------------------------------------------- the naive reference

/** Days back the epftoolbox naive forecast looks, by weekday (Monday first): a week on Monday and the weekend. */
const NAIVE_LAG_DAYS = [7, 1, 1, 1, 1, 7, 7] as const;

/**
 * The naive forecast of Lago et al. (2021, section 4.3) and epftoolbox: hour h of day D takes the price at
 * hour h of D-1 on Tuesday to Friday and of D-7 on Monday, Saturday and Sunday, on local days
 * (context.timezone). The paper's rMAE divides by its error, so as a member it is the reference any price
 * choice must beat. Beyond the first day its own forecasts stand in for the lagged days.
 */
export const epftoolboxNaiveMember: ForecastMember = {
  name: 'epftoolbox_naive',
  supports: (kind) => kind === 'price',
  minHistory: (stepMinutes) => (MAX_LAG_DAYS + 1) * stepsPerDay(stepMinutes),
  fit(history: RegularSeries, context: FitContext): FittedModel {
    const step = history.stepMinutes;
    if (!(step > 0 && step <= 60 && 60 % step === 0)) throw new RangeError(`epftoolbox_naive needs an hourly or sub-hourly series, got ${step}-minute steps`);
    const offset = zoneOffset(context.timezone);
    const start = Math.max(0, history.t.length - (MAX_LAG_DAYS + 2) * stepsPerDay(step));
    const hours = localHourNumbers(history.t.slice(start), offset);
    if (!hours.length) throw new RangeError('epftoolbox_naive needs a history');
    const firstDayNumber = Math.floor(hours[0] / HOURS);
    const cells = hours.map((hour) => hour - firstDayNumber * HOURS);
    const size = (Math.floor(cells[cells.length - 1] / HOURS) + 1) * HOURS;
    const prices = aggregateCells(history.y.slice(start), cells, size);
    const lastObserved = lastFinite(prices);
    if (lastObserved < 0) throw new RangeError('epftoolbox_naive: the history has no prices');
    fillLinear(prices, lastObserved + 1);
    const lastTime = history.t[history.t.length - 1];
    return {
      predict(steps: number): number[] {
        if (!(Number.isInteger(steps) && steps >= 0)) throw new RangeError('steps must be a whole number');
        const horizon = localHourNumbers(Array.from({ length: steps }, (_, i) => lastTime + (i + 1) * step * 60_000), offset).map((hour) => hour - firstDayNumber * HOURS);
        const lastCell = steps ? horizon[steps - 1] : -1;
        const working = new Float64Array(Math.max(size, lastCell + 1)).fill(NaN);
        working.set(prices.subarray(0, lastObserved + 1));
        for (let c = lastObserved + 1; c <= lastCell; c++) {
          const lag = NAIVE_LAG_DAYS[weekdayOf(firstDayNumber + Math.floor(c / HOURS))];
          working[c] = working[Math.max(0, c - lag * HOURS)];
        }
        return Array.from(horizon, (c) => working[c]);
      },
    };
  },
};

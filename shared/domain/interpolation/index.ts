/**
 * Data cleaning (ARCHITECTURE 7): gap filling by linear, monotone cubic (PCHIP, Fritsch & Carlson 1980),
 * seasonal-profile (same times of the neighbouring days, shifted to the gap's edges) and, for solar, the
 * clear-sky ratio (the clear-sky index interpolated across the gap, times the clear-sky output, so a noon
 * gap keeps the day's shape); `analog_days`, the mean of the other days of the series most alike just before and
 * after the gap; `blend`, the mean of the seasonal profile and the clear-sky ratio (PCHIP where
 * there is no clear sky): the two err differently, so their mean errs less on the bench's long gaps;
 * `envelope_kriging` (solar), the array's clear-sky envelope plus the day's residual level, the edges' deviations
 * kriged into the gap (irradiance-reference.ts with a constant clear-sky index);
 * `adaptive` picks per gap length what errs least when known runs of that length are hidden in the same series:
 * one method, the inverse-error weighted mean of the best three, or a weighted pair, and keeps linear unless that
 * choice beats linear on runs it did not see (a cross-validated paired test). With irradiance from the
 * weather feed (`weather_correlation`), solar gaps may also be filled by `irradiance`: the array's own clear-sky
 * envelope times the feed's clear-sky index, the one signal that sees the clouds inside a gap. Outliers: a Hampel
 * filter on the residual from the neighbouring values, plus physical bounds; stuck and stale runs (stale.ts);
 * both are replaced by the fill and flagged. */
import { bestAlignment, clearSkyProfile, fitSystemScale, solarSite } from '../forecasting/solar';
import { irradianceFill, irradianceModel, type IrradianceModel } from './irradiance-reference';
import { beatsLinear, combine, mseOf, selectOn, trialOf, type Choice } from './selection';
import { staleIndices } from './stale';
import { stepsPerDay } from '../forecasting/types';
import { mulberry32 } from '../seeded-random';

export { staleIndices } from './stale';
export { COMBINATION_MIN_GAIN, COMBINED_CANDIDATES, GATE_Z, PAIR_WEIGHTS } from './selection';

export type FillMethod = 'linear' | 'pchip' | 'seasonal_profile' | 'clear_sky_ratio' | 'blend' | 'analog_days' | 'envelope_kriging' | 'irradiance' | 'adaptive';
type Concrete = Exclude<FillMethod, 'adaptive'>;

export interface CleanOptions {
  /** @default 'adaptive' */
  method?: FillMethod;
  /** Gaps longer than this stay missing. */
  maxGapSteps: number;
  /** Hampel filter and physical bounds (quality_enhancement). */
  detectOutliers: boolean;
  /** Stuck and stale runs (quality_enhancement; stale.ts). */
  detectStale?: boolean;
  /** Measure the fill's accuracy on known runs of this many steps (CleanResult.accuracy). */
  accuracyGapSteps?: number;
  /** Whether the seasonal profile may fill. */
  seasonalAdjustment: boolean;
  kind: 'solar' | 'wind' | 'load' | 'generic';
  latitude?: number;
  longitude?: number;
  /** Upper physical bound (1.2 x capacity) when known. */
  capacity?: number;
  /** A filled value whose confidence is below it stays missing. */
  confidenceThreshold?: number;
  /** Aligned with the grid (NaN where unknown); solar irradiance enables the `irradiance` method. */
  exogenous?: { ghi_wm2?: number[] };
}

/** `original` for input values kept and for gaps left unfilled; `interpolated` for fills; `stale` for stuck values (filled, or missing when their run is too long to fill). */
export type Quality = 'original' | 'interpolated' | 'stale';

export interface CleanResult {
  values: number[];
  quality: Quality[];
  /** 1 for originals; for fills 1 - RMSE(method, gap length) / spread of the series, from hiding known values. */
  confidence: number[];
  outlierIndices: number[];
  /** Stuck or stale values (stale.ts), replaced like outliers. */
  staleIndices: number[];
  /** With `accuracyGapSteps`: the fill's RMSE and MAE on that many steps of known values hidden at a time. */
  accuracy?: { rmse: number; mae: number; runs: number };
  /** `combination`: the candidates' fills weighted by their inverse validation error (see `adaptive`). */
  gaps: { start: number; end: number; steps: number; method: Concrete | 'combination' | 'unfilled' }[];
}

interface Series {
  t: number[];
  y: number[];
  stepMinutes: number;
}

/** Hampel filter (Hampel 1974; Pearson 2002): half-window in steps and threshold in scaled MADs. */
export const HAMPEL_HALF_WINDOW = 3;
export const HAMPEL_K = 3;
/** Days either side whose same time of day forms the seasonal profile. */
export const PROFILE_DAYS = 7;
/** Known runs hidden per gap length when `adaptive` chooses (SERF East: 60 chose better than 24 at every gap length; 120 no better than 60). */
export const ADAPTIVE_TRIALS = 60;
/** Known runs hidden to measure a result's accuracy (CleanResult.accuracy). */
export const ACCURACY_RUNS = 40;
/** Analog days: how many of the most similar other days fill a gap. */
export const ANALOG_NEIGHBOURS = 15;
/** Analog days: minutes of known values either side of a gap that describe its day (60 measured better than 120-240). */
export const ANALOG_CONTEXT_MINUTES = 60;
/** Analog days: e-folding time, minutes, of the edge residual into the gap (a cloud state persists about this long; 30 measured best of 15-90). */
export const ANALOG_EDGE_DECAY_MINUTES = 30;
/** Negative generation beyond this share of the series' maximum is impossible (inverter self-consumption is smaller). */
const NEGATIVE_SHARE = 0.02;

const known = (v: number) => Number.isFinite(v);

/** Fritsch-Carlson slopes at the nodes (x increasing), monotone where the data are. */
function pchipSlopes(x: number[], y: number[]): number[] {
  const n = x.length;
  const h = x.slice(1).map((xi, i) => xi - x[i]);
  const delta = h.map((hi, i) => (y[i + 1] - y[i]) / hi);
  const d = new Array<number>(n).fill(0);
  for (let i = 1; i < n - 1; i++) {
    if (delta[i - 1] * delta[i] > 0) {
      const w1 = 2 * h[i] + h[i - 1];
      const w2 = h[i] + 2 * h[i - 1];
      d[i] = (w1 + w2) / (w1 / delta[i - 1] + w2 / delta[i]);
    }
  }
  // End slopes: the one-sided three-point formula, kept monotone (Moler, Numerical Computing with MATLAB, pchip).
  const end = (h0: number, h1: number, d0: number, d1: number) => {
    let s = ((2 * h0 + h1) * d0 - h0 * d1) / (h0 + h1);
    if (Math.sign(s) !== Math.sign(d0)) s = 0;
    else if (Math.sign(d0) !== Math.sign(d1) && Math.abs(s) > Math.abs(3 * d0)) s = 3 * d0;
    return s;
  };
  if (n === 2) d[0] = d[1] = delta[0];
  else {
    d[0] = end(h[0], h[1], delta[0], delta[1]);
    d[n - 1] = end(h[n - 2], h[n - 3], delta[n - 2], delta[n - 3]);
  }
  return d;
}

/** Known neighbours of a gap [a, b]: up to `k` on each side, nearest first. */
function neighbours(y: readonly number[], a: number, b: number, k: number): number[] {
  const left: number[] = [];
  for (let i = a - 1; i >= 0 && left.length < k; i--) if (known(y[i])) left.unshift(i);
  const right: number[] = [];
  for (let i = b + 1; i < y.length && right.length < k; i++) if (known(y[i])) right.push(i);
  return [...left, ...right];
}

interface Context {
  series: Series;
  options: CleanOptions;
  perDay: number;
  /** Seasonal profile per index (NaN where no neighbouring day knows the time). */
  profile?: number[];
  /** Clear-sky output per index for solar (0 at night), when the site is known or can be estimated. */
  clearSky?: number[];
  /** Expected output from the weather feed's irradiance and its residual model (irradiance-reference.ts), for solar with irradiance. */
  irradiance?: IrradianceModel;
  /** The same model with a constant clear-sky index: the array's envelope, the day's level and kriged edges, from the history alone. */
  envelope?: IrradianceModel;
}

function fillGap(method: Concrete, y: readonly number[], a: number, b: number, ctx: Context): number[] | null {
  if (method === 'analog_days') return analogFill(y, a, b, ctx);
  if (method === 'blend') {
    const parts = (['seasonal_profile', ctx.clearSky ? 'clear_sky_ratio' : 'pchip'] as Concrete[]).map((m) => fillGap(m, y, a, b, ctx));
    if (parts.some((p) => !p)) return null;
    return parts[0]!.map((v, k) => (v + parts[1]![k]) / 2);
  }
  const left = a - 1;
  const right = b + 1;
  if (left < 0 || right >= y.length || !known(y[left]) || !known(y[right])) return null;
  const span = right - left;
  const out: number[] = [];
  if (method === 'linear') {
    for (let i = a; i <= b; i++) out.push(y[left] + ((y[right] - y[left]) * (i - left)) / span);
    return out;
  }
  if (method === 'pchip') {
    const nodes = neighbours(y, a, b, 3);
    const xs = nodes;
    const ys = nodes.map((i) => y[i]);
    const d = pchipSlopes(xs, ys);
    const k = xs.indexOf(left);
    const h = right - left;
    for (let i = a; i <= b; i++) {
      const s = (i - left) / h;
      const h00 = 2 * s ** 3 - 3 * s ** 2 + 1;
      const h10 = s ** 3 - 2 * s ** 2 + s;
      const h01 = -2 * s ** 3 + 3 * s ** 2;
      const h11 = s ** 3 - s ** 2;
      out.push(h00 * y[left] + h10 * h * d[k] + h01 * y[right] + h11 * h * d[k + 1]);
    }
    return out;
  }
  if (method === 'seasonal_profile') {
    const p = ctx.profile;
    if (!p || !known(p[left]) || !known(p[right])) return null;
    const r0 = y[left] - p[left];
    const r1 = y[right] - p[right];
    for (let i = a; i <= b; i++) {
      if (!known(p[i])) return null;
      out.push(p[i] + r0 + ((r1 - r0) * (i - left)) / span);
    }
    return out;
  }
  if (method === 'irradiance') return ctx.irradiance ? irradianceFill(ctx.irradiance, y, left, right, ctx.perDay) : null;
  if (method === 'envelope_kriging') return ctx.envelope ? irradianceFill(ctx.envelope, y, left, right, ctx.perDay) : null;
  // clear_sky_ratio
  const c = ctx.clearSky;
  if (!c) return null;
  // The index at each edge: produced over possible on the nearest known daylight values (up to an hour's
  // worth), so one cloud edge does not set it (a gap may also start at dawn).
  const EDGE_POINTS = Math.max(1, Math.round(60 / ctx.series.stepMinutes));
  const ratioNear = (from: number, dir: -1 | 1) => {
    let produced = 0;
    let possible = 0;
    let used = 0;
    for (let i = from, seen = 0; i >= 0 && i < y.length && seen < ctx.perDay && used < EDGE_POINTS; i += dir, seen++) {
      if (known(y[i]) && c[i] > 0.05 * maxOf(c)) {
        produced += y[i];
        possible += c[i];
        used++;
      }
    }
    return possible > 0 ? produced / possible : NaN;
  };
  const k0 = ratioNear(left, -1);
  const k1 = ratioNear(right, 1);
  if (!known(k0) || !known(k1)) return null;
  for (let i = a; i <= b; i++) out.push(c[i] > 0 ? (k0 + ((k1 - k0) * (i - left)) / span) * c[i] : 0);
  return out;
}

/**
 * Analog days (k nearest neighbours, Lorenz 1969 analogues): the other days of the series most alike at the same
 * clock times just before and after the gap, each brought to the gap day's clear sky, averaged with weights
 * 1 / distance over the gap; the residual at the two edges is interpolated across it (as in the seasonal profile).
 */
function analogFill(y: readonly number[], a: number, b: number, ctx: Context): number[] | null {
  const left = a - 1;
  const right = b + 1;
  if (left < 0 || right >= y.length || !known(y[left]) || !known(y[right])) return null;
  const { perDay } = ctx;
  const c = ctx.clearSky;
  const floor = c ? 0.05 * maxOf(c) : 0;
  // Candidate j's value brought to index i's clear sky (the same clock time on another day).
  const moved = (i: number, j: number) => (c && c[i] > floor && c[j] > floor ? (y[j] * c[i]) / c[j] : y[j]);
  const w = Math.max(1, Math.round(ANALOG_CONTEXT_MINUTES / ctx.series.stepMinutes));
  const context: number[] = [];
  for (let i = left - w + 1; i <= left; i++) if (i >= 0 && known(y[i])) context.push(i);
  for (let i = right; i < right + w; i++) if (i < y.length && known(y[i])) context.push(i);
  const found: { shift: number; distance: number }[] = [];
  for (let shift = -Math.floor(left / perDay) * perDay; left + shift >= 0 && right + shift < y.length; shift += perDay) {
    if (shift === 0) continue;
    let ok = true;
    for (let i = left; ok && i <= right; i++) ok = known(y[i + shift]);
    if (!ok) continue;
    let se = 0;
    let n = 0;
    for (const i of context) {
      const j = i + shift;
      if (j < 0 || j >= y.length || !known(y[j])) continue;
      se += (y[i] - moved(i, j)) ** 2;
      n++;
    }
    if (n * 2 < context.length) continue;
    found.push({ shift, distance: Math.sqrt(se / n) });
  }
  if (!found.length) return null;
  found.sort((p, q) => p.distance - q.distance);
  const nearest = found.slice(0, ANALOG_NEIGHBOURS);
  const eps = 1e-9;
  const weights = nearest.map((f) => 1 / (f.distance + eps));
  const total = weights.reduce((s, v) => s + v, 0);
  const analog = (i: number) => nearest.reduce((s, f, k) => s + weights[k] * moved(i, i + f.shift), 0) / total;
  const r0 = y[left] - analog(left);
  const r1 = y[right] - analog(right);
  const out: number[] = [];
  const tau = ANALOG_EDGE_DECAY_MINUTES / ctx.series.stepMinutes;
  for (let i = a; i <= b; i++) out.push(analog(i) + r0 * Math.exp(-(i - left) / tau) + r1 * Math.exp(-(right - i) / tau));
  return out;
}

const maxCache = new WeakMap<readonly number[], number>();
function maxOf(xs: readonly number[]): number {
  let m = maxCache.get(xs);
  if (m === undefined) {
    m = xs.reduce((a, b) => (b > a ? b : a), 0);
    maxCache.set(xs, m);
  }
  return m;
}

/** Mean of the same time of day on up to PROFILE_DAYS days either side (excluding the index itself). */
function seasonalProfile(y: readonly number[], perDay: number): number[] {
  return y.map((_, i) => {
    let sum = 0;
    let count = 0;
    for (let k = 1; k <= PROFILE_DAYS; k++) {
      for (const j of [i - k * perDay, i + k * perDay]) {
        if (j >= 0 && j < y.length && known(y[j])) {
          sum += y[j];
          count++;
        }
      }
    }
    return count ? sum / count : NaN;
  });
}

/**
 * Clear-sky output of the system (clear-sky GHI times its fitted scale). Irradiance does not replace it: the site's
 * NSRDB PSM3 GHI as this reference measured worse on SERF East (adaptive 1.06, 1.04, 0.85 x linear at 1, 3, 6 h).
 */
function clearSkyOutput(series: Series, options: CleanOptions): number[] | undefined {
  const site = solarSite(series, { kind: 'solar', latitude: options.latitude, longitude: options.longitude });
  if (!site) return undefined;
  const alignment = site.estimated ? 'instant' : bestAlignment(series.t, series.y, series.stepMinutes, site);
  const reference = clearSkyProfile(series.t, series.stepMinutes, site, alignment);
  const scale = fitSystemScale(series.y, reference);
  return scale > 0 ? reference.map((c) => c * scale) : undefined;
}

/** Days of series a daily (seasonal) profile needs: fewer and `seasonalAdjustment` has no effect. */
export const MIN_PROFILE_DAYS = 3;

function candidates(ctx: Context): Concrete[] {
  const list: Concrete[] = ['linear', 'pchip'];
  if (ctx.options.seasonalAdjustment && ctx.series.y.length >= MIN_PROFILE_DAYS * ctx.perDay) list.push('seasonal_profile');
  if (ctx.clearSky) list.push('clear_sky_ratio');
  if (list.includes('seasonal_profile')) list.push('blend');
  if (ctx.series.y.length >= 3 * ctx.perDay) list.push('analog_days');
  if (ctx.envelope) list.push('envelope_kriging');
  if (ctx.irradiance) list.push('irradiance');
  return list;
}

/** Runs of `length` known values with known edges, at seeded positions (daylight only when asked). */
function hiddenRuns(y: readonly number[], length: number, count: number, seed: number, daylight?: readonly boolean[]): number[] {
  const random = mulberry32(seed);
  const starts = new Set<number>();
  for (let attempt = 0; attempt < count * 30 && starts.size < count; attempt++) {
    const a = 1 + Math.floor(random() * (y.length - length - 2));
    let ok = a >= 1 && a + length < y.length && known(y[a - 1]) && known(y[a + length]);
    for (let i = a; ok && i < a + length; i++) ok = known(y[i]) && (!daylight || daylight[i]);
    if (ok) starts.add(a);
  }
  return [...starts];
}

function errorsOf(method: Concrete, y: number[], starts: readonly number[], length: number, ctx: Context): { se: number; ae: number; n: number } {
  return hiddenRunErrors(y, starts, length, (a, b) => fillGap(method, y, a, b, ctx));
}

/** Hides each known run (restoring it after), fills it with `fill`, and sums the errors against the hidden truth. */
function hiddenRunErrors(y: number[], starts: readonly number[], length: number, fill: (a: number, b: number) => number[] | null | undefined): { se: number; ae: number; n: number } {
  let se = 0;
  let ae = 0;
  let n = 0;
  for (const a of starts) {
    const b = a + length - 1;
    const truth = y.slice(a, b + 1);
    for (let i = a; i <= b; i++) y[i] = NaN;
    const filled = fill(a, b);
    truth.forEach((v, k) => (y[a + k] = v));
    filled?.forEach((v, k) => {
      se += (v - truth[k]) ** 2;
      ae += Math.abs(v - truth[k]);
      n++;
    });
  }
  return { se, ae, n };
}

function contextOf(series: Series, options: CleanOptions, y: number[]): Context {
  const perDay = stepsPerDay(series.stepMinutes);
  const ctx: Context = { series: { ...series, y }, options, perDay };
  // The clear sky also places solar's hidden runs in daylight, so even the edge-only methods need it.
  if (options.kind === 'solar' && y.length >= 2 * perDay) ctx.clearSky = clearSkyOutput({ ...series, y }, options);
  if (options.method === 'linear' || options.method === 'pchip') return ctx;
  if (options.seasonalAdjustment && y.length >= MIN_PROFILE_DAYS * perDay) ctx.profile = seasonalProfile(y, perDay);
  const ghi = options.exogenous?.ghi_wm2;
  if (ctx.clearSky && y.length >= 3 * perDay) ctx.envelope = irradianceModel(y, ctx.clearSky, ctx.clearSky, perDay, series.stepMinutes);
  if (ctx.clearSky && ghi?.length === y.length && y.length >= 3 * perDay) ctx.irradiance = irradianceModel(y, ctx.clearSky, ghi, perDay, series.stepMinutes);
  return ctx;
}

/** Robust spread of the known values (1.4826 x MAD, or the standard deviation when the MAD is 0). */
function spreadOf(y: readonly number[]): number {
  const v = y.filter(known).sort((a, b) => a - b);
  if (!v.length) return 0;
  const median = v[Math.floor(v.length / 2)];
  const dev = v.map((x) => Math.abs(x - median)).sort((a, b) => a - b);
  const mad = 1.4826 * dev[Math.floor(dev.length / 2)];
  if (mad > 0) return mad;
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  return Math.sqrt(v.reduce((s, x) => s + (x - mean) ** 2, 0) / v.length);
}

/**
 * Outliers: physical bounds, then a Hampel filter on the values themselves (the median of the neighbours is
 * the reference: a ramp's neighbours bracket its value, a spike's do not).
 */
function outliersOf(y: readonly number[], options: CleanOptions): number[] {
  const out: number[] = [];
  const max = Math.max(0, ...y.filter(known));
  const residual = y;
  for (let i = 0; i < y.length; i++) {
    if (!known(y[i])) continue;
    const generation = options.kind === 'solar' || options.kind === 'wind';
    if ((generation && y[i] < -NEGATIVE_SHARE * max) || (options.capacity !== undefined && y[i] > 1.2 * options.capacity)) {
      out.push(i);
      continue;
    }
    const window: number[] = [];
    for (let j = Math.max(0, i - HAMPEL_HALF_WINDOW); j <= Math.min(y.length - 1, i + HAMPEL_HALF_WINDOW); j++) if (j !== i && known(residual[j])) window.push(residual[j]);
    if (window.length < 3) continue;
    window.sort((p, q) => p - q);
    const median = window[Math.floor(window.length / 2)];
    const mad = 1.4826 * [...window.map((w) => Math.abs(w - median))].sort((p, q) => p - q)[Math.floor(window.length / 2)];
    // A floor on the MAD keeps a flat stretch (night zeros) from flagging the first morning value.
    const scale = Math.max(mad, 0.02 * (max || 1));
    if (Math.abs(residual[i] - median) > HAMPEL_K * scale) out.push(i);
  }
  return out;
}

/** Cleans a regular series; see the module comment. */
export function cleanSeries(series: Series, options: CleanOptions): CleanResult {
  const y = series.y.map((v) => (known(v) ? v : NaN));
  // Stale runs first: a flat run has no spike for the Hampel filter, and its repeats would skew the neighbours' median.
  const staleAt = options.detectStale ? staleIndices(y, { stepMinutes: series.stepMinutes, kind: options.kind }) : [];
  for (const i of staleAt) y[i] = NaN;
  const outlierIndices = options.detectOutliers ? outliersOf(y, options) : [];
  for (const i of outlierIndices) y[i] = NaN;
  const ctx = contextOf(series, options, y);
  const spread = spreadOf(y) || 1;
  const quality: Quality[] = series.y.map(() => 'original');
  const confidence = series.y.map(() => 1);
  const values = y.slice();
  const gaps: CleanResult['gaps'] = [];
  const choice = new Map<number, Choice<Concrete>>();
  const chooseFor = (length: number): Choice<Concrete> => {
    let best = choice.get(length);
    if (best) return best;
    // Solar: hidden runs in daylight only, where the methods differ (at night every fill is right).
    const daylight = ctx.clearSky?.map((c) => c > 0);
    const starts = hiddenRuns(y, length, ADAPTIVE_TRIALS, 7 + length, daylight && daylight.some(Boolean) ? daylight : undefined);
    const methods = options.method && options.method !== 'adaptive' ? [options.method] : candidates(ctx);
    const trials = starts.map((a) => {
      const b = a + length - 1;
      const truth = y.slice(a, b + 1);
      for (let i = a; i <= b; i++) y[i] = NaN;
      const fills = methods.map((m) => fillGap(m, y, a, b, ctx));
      truth.forEach((v, k) => (y[a + k] = v));
      return trialOf(truth, fills);
    });
    best = selectOn(trials, methods, spread);
    if (best.method !== 'linear' && methods.includes('linear') && !beatsLinear(trials, methods, spread)) {
      const linear = methods.map((m) => (m === 'linear' ? 1 : 0));
      best = { method: 'linear', weights: linear, methods, rmse: Math.sqrt(mseOf(trials, linear)) };
    }
    choice.set(length, best);
    return best;
  };
  const fillChosen = (chosen: Choice<Concrete>, a: number, b: number) => (chosen.method === 'combination' ? combine(chosen.methods.map((m, j) => (chosen.weights[j] > 0 ? fillGap(m, y, a, b, ctx) : null)), chosen.weights) : fillGap(chosen.method, y, a, b, ctx));
  for (let a = 0; a < y.length; a++) {
    if (known(y[a])) continue;
    let b = a;
    while (b + 1 < y.length && !known(y[b + 1])) b++;
    const steps = b - a + 1;
    let method: Concrete | 'combination' | 'unfilled' = 'unfilled';
    if (steps <= options.maxGapSteps) {
      const chosen = chooseFor(steps);
      const order = [chosen.method, ...(['linear', 'pchip'] as Concrete[]).filter((m) => m !== chosen.method)];
      for (const m of order) {
        const fill = m === chosen.method ? fillChosen(chosen, a, b) : fillGap(m as Concrete, y, a, b, ctx);
        if (!fill) continue;
        const conf = Math.max(0, Math.min(1, Number.isFinite(chosen.rmse) && m === chosen.method ? 1 - chosen.rmse / spread : 1 - (chooseForMethod(m as Concrete, steps) / spread)));
        if (conf < (options.confidenceThreshold ?? 0)) break;
        fill.forEach((v, k) => {
          values[a + k] = v;
          quality[a + k] = 'interpolated';
          confidence[a + k] = Math.round(conf * 1e4) / 1e4;
        });
        method = m;
        break;
      }
    }
    if (method === 'unfilled') for (let i = a; i <= b; i++) confidence[i] = 0;
    gaps.push({ start: a, end: b, steps, method });
    a = b;
  }
  for (const i of staleAt) quality[i] = 'stale';
  const accuracy = options.accuracyGapSteps ? accuracyAt(options.accuracyGapSteps) : undefined;
  return { values, quality, confidence, outlierIndices, staleIndices: staleAt, gaps, ...(accuracy ? { accuracy } : {}) };

  /**
   * The fill's accuracy at a gap length: fresh known runs (another seed than the choice's) hidden one at a time
   * and filled as a gap of that length is, with the same context, so it costs one fill per run, not a cleaning.
   */
  function accuracyAt(length: number): NonNullable<CleanResult['accuracy']> {
    const chosen = chooseFor(length);
    const daylight = ctx.clearSky?.map((c) => c > 0);
    const starts = hiddenRuns(y, length, ACCURACY_RUNS, 1 + length, daylight && daylight.some(Boolean) ? daylight : undefined);
    const { se, ae, n } = hiddenRunErrors(y, starts, length, (a, b) => fillChosen(chosen, a, b) ?? fillGap('linear', y, a, b, ctx));
    return { rmse: n ? Math.sqrt(se / n) : NaN, mae: n ? ae / n : NaN, runs: starts.length };
  }

  /** The validation RMSE of a fallback method at a gap length (NaN-safe). */
  function chooseForMethod(method: Concrete, length: number): number {
    const e = errorsOf(method, y, hiddenRuns(y, length, ADAPTIVE_TRIALS, 7 + length), length, ctx);
    return e.n ? Math.sqrt(e.se / e.n) : spread;
  }
}

/** Hides known runs of `gapSteps` at seeded positions, fills them with `method`, and scores the fills against the hidden truth. */
export function evaluateByHiding(
  series: Series,
  options: CleanOptions & { method: FillMethod },
  hide: { gapSteps: number; count: number; seed: number; daylightOnly?: boolean; /** Days either side each trial's series keeps. @default 8 */ windowDays?: number },
): {
  rmse: number;
  mae: number;
  gaps: number;
  levelRmse: number;
  shapeRmse: number;
  /** Each hidden run's first index and squared error summed over its filled values (for paired resampling). */
  perGap: { start: number; se: number }[];
} {
  const y = series.y.map((v) => (known(v) ? v : NaN));
  const ctx = contextOf(series, options, y);
  const daylight = hide.daylightOnly ? (ctx.clearSky ?? y.map((v) => v)).map((c) => c > 0) : undefined;
  const starts = hiddenRuns(y, hide.gapSteps, hide.count, hide.seed, daylight);
  let se = 0;
  let ae = 0;
  let n = 0;
  let levelSe = 0;
  const perGap: { start: number; se: number }[] = [];
  for (const a of starts) {
    const b = a + hide.gapSteps - 1;
    const truth = y.slice(a, b + 1);
    const hidden = y.slice();
    for (let i = a; i <= b; i++) hidden[i] = NaN;
    // A window of days either side keeps each trial's cost small; the exogenous series are cut alike.
    const days = hide.windowDays ?? 8;
    const from = Math.max(0, a - days * ctx.perDay);
    const to = Math.min(y.length, b + days * ctx.perDay + 1);
    const exogenous = options.exogenous && Object.fromEntries(Object.entries(options.exogenous).map(([k, v]) => [k, v?.slice(from, to)]));
    const filled = cleanSeries({ ...series, t: series.t.slice(from, to), y: hidden.slice(from, to) }, { ...options, exogenous, detectOutliers: false, detectStale: false, accuracyGapSteps: undefined, maxGapSteps: hide.gapSteps, confidenceThreshold: 0 });
    const errors = truth.map((v, k) => filled.values[a - from + k] - v).filter(known);
    const level = errors.reduce((s, e) => s + e, 0) / (errors.length || 1);
    const gapSe = errors.reduce((s, e) => s + e ** 2, 0);
    perGap.push({ start: a, se: gapSe });
    se += gapSe;
    ae += errors.reduce((s, e) => s + Math.abs(e), 0);
    levelSe += errors.length * level ** 2;
    n += errors.length;
  }
  const rms = (sum: number) => (n ? Math.sqrt(sum / n) : NaN);
  // Per gap, error = its mean (the level) + the rest (the shape), so rmse^2 = levelRmse^2 + shapeRmse^2.
  return { rmse: rms(se), mae: n ? ae / n : NaN, gaps: starts.length, levelRmse: rms(levelSe), shapeRmse: rms(Math.max(0, se - levelSe)), perGap };
}

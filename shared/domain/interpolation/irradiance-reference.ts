/**
 * Filling solar gaps from the weather feed's irradiance (`irradiance`). The reference is the array's own
 * clear-sky envelope times the feed's clear-sky index. The envelope is a high quantile of the same time of day
 * on the neighbouring days, so it follows the array's tilt, orientation and shading, which clear-sky GHI does
 * not (SERF East faces east: clear-sky GHI x scale as the envelope scored 0.95 x linear on 3 h gaps, the
 * envelope 0.89). The feed's clock convention (an hour's mean labelled at its start or end, a satellite's scan
 * time) is found as the lag, within LAG_MINUTES, at which the product best tracks the production.
 * The residual (production - reference) is filled by simple kriging: its level is the median over the day
 * around the gap, and its deviations from that level have the covariance c rho^d at lag d (a nugget 1 - c for
 * what does not persist even one step), fitted to their autocorrelation on the series. Interpolating the edge
 * residuals linearly instead carries a cloud edge's mismatch across the whole gap (SERF East: 0.89 against
 * 0.77 x linear on 3 h gaps).
 */
import { pearson } from '../weather/forecast-enhancement';

const known = (v: number) => Number.isFinite(v);

/** Days either side whose same time of day (and the neighbouring steps) form the envelope. */
export const ENVELOPE_DAYS = 7;
/** Quantile of those values taken as the clear-sky output (0.8 measured better than 0.9 on SERF East). */
export const ENVELOPE_QUANTILE = 0.8;
/** Largest clock offset, minutes, searched between the feed and the production. */
export const LAG_MINUTES = 60;
/** Clear-sky output below this share of its maximum leaves the index undefined there (low sun: ratio noise). */
const LOW_SUN_SHARE = 0.05;
/** The clear-sky index is capped here (cloud enhancement rarely exceeds it over an interval). */
const MAX_INDEX = 1.2;
/** Quantile of the raw ratio irradiance / clear-sky output over daylight that counts as a clear sky (index 1). */
const CLEAR_QUANTILE = 0.9;
/** Lags, in steps, of the residual's autocorrelation that the covariance is fitted to. */
const COVARIANCE_LAGS = 8;
/** Fewest known daylight residuals around a gap that set its level (else the level is 0, the fit's own mean). */
const MIN_LEVEL_POINTS = 4;

export interface IrradianceModel {
  /** Expected output per index (NaN where unknown). */
  reference: number[];
  daylight: boolean[];
  /** Residual covariance at lag d >= 1 is c * rho^d, in units of the residual's variance. */
  c: number;
  rho: number;
}

function quantileOf(values: number[], q: number): number {
  if (!values.length) return NaN;
  values.sort((a, b) => a - b);
  return values[Math.floor(q * (values.length - 1))];
}

/** The ENVELOPE_QUANTILE of the known values at the same time of day (+-1 step) on ENVELOPE_DAYS days either side, excluding the day itself. */
export function clearSkyEnvelope(y: readonly number[], perDay: number): number[] {
  const window: number[] = [];
  return y.map((_, i) => {
    window.length = 0;
    for (let day = -ENVELOPE_DAYS; day <= ENVELOPE_DAYS; day++) {
      if (day === 0) continue;
      for (let d = -1; d <= 1; d++) {
        const j = i + day * perDay + d;
        if (j >= 0 && j < y.length && known(y[j])) window.push(y[j]);
      }
    }
    return window.length ? Math.max(0, quantileOf(window, ENVELOPE_QUANTILE)) : NaN;
  });
}

/** Pearson's correlation and the least-squares slope through the origin of y on x, over the indices where both are known. */
function fitOn(y: readonly number[], x: readonly number[], at: readonly number[]): { r: number; slope: number } {
  const both = at.filter((i) => known(x[i]) && known(y[i]));
  let sxx = 0;
  let sxy = 0;
  for (const i of both) {
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  return { r: both.length > 2 ? pearson(both.map((i) => x[i]), both.map((i) => y[i])) : -Infinity, slope: sxx > 0 ? sxy / sxx : NaN };
}

/**
 * The reference and its residual model, or undefined when the irradiance does not track the production at any lag.
 * `clearSky` is the system's clear-sky output (0 at night); `ghi` the feed's irradiance on the same grid.
 */
export function irradianceModel(y: readonly number[], clearSky: readonly number[], ghi: readonly number[], perDay: number, stepMinutes: number): IrradianceModel | undefined {
  const peak = Math.max(0, ...clearSky);
  if (!(peak > 0)) return undefined;
  const daylight = clearSky.map((c) => c > LOW_SUN_SHARE * peak);
  const raw = ghi.map((g, i) => (daylight[i] && known(g) ? Math.max(0, g) / clearSky[i] : NaN));
  const clear = quantileOf(raw.filter(known), CLEAR_QUANTILE);
  if (!(clear > 0)) return undefined;
  const index = raw.map((k) => (known(k) ? Math.min(MAX_INDEX, k / clear) : NaN));
  // Where the sun is too low for a ratio, the day's shape comes from the envelope at the series' median index.
  const typical = quantileOf(index.filter(known), 0.5);
  const envelope = clearSkyEnvelope(y, perDay);
  const at = y.map((_, i) => i).filter((i) => daylight[i]);
  const maxLag = Math.floor(LAG_MINUTES / stepMinutes);
  let best: { r: number; slope: number; product: number[] } | undefined;
  for (let lag = -maxLag; lag <= maxLag; lag++) {
    const product = envelope.map((e, i) => {
      const j = i + lag;
      if (!known(e) || j < 0 || j >= y.length) return NaN;
      return e * (daylight[j] ? index[j] : typical);
    });
    const fit = fitOn(y, product, at);
    if (!best || fit.r > best.r) best = { ...fit, product };
  }
  if (!best || !(best.r > 0) || !(best.slope > 0)) return undefined;
  const { slope, product } = best;
  const reference = product.map((p) => p * slope);
  return { reference, daylight, ...residualCovariance(y, reference, daylight, perDay) };
}

/** Median of the known daylight residuals in [from, to), or NaN when there are fewer than `min`. */
function residualLevel(y: readonly number[], reference: readonly number[], daylight: readonly boolean[], from: number, to: number, min: number): number {
  const residuals: number[] = [];
  for (let i = Math.max(0, from); i < Math.min(y.length, to); i++) if (daylight[i] && known(y[i]) && known(reference[i])) residuals.push(y[i] - reference[i]);
  return residuals.length >= min ? quantileOf(residuals, 0.5) : NaN;
}

/**
 * c and rho of the residual's covariance: the least-squares fit of c rho^k to its autocorrelation at lags
 * 1..COVARIANCE_LAGS, the residual taken about each day's median (days as blocks of `perDay` steps).
 */
function residualCovariance(y: readonly number[], reference: readonly number[], daylight: readonly boolean[], perDay: number): { c: number; rho: number } {
  const e = y.map(() => NaN);
  for (let from = 0; from < y.length; from += perDay) {
    const level = residualLevel(y, reference, daylight, from, from + perDay, 1);
    for (let i = from; i < Math.min(y.length, from + perDay); i++) if (daylight[i] && known(y[i]) && known(reference[i])) e[i] = y[i] - reference[i] - level;
  }
  const acf = Array.from({ length: COVARIANCE_LAGS }, (_, k) => {
    let sxy = 0;
    let sxx = 0;
    for (let i = 0; i + k + 1 < e.length; i++) {
      if (!known(e[i]) || !known(e[i + k + 1])) continue;
      sxy += e[i] * e[i + k + 1];
      sxx += e[i] * e[i];
    }
    return sxx > 0 ? sxy / sxx : 0;
  });
  let best = { sse: Infinity, c: 0, rho: 0 };
  for (let rho = 0.3; rho < 0.995; rho += 0.005) {
    let num = 0;
    let den = 0;
    acf.forEach((a, k) => {
      num += a * rho ** (k + 1);
      den += rho ** (2 * k + 2);
    });
    const c = Math.max(0, Math.min(1, num / den));
    const sse = acf.reduce((s, a, k) => s + (a - c * rho ** (k + 1)) ** 2, 0);
    if (sse < best.sse) best = { sse, c, rho };
  }
  return { c: best.c, rho: best.rho };
}

/**
 * The fill of the gap between the known `left` and `right`: reference + the day's residual level + the simple
 * kriging estimate of the deviation from the two edge residuals; null where the reference is unknown.
 */
export function irradianceFill(model: IrradianceModel, y: readonly number[], left: number, right: number, perDay: number): number[] | null {
  const { reference, daylight, c, rho } = model;
  if (!known(reference[left]) || !known(reference[right])) return null;
  const centre = Math.round((left + right) / 2);
  const dayLevel = residualLevel(y, reference, daylight, centre - perDay / 2, centre + perDay / 2, MIN_LEVEL_POINTS);
  const level = known(dayLevel) ? dayLevel : 0;
  const r0 = y[left] - reference[left] - level;
  const r1 = y[right] - reference[right] - level;
  const across = c * rho ** (right - left);
  const det = 1 - across * across;
  const out: number[] = [];
  for (let i = left + 1; i < right; i++) {
    if (!known(reference[i])) return null;
    const k0 = c * rho ** (i - left);
    const k1 = c * rho ** (right - i);
    out.push(reference[i] + level + ((k0 - across * k1) * r0 + (k1 - across * k0) * r1) / det);
  }
  return out;
}

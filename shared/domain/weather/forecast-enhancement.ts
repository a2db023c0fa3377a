/**
 * What a weather series tells a forecaster: how much of the irradiance follows sun geometry, how
 * persistent the wind is, and what the temperature costs a PV system.
 */
import { meanClearSkyGhi, type ClearSkySite } from './clear-sky';
import { clearSkyIndexSpread } from './cloud-climatology';
import type { WeatherPoint } from './types';
import { roundHalfUp } from '../rounding';

/**
 * Pearson's correlation coefficient; 0 when either series is constant or shorter than 2 (no linear information).
 * `xVariances`, when given, is each x's own variance around its value (x an expectation): added to x's spread, as
 * the expected correlation of the realised series with y over many draws.
 */
export function pearson(xs: readonly number[], ys: readonly number[], xVariances?: readonly number[]): number {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return 0;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += xs[i];
    my += ys[i];
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i] - mx;
    const dy = ys[i] - my;
    sxy += dx * dy;
    sxx += dx * dx + (xVariances?.[i] ?? 0);
    syy += dy * dy;
  }
  if (!(sxx > 0) || !(syy > 0)) return 0;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/**
 * Lag-1 autocorrelation, r1 = sum (x_t - mean)(x_t+1 - mean) / sum (x_t - mean)^2 (the standard estimator,
 * Box & Jenkins 1976); 0 for a constant or too short series. `adjacent(i)` says whether xs[i] and xs[i+1]
 * are one step apart: pairs across a gap are left out of the numerator.
 */
export function lag1Autocorrelation(xs: readonly number[], adjacent?: (i: number) => boolean): number {
  const n = xs.length;
  if (n < 3) return 0;
  const mean = xs.reduce((s, x) => s + x, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    const d = xs[i] - mean;
    den += d * d;
    if (i + 1 < n && (!adjacent || adjacent(i))) num += d * (xs[i + 1] - mean);
  }
  if (!(den > 0)) return 0;
  return Math.max(-1, Math.min(1, num / den));
}

/** Nominal operating cell temperature of a typical open-rack module, degrees C. */
export const NOCT_C = 45;
/** Typical crystalline-silicon power temperature coefficient, per K. */
export const POWER_TEMPERATURE_COEFFICIENT = -0.004;
/** Cell temperature at standard test conditions, degrees C. */
export const STC_CELL_C = 25;

/** Cell temperature from air temperature and irradiance by the NOCT model (Ross 1976): T + (NOCT - 20) G / 800. */
export function noctCellTemperature(airC: number, irradianceWm2: number, noctC = NOCT_C): number {
  return airC + ((noctC - 20) * irradianceWm2) / 800;
}

export interface TemperatureImpact {
  /** The sentence for the API. */
  summary: string;
  /** Irradiance-weighted mean daytime air and cell temperatures, degrees C; null without daylight. */
  airC: number | null;
  cellC: number | null;
  /** Relative power change against STC, percent (negative: below STC output). */
  powerChangePct: number | null;
}

const fixed1 = (x: number) => (Math.round(x * 10) / 10 + 0).toFixed(1);

/**
 * The PV power change implied by the series' daytime temperatures: per hour the NOCT cell temperature, then the
 * irradiance-weighted mean (the hours that make the energy count most), then the linear temperature coefficient.
 */
export function temperatureImpact(points: readonly { temperature_c: number; solar_radiation_wm2: number }[]): TemperatureImpact {
  let weight = 0;
  let air = 0;
  let cell = 0;
  for (const p of points) {
    if (!(p.solar_radiation_wm2 > 0)) continue;
    weight += p.solar_radiation_wm2;
    air += p.solar_radiation_wm2 * p.temperature_c;
    cell += p.solar_radiation_wm2 * noctCellTemperature(p.temperature_c, p.solar_radiation_wm2);
  }
  if (!(weight > 0)) {
    return { summary: 'No daylight in the range: temperature has no effect on PV output.', airC: null, cellC: null, powerChangePct: null };
  }
  const airC = air / weight;
  const cellC = cell / weight;
  const powerChangePct = POWER_TEMPERATURE_COEFFICIENT * 100 * (cellC - STC_CELL_C);
  const direction = powerChangePct <= 0 ? 'below' : 'above';
  const summary =
    `Mean daytime cell temperature ${fixed1(cellC)} C (irradiance-weighted; air ${fixed1(airC)} C, NOCT ${NOCT_C} C): ` +
    `about ${fixed1(Math.abs(powerChangePct))}% ${direction} STC output at ${POWER_TEMPERATURE_COEFFICIENT * 100}%/K.`;
  return { summary, airC, cellC, powerChangePct };
}

export interface ForecastEnhancement {
  /**
   * Pearson correlation of irradiance with the clear-sky irradiance of the same hours: the share of its variation sun
   * geometry explains. For a climatology, the correlation real weather of that climate shows (see forecastEnhancement).
   */
  solar_correlation: number;
  /** Lag-1 autocorrelation of wind speed: how far a persistence forecast can rely on the last hour. */
  wind_correlation: number;
  temperature_impact: string;
}

/**
 * The forecast enhancement of an hourly series at a site. Irradiance values are means over the hour ending
 * at their timestamp, so the clear-sky reference is the same hour's mean.
 * With `climatology`, the points are a climatology's expected values: clear sky times a smooth expected clear-sky
 * index, which geometry explains entirely (a correlation of 1 by construction, whatever the climate). The solar
 * correlation then counts the hour-to-hour spread of real weather that the expectation hides: each hour's irradiance
 * varies by its clear-sky value times the clear-sky index spread of its cloud cover (cloud-climatology.ts).
 */
export function forecastEnhancement(points: readonly WeatherPoint[], site: ClearSkySite, stepMinutes = 60, options: { climatology?: boolean } = {}): ForecastEnhancement {
  const clearSky = points.map((p) => meanClearSkyGhi(new Date(p.timestamp), stepMinutes, site));
  const times = points.map((p) => Date.parse(p.timestamp));
  const stepMs = stepMinutes * 60_000;
  const spread = options.climatology ? points.map((p, i) => (clearSky[i] * clearSkyIndexSpread(p.cloud_cover_pct)) ** 2) : undefined;
  return {
    solar_correlation: roundHalfUp(pearson(points.map((p) => p.solar_radiation_wm2), clearSky, spread), 3),
    wind_correlation: roundHalfUp(lag1Autocorrelation(points.map((p) => p.wind_speed_ms), (i) => times[i + 1] - times[i] === stepMs), 3),
    temperature_impact: temperatureImpact(points).summary,
  };
}

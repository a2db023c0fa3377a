/**
 * The solar member (ARCHITECTURE 7): a clear-sky profile from the sun's position at the site, times a system
 * scale fitted on the history, times an expected clear-sky index. Where forecast irradiance is given, production
 * is regressed on it (solar-irradiance.ts); elsewhere the index blends the recent days' climatology with
 * persistence, with weights by lead fitted on the history (solar-blend.ts). Exactly 0 while the sun is below the horizon. When the site's coordinates are not given (POST /forecast
 * carries only timestamps and values) its geometry is estimated from the production itself.
 */
import { DAY_MS, HOUR_MS, stepsPerDay, type FitContext, type FittedModel, type ForecastMember, type RegularSeries } from './types';
import { dayOfYear, extraterrestrialIrradiance, ineichenPerez } from '../weather/clear-sky';
import { equationOfTimeMinutes, solarDeclinationDeg } from '../weather/climatology';
import { solarPosition } from '../weather/solar-position';
import { pearson } from '../weather/forecast-enhancement';
import { futureTimes } from './calendar';
import { fitIndexBlend } from './solar-blend';
import { fitIrradianceModel } from './solar-irradiance';
import { DEG } from '../angles';

/** Below this apparent sun elevation, degrees, clear-sky irradiance and the forecast are exactly 0. */
export const NIGHT_MARGIN_DEG = 0.5;
/** Days of history the scale and the alignment are fitted on. */
export const SOLAR_FIT_DAYS = 14;
/** Days the geometry is estimated from when the coordinates are unknown. */
export const GEOMETRY_DAYS = 14;
/** Production above this share of a day's peak counts as daylight when the day length is measured. */
export const DAYLIGHT_THRESHOLD = 0.02;
/** Clear-sky indices are kept in [0, MAX_CLEAR_SKY_INDEX] (cloud enhancement rarely exceeds it over an interval). */
export const MAX_CLEAR_SKY_INDEX = 1.2;
/** Points whose clear-sky value is below this share of the window's maximum do not inform the scale (low sun, large relative error). */
const SCALE_MIN_CLEAR_SKY_SHARE = 0.2;
/** High quantile of production / clear sky taken as the clear-sky ratio before the least-squares refinement. */
const SCALE_QUANTILE = 0.9;

export interface SolarSite {
  latitude: number;
  longitude: number;
  /** True when estimated from the production (an analytic sun position is then accurate enough). */
  estimated: boolean;
}

/** Where in its interval a value sits: an instantaneous sample, or the mean of the interval ending or starting at t. */
export type Alignment = 'instant' | 'ending' | 'starting';

/** The parts of the sun's position and of the extraterrestrial irradiance that depend on the time only. */
interface SunTerms {
  /** UTC hours plus the equation of time, hours: the local solar hour is this plus longitude / 15. */
  hours: number;
  sinDeclination: number;
  cosDeclination: number;
  dniExtra: number;
}

// Shared by every site (the geometry search and each fold's estimate differ, the instants recur).
const termsCache = new Map<number, SunTerms>();
const TERMS_CACHE_LIMIT = 500_000;

function sunTerms(tMs: number): SunTerms {
  let terms = termsCache.get(tMs);
  if (!terms) {
    if (termsCache.size > TERMS_CACHE_LIMIT) termsCache.clear();
    terms = computeSunTerms(tMs);
    termsCache.set(tMs, terms);
  }
  return terms;
}

function computeSunTerms(tMs: number): SunTerms {
  const at = new Date(tMs);
  const declination = solarDeclinationDeg(at) * DEG;
  return {
    hours: (((tMs % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS + equationOfTimeMinutes(at) / 60,
    sinDeclination: Math.sin(declination),
    cosDeclination: Math.cos(declination),
    dniExtra: extraterrestrialIrradiance(dayOfYear(at)),
  };
}

const elevationFromTerms = (terms: SunTerms, latitude: number, longitude: number) => {
  const hourAngle = (terms.hours + longitude / 15 - 12) * 15 * DEG;
  const phi = latitude * DEG;
  return Math.asin(Math.sin(phi) * terms.sinDeclination + Math.cos(phi) * terms.cosDeclination * Math.cos(hourAngle)) / DEG;
};

/** Sun elevation, degrees, from Spencer's (1971) declination and equation of time (no refraction; about 0.1 degree accuracy). */
export function analyticElevationDeg(tMs: number, latitude: number, longitude: number): number {
  return elevationFromTerms(sunTerms(tMs), latitude, longitude);
}

/** Clear-sky GHI (Ineichen & Perez 2002) at an analytic sun elevation, W/m2, 0 below NIGHT_MARGIN_DEG. */
function analyticClearSky(terms: SunTerms, latitude: number, longitude: number): number {
  const elevation = elevationFromTerms(terms, latitude, longitude);
  return elevation < NIGHT_MARGIN_DEG ? 0 : ineichenPerez(90 - elevation, { dniExtra: terms.dniExtra }).ghi;
}

/** Instantaneous clear-sky GHI (Ineichen & Perez 2002), W/m2, 0 below NIGHT_MARGIN_DEG. */
function instantClearSky(tMs: number, site: SolarSite): number {
  if (site.estimated) return analyticClearSky(sunTerms(tMs), site.latitude, site.longitude);
  const elevation = solarPosition(new Date(tMs), site.latitude, site.longitude).elevationDeg;
  if (elevation < NIGHT_MARGIN_DEG) return 0;
  return ineichenPerez(90 - elevation, { dniExtra: extraterrestrialIrradiance(dayOfYear(new Date(tMs))) }).ghi;
}

// The engine fits a member on nested prefixes of one series (validation folds, then the full history), so the
// same instants recur: cache them per site. Bounded so a long-lived process does not grow without limit.
const CACHE_LIMIT = 1_000_000;
const cache = new Map<string, Map<number, number>>();
let cached = 0;

function siteCache(site: SolarSite): Map<number, number> {
  const key = `${site.latitude.toFixed(4)},${site.longitude.toFixed(4)},${site.estimated ? 'a' : 'e'}`;
  let bySite = cache.get(key);
  if (!bySite) {
    if (cached > CACHE_LIMIT) {
      cache.clear();
      cached = 0;
    }
    bySite = new Map();
    cache.set(key, bySite);
  }
  return bySite;
}

function cachedClearSky(tMs: number, site: SolarSite, bySite: Map<number, number>): number {
  let value = bySite.get(tMs);
  if (value === undefined) {
    value = instantClearSky(tMs, site);
    bySite.set(tMs, value);
    cached++;
  }
  return value;
}

/**
 * Clear-sky GHI at each time, W/m2, as an instant or as the interval mean (trapezoid rule over 4 parts of
 * an hourly or longer step, 2 parts of a shorter one).
 */
export function clearSkyProfile(times: readonly number[], stepMinutes: number, site: SolarSite, alignment: Alignment): number[] {
  const stepMs = stepMinutes * 60_000;
  const bySite = siteCache(site);
  if (alignment === 'instant') return times.map((t) => cachedClearSky(t, site, bySite));
  const parts = stepMinutes >= 30 ? 4 : 2;
  const direction = alignment === 'ending' ? -1 : 1;
  return times.map((t) => {
    let sum = 0;
    for (let k = 0; k <= parts; k++) sum += (k === 0 || k === parts ? 0.5 : 1) * cachedClearSky(t + (direction * k * stepMs) / parts, site, bySite);
    return sum / parts;
  });
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const position = (sorted.length - 1) * q;
  const lo = Math.floor(position);
  const hi = Math.ceil(position);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (position - lo);
}

/**
 * System scale: production per unit clear-sky GHI. A high quantile of the ratio picks out the clear
 * intervals; least squares of production on clear sky over those clear-ish intervals refines it.
 */
export function fitSystemScale(production: readonly number[], clearSky: readonly number[]): number {
  const maxClearSky = Math.max(0, ...clearSky);
  if (maxClearSky === 0) return 0;
  const usable: number[] = [];
  for (let i = 0; i < production.length; i++) {
    if (Number.isFinite(production[i]) && clearSky[i] > SCALE_MIN_CLEAR_SKY_SHARE * maxClearSky) usable.push(i);
  }
  const ratios = usable.map((i) => production[i] / clearSky[i]).sort((a, b) => a - b);
  const high = quantile(ratios, SCALE_QUANTILE);
  if (!(high > 0)) return 0;
  let sxy = 0;
  let sxx = 0;
  for (const i of usable) {
    const ratio = production[i] / clearSky[i];
    if (ratio >= 0.8 * high && ratio <= 1.2 * high) {
      sxy += production[i] * clearSky[i];
      sxx += clearSky[i] ** 2;
    }
  }
  return sxx > 0 ? sxy / sxx : high;
}

/** Pearson's correlation over the pairs where both values are known. */
function correlation(xs: readonly number[], ys: readonly number[]): number {
  const known = xs.map((x, i) => Number.isFinite(x) && Number.isFinite(ys[i]));
  return pearson(xs.filter((_, i) => known[i]), ys.filter((_, i) => known[i]));
}

/**
 * The alignment (instant, interval ending, interval starting) under which the clear-sky profile best tracks the
 * production. The candidates differ by half a step, so the analytic sun position (0.1 degree, under a minute)
 * decides as well as the ephemeris, at a fraction of its cost on a first request.
 */
export function bestAlignment(times: readonly number[], production: readonly number[], stepMinutes: number, site: SolarSite): Alignment {
  const candidates: Alignment[] = ['instant', 'ending', 'starting'];
  const analytic: SolarSite = { ...site, estimated: true };
  const scores = candidates.map((a) => correlation(production, clearSkyProfile(times, stepMinutes, analytic, a)));
  return candidates[scores.indexOf(Math.max(...scores))];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const wrapLongitude = (lon: number) => ((((lon + 180) % 360) + 360) % 360) - 180;

/**
 * Latitude whose day, between the sun crossing elevation h0 on the way up and down, has half-length
 * `halfDayDeg` (hour angle, degrees) at declination delta: cos w = (sin h0 - sin phi sin delta) / (cos phi cos delta)
 * (Duffie & Beckman 2013, eq. 1.6.10 generalised to h0). Near an equinox every latitude has a 12-hour day
 * and the answer leans toward the equator (the profile's shape then hardly depends on latitude anyway).
 */
export function latitudeFromDayLength(halfDayDeg: number, declinationDeg: number, h0Deg: number): number {
  const sinH0 = Math.sin(h0Deg * DEG);
  const sinDelta = Math.sin(declinationDeg * DEG);
  const cosDelta = Math.cos(declinationDeg * DEG);
  const error = (phi: number) => {
    const p = phi * DEG;
    const cosW = (sinH0 - Math.sin(p) * sinDelta) / (Math.cos(p) * cosDelta);
    return Math.abs(Math.acos(Math.min(1, Math.max(-1, cosW))) / DEG - halfDayDeg) + 1e-4 * Math.abs(phi);
  };
  // The half-day length is monotonic in latitude (flat where the day is polar): a 1-degree grid, then 0.1 around its best.
  let best = 0;
  let bestError = error(0);
  for (let phi = -66; phi <= 66; phi++) {
    const e = error(phi);
    if (e < bestError) [best, bestError] = [phi, e];
  }
  const centre = best;
  for (let k = -10; k <= 10; k++) {
    const phi = Math.max(-66, Math.min(66, centre + k / 10));
    const e = error(phi);
    if (e < bestError) [best, bestError] = [phi, e];
  }
  return Math.round(best * 10) / 10;
}

interface ProductionDay {
  centroid: number;
  first: number;
  last: number;
  energy: number;
  start: number;
  end: number;
}

/** Days of production, each a 24-hour window centred on the series' mean solar noon. */
function productionDays(series: RegularSeries, from: number): ProductionDay[] {
  const { t, y } = series;
  let sx = 0;
  let sy = 0;
  for (let i = from; i < t.length; i++) {
    if (!(y[i] > 0)) continue;
    const angle = (2 * Math.PI * (((t[i] % DAY_MS) + DAY_MS) % DAY_MS)) / DAY_MS;
    sx += y[i] * Math.cos(angle);
    sy += y[i] * Math.sin(angle);
  }
  if (sx === 0 && sy === 0) return [];
  const noonMs = ((((Math.atan2(sy, sx) / (2 * Math.PI)) * DAY_MS) % DAY_MS) + DAY_MS) % DAY_MS;
  const days: ProductionDay[] = [];
  const stepMs = series.stepMinutes * 60_000;
  // Windows run from solar midnight to solar midnight: [noon - 12 h, noon + 12 h).
  const boundaryPhase = (noonMs + DAY_MS / 2) % DAY_MS;
  let boundary = t[from] + ((((boundaryPhase - t[from]) % DAY_MS) + DAY_MS) % DAY_MS);
  for (; boundary + DAY_MS <= t[t.length - 1] + stepMs; boundary += DAY_MS) {
    const start = Math.ceil((boundary - t[0]) / stepMs);
    const end = Math.min(t.length, Math.ceil((boundary + DAY_MS - t[0]) / stepMs));
    const values = y.slice(start, end);
    const peak = Math.max(...values.filter(Number.isFinite));
    if (peak > 0) {
      const threshold = DAYLIGHT_THRESHOLD * peak;
      let first = -1;
      let last = -1;
      let weighted = 0;
      let energy = 0;
      for (let i = start; i < end; i++) {
        if (!(y[i] > threshold)) continue;
        if (first < 0) first = i;
        last = i;
        weighted += t[i] * y[i];
        energy += y[i];
      }
      // Sunrise and sunset are known only when the values around them are present.
      if (first > start && last < end - 1 && Number.isFinite(y[first - 1]) && Number.isFinite(y[last + 1])) {
        days.push({ centroid: weighted / energy, first: t[first], last: t[last], energy, start, end });
      }
    }
  }
  return days;
}

/**
 * Estimates a site's coordinates from its production (no coordinates in the request): solar noon from the
 * centroid of each day's production gives the longitude through the equation of time; the day length from
 * the first and last production gives the latitude through the sunset hour angle and the declination. A
 * least-squares search around that estimate on the most productive days then picks the geometry whose
 * clear-sky profile fits the production best (it absorbs a timestamp convention and the threshold's bias).
 * Null when the history never produced.
 */
export function estimateSiteGeometry(series: RegularSeries): { latitude: number; longitude: number } | null {
  const perDay = stepsPerDay(series.stepMinutes);
  const stepMs = series.stepMinutes * 60_000;
  const all = productionDays(series, Math.max(0, series.t.length - GEOMETRY_DAYS * perDay));
  if (all.length === 0) return null;
  const maxEnergy = Math.max(...all.map((d) => d.energy));
  const days = all.filter((d) => d.energy >= 0.5 * maxEnergy);

  const longitudes = days.map((d) => {
    const utcHours = (((d.centroid % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS;
    return wrapLongitude(15 * (12 - utcHours - equationOfTimeMinutes(new Date(d.centroid)) / 60));
  });
  // A circular mean keeps days either side of the antimeridian together.
  const longitude = wrapLongitude(Math.atan2(longitudes.reduce((s, l) => s + Math.sin(l * DEG), 0), longitudes.reduce((s, l) => s + Math.cos(l * DEG), 0)) / DEG);

  const latitudes = days.map((d) => {
    // Samples are instants (or interval means): the threshold was crossed within half a step outside them.
    const halfDayDeg = ((d.last - d.first + stepMs) / HOUR_MS / 2) * 15;
    const declination = solarDeclinationDeg(new Date(d.centroid));
    let latitude = latitudeFromDayLength(halfDayDeg, declination, 0);
    // Production crosses the threshold a little above the horizon: about where sin(elevation) is that share of noon's.
    for (let iteration = 0; iteration < 2; iteration++) {
      const noonElevation = 90 - Math.abs(latitude - declination);
      const h0 = Math.asin(DAYLIGHT_THRESHOLD * Math.sin(noonElevation * DEG)) / DEG;
      latitude = latitudeFromDayLength(halfDayDeg, declination, h0);
    }
    return latitude;
  });
  const first = { latitude: median(latitudes), longitude };

  // Refine on the three most productive days: per-day least-squares scale, summed squared residuals.
  const best = [...days].sort((a, b) => b.energy - a.energy).slice(0, 3);
  // The time-only terms once per point: the search evaluates a few hundred geometries on the same points.
  // Night far from the production (2 hours beyond it) is dark under every geometry the search visits: left out.
  const points = best.map((d) => {
    const indices = Array.from({ length: d.end - d.start }, (_, k) => d.start + k).filter((i) => Number.isFinite(series.y[i]) && series.t[i] >= d.first - 2 * HOUR_MS && series.t[i] <= d.last + 2 * HOUR_MS);
    return indices.map((i) => ({ p: series.y[i], terms: sunTerms(series.t[i]) }));
  });
  const sse = (latitude: number, lon: number) => {
    let total = 0;
    for (const day of points) {
      let sxy = 0;
      let sxx = 0;
      let syy = 0;
      for (const { p, terms } of day) {
        const c = analyticClearSky(terms, latitude, lon);
        sxy += p * c;
        sxx += c * c;
        syy += p * p;
      }
      total += sxx > 0 ? syy - (sxy * sxy) / sxx : syy;
    }
    return total;
  };
  let refined = first;
  let bestSse = sse(first.latitude, first.longitude);
  // A grid around the first estimate, then two finer grids around the best point so far.
  const stepDegrees = (series.stepMinutes / 60) * 15;
  for (const [latStep, lonStep] of [
    [2.5, 0.25 * stepDegrees],
    [0.5, 0.05 * stepDegrees],
    [0.1, 0.01 * stepDegrees],
  ]) {
    // Re-centre while the best point sits elsewhere on the grid (a pattern search; a few rounds at most).
    for (let round = 0; round < 8; round++) {
      const centre = refined;
      for (let a = -4; a <= 4; a++) {
        for (let b = -2; b <= 2; b++) {
          const latitude = Math.max(-66, Math.min(66, centre.latitude + a * latStep));
          const lon = wrapLongitude(centre.longitude + b * lonStep);
          const value = sse(latitude, lon);
          if (value < bestSse - 1e-12) [refined, bestSse] = [{ latitude, longitude: lon }, value];
        }
      }
      if (refined === centre) break;
    }
  }
  // On a 0.01-degree grid of longitude (2.4 s of solar time): validation folds that find the same geometry share its cached clear sky.
  return { latitude: refined.latitude, longitude: Math.round(refined.longitude * 100) / 100 };
}

/** The site: the context's coordinates when given, else estimated from the history; null when neither. */
export function solarSite(history: RegularSeries, context: FitContext): SolarSite | null {
  if (Number.isFinite(context.latitude) && Number.isFinite(context.longitude)) return { latitude: context.latitude!, longitude: context.longitude!, estimated: false };
  const estimated = estimateSiteGeometry(history);
  return estimated ? { ...estimated, estimated: true } : null;
}

/**
 * Clear-sky profile of the site (its coordinates, else its geometry estimated from the history), aligned to the
 * history's timestamp convention; null when neither is known.
 */
export function siteProfile(history: RegularSeries, context: FitContext): ((times: readonly number[]) => number[]) | null {
  const site = solarSite(history, context);
  if (!site) return null;
  const from = Math.max(0, history.t.length - SOLAR_FIT_DAYS * stepsPerDay(history.stepMinutes));
  // An estimated geometry already absorbed the timestamp convention (its noon is the production's).
  const alignment = site.estimated ? 'instant' : bestAlignment(history.t.slice(from), history.y.slice(from), history.stepMinutes, site);
  return (times) => clearSkyProfile(times, history.stepMinutes, site, alignment);
}

/** Clear-sky profile at a site with known coordinates (see siteProfile); null without coordinates. Used by smart persistence. */
export function knownSiteProfile(history: RegularSeries, context: FitContext): ((times: readonly number[]) => number[]) | null {
  return Number.isFinite(context.latitude) && Number.isFinite(context.longitude) ? siteProfile(history, context) : null;
}

/** The fitted parts of the solar member, exposed for tests and reports. */
export interface SolarFit {
  site: SolarSite | null;
  alignment: Alignment;
  scale: number;
  /** Expected clear-sky index over the fit window (production over clear-sky production). */
  clearSkyIndex: number;
  /** Whether the history's irradiance was used (production regressed on GHI and clear-sky production per time of day). */
  irradianceFitted: boolean;
}

/** Irradiance values aligned with `length` steps, or undefined. */
const irradiance = (exogenous: Record<string, number[]> | undefined, length: number) => {
  const ghi = exogenous?.[GHI];
  return ghi && ghi.length === length ? ghi : undefined;
};

/** Name of the irradiance variable in the exogenous inputs, W/m2. */
export const GHI = 'ghi_wm2';

export function fitSolar(history: RegularSeries, context: FitContext): FittedModel & { fit: SolarFit } {
  const perDay = stepsPerDay(history.stepMinutes);
  const site = solarSite(history, context);
  if (!site) return { fit: { site, alignment: 'instant', scale: 0, clearSkyIndex: 0, irradianceFitted: false }, predict: (steps) => new Array<number>(steps).fill(0) };
  const from = Math.max(0, history.t.length - SOLAR_FIT_DAYS * perDay);
  const times = history.t.slice(from);
  const production = history.y.slice(from);
  // An estimated geometry already absorbed the timestamp convention (its noon is the production's).
  const alignment = site.estimated ? 'instant' : bestAlignment(times, production, history.stepMinutes, site);
  const clearSky = clearSkyProfile(times, history.stepMinutes, site, alignment);
  const scale = fitSystemScale(production, clearSky);
  const expected = clearSky.map((c) => scale * c);
  const known = production.map((p, i) => Number.isFinite(p) && expected[i] > 0);
  const possible = expected.reduce((sum, e, i) => sum + (known[i] ? e : 0), 0);
  const clearSkyIndex = possible > 0 ? Math.min(MAX_CLEAR_SKY_INDEX, production.reduce((sum, p, i) => sum + (known[i] ? Math.max(0, p) : 0), 0) / possible) : 1;
  // The blend reads months of history: before the fit window through the analytic sun position (0.1 degree,
  // refraction aside), which costs a few ms where the ephemeris costs half a second on a first request.
  const older = clearSkyProfile(history.t.slice(0, from), history.stepMinutes, { ...site, estimated: true }, alignment).map((c) => scale * c);
  const expectedHistory = [...older, ...expected];
  const pastGhi = irradiance(context.history, history.t.length);
  const physical = pastGhi ? fitIrradianceModel(production, pastGhi.slice(from), expected, history.stepMinutes) : null;
  const fit: SolarFit = { site, alignment, scale, clearSkyIndex, irradianceFitted: physical !== null };
  return {
    fit,
    predict(steps) {
      const profile = clearSkyProfile(futureTimes(history.t[history.t.length - 1], history.stepMinutes, steps), history.stepMinutes, site, alignment);
      const futureExpected = profile.map((c) => scale * c);
      const ghi = context.future?.[GHI];
      // Fitted only when a step needs it (with irradiance over the whole horizon, none does).
      let blend: number[] | undefined;
      return profile.map((c, j) => {
        if (c === 0) return 0;
        const g = ghi?.[j];
        if (g !== undefined && Number.isFinite(g)) {
          const slot = j % perDay;
          if (physical && Number.isFinite(physical.perGhi[slot])) return physical.perGhi[slot] * Math.max(0, g) + physical.perExpected[slot] * futureExpected[j];
          // Forecast irradiance without past irradiance: its clear-sky index, where the sun is high enough for the ratio to mean something.
          if (c > 50) return scale * c * Math.min(MAX_CLEAR_SKY_INDEX, Math.max(0, g / c));
        }
        blend ??= fitIndexBlend(history.y, expectedHistory, futureExpected, history.stepMinutes, MAX_CLEAR_SKY_INDEX).index;
        return futureExpected[j] * blend[j];
      });
    },
  };
}

export const solarClearSkyMember: ForecastMember = {
  name: 'solar_clear_sky',
  supports: (kind) => kind === 'solar',
  minHistory: (stepMinutes) => 2 * stepsPerDay(stepMinutes),
  fit: fitSolar,
};

/**
 * `clear_sky_ratio` (solar): the clear-sky index interpolated across the gap, times the clear-sky output, so a
 * noon gap keeps the day's shape. The clear-sky output is also the daylight mask and the scale of other fills.
 */
import { bestAlignment, clearSkyProfile, fitSystemScale, solarSite } from '../forecasting/solar';
import { edgesKnown, known, type CleanOptions, type Context, type Series } from './types';

const maxCache = new WeakMap<readonly number[], number>();
export function maxOf(xs: readonly number[]): number {
  let m = maxCache.get(xs);
  if (m === undefined) {
    m = xs.reduce((a, b) => (b > a ? b : a), 0);
    maxCache.set(xs, m);
  }
  return m;
}

/**
 * Clear-sky output of the system (clear-sky GHI times its fitted scale). Irradiance does not replace it: the site's
 * NSRDB PSM3 GHI as this reference measured worse on SERF East (adaptive 1.06, 1.04, 0.85 x linear at 1, 3, 6 h).
 */
export function clearSkyOutput(series: Series, options: CleanOptions): number[] | undefined {
  const site = solarSite(series, { kind: 'solar', latitude: options.latitude, longitude: options.longitude });
  if (!site) return undefined;
  const alignment = site.estimated ? 'instant' : bestAlignment(series.t, series.y, series.stepMinutes, site);
  const reference = clearSkyProfile(series.t, series.stepMinutes, site, alignment);
  const scale = fitSystemScale(series.y, reference);
  return scale > 0 ? reference.map((c) => c * scale) : undefined;
}

/** Clear sky below this share of its peak is dawn or dusk, where a ratio to it blows up. */
const DARK_SHARE = 0.05;

/** The clear sky of a day-to-day fill (analog_days, day_regression): how far day j's values move to day i's. */
export interface SkyFrame {
  clearSky?: readonly number[];
  /** Clear sky at or below this is dark: values there are not moved. */
  dark: number;
}

export const skyFrame = (ctx: Context): SkyFrame => ({ clearSky: ctx.clearSky, dark: ctx.clearSky ? DARK_SHARE * maxOf(ctx.clearSky) : 0 });

/** Index j's value brought to index i's clear sky (i and j the same or a nearby time of day on two days); as it is where either is dark or without a clear sky. */
export function movedTo(y: readonly number[], sky: SkyFrame, i: number, j: number): number {
  const c = sky.clearSky;
  return c !== undefined && c[i] > sky.dark && c[j] > sky.dark ? (y[j] * c[i]) / c[j] : y[j];
}

export function clearSkyRatioFill(y: readonly number[], a: number, b: number, ctx: Context): number[] | null {
  const left = a - 1;
  const right = b + 1;
  if (!edgesKnown(y, a, b)) return null;
  const span = right - left;
  const out: number[] = [];
  const c = ctx.clearSky;
  if (!c) return null;
  // The index at each edge: produced over possible on the nearest known daylight values (up to an hour's
  // worth), so one cloud edge does not set it (a gap may also start at dawn).
  const EDGE_POINTS = Math.max(1, Math.round(60 / ctx.series.stepMinutes));
  const { dark } = skyFrame(ctx);
  const ratioNear = (from: number, dir: -1 | 1) => {
    let produced = 0;
    let possible = 0;
    let used = 0;
    for (let i = from, seen = 0; i >= 0 && i < y.length && seen < ctx.perDay && used < EDGE_POINTS; i += dir, seen++) {
      if (known(y[i]) && c[i] > dark) {
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

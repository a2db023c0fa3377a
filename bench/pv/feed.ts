/**
 * A data set's weather feed on the forecast's 15-minute steps, through the service's own placement
 * (shared/domain/pv/weather-steps.ts: interval-end rows moved onto steps by the clear-sky index). How a feed's stamp
 * relates to the interval its value stands for is a labelling choice, and whether PVOD's direct irradiance is used
 * is another; both are made on TUNE days (./labelling.ts).
 */
import type { PvWeatherStep } from '../../shared/domain/pv/types';
import { weatherOnSteps, type WeatherRowAt } from '../../shared/domain/pv/weather-steps';
import type { ClearSkySite } from '../../shared/domain/weather/clear-sky';
import { DAY_MS } from '../../shared/domain/time';
import { STEP_MINUTES, STEP_MS, type FeedRow } from './data';

/** Where a feed's stamp sits in the 15-minute interval its value is taken to average. */
export type FeedLabel = 'start' | 'middle' | 'end';
export const FEED_LABELS: readonly FeedLabel[] = ['start', 'middle', 'end'];

/** How a direct-irradiance column enters the model: not at all (GHI decomposed by Erbs), or as DHI = GHI - direct horizontal. */
export type DirectUse = 'ghi only' | 'dhi = ghi - direct horizontal';

/** Minutes from a stamp to the end of the interval it labels. */
const END_AFTER_STAMP: Record<FeedLabel, number> = { start: STEP_MINUTES, middle: STEP_MINUTES / 2, end: 0 };

/** The feed as interval-end rows (weather-steps' convention), for a labelling and a use of the direct column. */
export function feedRows(feed: readonly FeedRow[], label: FeedLabel, direct: DirectUse = 'ghi only'): WeatherRowAt[] {
  const shift = END_AFTER_STAMP[label] * 60_000;
  return feed
    .filter((r) => Number.isFinite(r.ghiWm2))
    .map((r) => {
      const row: WeatherRowAt = { end: r.stamp + shift, ghiWm2: Math.max(0, r.ghiWm2) };
      if (direct !== 'ghi only' && Number.isFinite(r.directHorizontalWm2)) row.dhiWm2 = Math.max(0, row.ghiWm2 - (r.directHorizontalWm2 as number));
      if (Number.isFinite(r.tempAirC)) row.tempAirC = r.tempAirC;
      if (Number.isFinite(r.windSpeedMs)) row.windSpeedMs = r.windSpeedMs;
      return row;
    })
    .sort((a, b) => a.end - b.end);
}

/**
 * Weather on the steps starting at `starts` (sorted), a day at a time: weatherOnSteps interpolates temperature
 * and wind by scanning every row, so a year's rows in one call would cost rows x steps.
 */
export function feedOnSteps(rows: readonly WeatherRowAt[], starts: readonly number[], site: ClearSkySite): PvWeatherStep[] {
  const out: PvWeatherStep[] = [];
  let lo = 0;
  for (let from = 0; from < starts.length; ) {
    const dayEnd = starts[from] + DAY_MS;
    let to = from;
    while (to < starts.length && starts[to] < dayEnd) to++;
    const chunkStart = starts[from] - 2 * STEP_MS;
    const chunkEnd = starts[to - 1] + 3 * STEP_MS;
    while (lo < rows.length && rows[lo].end < chunkStart - 2 * 3_600_000) lo++;
    let hi = lo;
    while (hi < rows.length && rows[hi].end <= chunkEnd + 2 * 3_600_000) hi++;
    const chunk = starts.slice(from, to);
    out.push(...(hi > lo ? weatherOnSteps(rows.slice(lo, hi), chunk, STEP_MINUTES, site) : chunk.map((t) => ({ t, ghiWm2: NaN }))));
    from = to;
  }
  // weatherOnSteps reads a step no row overlaps as dark: here a missing row is a gap, not night.
  let r = 0;
  for (const step of out) {
    while (r < rows.length && rows[r].end <= step.t) r++;
    if (!(r < rows.length && rows[r].end < step.t + 2 * STEP_MS)) step.ghiWm2 = NaN;
  }
  return out;
}

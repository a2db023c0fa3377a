/**
 * What a series measures, when the request does not say: solar generation shows the same dark hours
 * every day (at least four consecutive hours of day at ~0 on 90% of days); anything else is treated as
 * a generic (load-like) series.
 */
import { stepsPerDay, type RegularSeries, type SeriesKind } from './types';

const NEAR_ZERO = 0.01;
const DARK_DAYS = 0.9;
const MIN_DARK_HOURS = 4;

export function inferKind(series: RegularSeries): SeriesKind {
  const perDay = stepsPerDay(series.stepMinutes);
  const max = Math.max(...series.y.filter(Number.isFinite));
  if (!(max > 0)) return 'generic';
  const dark = new Array(perDay).fill(0);
  const seen = new Array(perDay).fill(0);
  series.y.forEach((v, i) => {
    if (!Number.isFinite(v)) return;
    const slot = Math.floor(((series.t[i] % 86_400_000) / 60_000) / series.stepMinutes) % perDay;
    seen[slot]++;
    if (Math.abs(v) <= NEAR_ZERO * max) dark[slot]++;
  });
  const darkSlots = dark.map((d, i) => seen[i] > 0 && d / seen[i] >= DARK_DAYS);
  // Longest run of dark slots, around midnight too.
  let run = 0;
  let longest = 0;
  for (let i = 0; i < 2 * perDay; i++) {
    run = darkSlots[i % perDay] ? run + 1 : 0;
    longest = Math.max(longest, Math.min(run, perDay));
  }
  return longest * series.stepMinutes >= MIN_DARK_HOURS * 60 && longest < perDay ? 'solar' : 'generic';
}

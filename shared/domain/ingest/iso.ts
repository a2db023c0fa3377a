import { DAY_MS } from '../time';
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => (i < 10 ? `0${i}` : `${i}`));
/** Series are written in time order, so the date part is formatted once per day. */
let cachedDay = Number.NaN;
let cachedPrefix = '';

/**
 * ISO 8601 UTC with `Z`, without milliseconds when they are zero (ARCHITECTURE 9: stored and returned in
 * UTC). Same text as `Date#toISOString`, a few times faster for a series' worth of instants.
 */
export function isoUtc(t: number): string {
  if (!(t >= 0 && t < 253_402_300_800_000)) {
    const iso = new Date(t).toISOString();
    return iso.endsWith('.000Z') ? `${iso.slice(0, 19)}Z` : iso;
  }
  const day = Math.floor(t / DAY_MS);
  if (day !== cachedDay) {
    cachedDay = day;
    cachedPrefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
  }
  let ms = t - day * DAY_MS;
  const h = Math.floor(ms / 3_600_000);
  ms -= h * 3_600_000;
  const mi = Math.floor(ms / 60_000);
  ms -= mi * 60_000;
  const s = Math.floor(ms / 1000);
  ms = Math.floor(ms - s * 1000); // Date drops fractions of a millisecond
  const time = `${cachedPrefix}${TWO_DIGITS[h]}:${TWO_DIGITS[mi]}:${TWO_DIGITS[s]}`;
  return ms === 0 ? `${time}Z` : `${time}.${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
}

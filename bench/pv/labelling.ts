/**
 * How each series' stamps sit in time, checked on TUNE days before anything is scored. Two tests:
 *  - timing: the production-weighted centroid of each clear day against that of a clear-sky reference evaluated
 *    at the instants the labelling claims; a shift near 0 confirms the labelling, +-7.5 minutes is half a
 *    15-minute step off. The feed's labelling is the one its shift points to (its own clear-sky column where it
 *    has one: no clouds to move the centroid);
 *  - skill: the daylight RMSE of the untuned physical model on TUNE days for each candidate labelling of the
 *    weather feed and each use of PVOD's direct-irradiance column; at the chosen labelling the use with the lower
 *    RMSE is kept for REPORT days, and the other labellings' RMSE is shown as a cross-check.
 */
import { DAY_MS, HOUR_MS } from '../../shared/domain/forecasting/types';
import { sunPath } from '../../shared/domain/pv/solar-geometry';
import { simulatePv } from '../../shared/domain/pv/system-model';
import type { PvSystem } from '../../shared/domain/pv/types';
import { clearSkyGhiAt } from '../../shared/domain/weather/clear-sky';
import { STEP_MINUTES, STEP_MS, type FeedRow, type PvBenchSet } from './data';
import { feedOnSteps, feedRows, FEED_LABELS, type DirectUse, type FeedLabel } from './feed';
import { daylightMask, pooledRmse, squaredErrors } from './evaluate';

/** A clear day: its power follows the clear-sky model's shape this closely (Pearson r over daylight steps). */
export const CLEAR_DAY_MIN_CORRELATION = 0.98;

const localDay = (t: number, utcOffsetHours: number) => Math.floor((t + utcOffsetHours * HOUR_MS) / DAY_MS);

/**
 * Median over local days of (centroid of `values` at `times`) minus (centroid of `reference` at the same times),
 * minutes; only days in `days` (all when undefined) with positive sums of both count.
 */
export function centroidShiftMinutes(times: readonly number[], values: readonly number[], reference: readonly number[], utcOffsetHours: number, days?: ReadonlySet<number>): number {
  const sums = new Map<number, { v: number; vt: number; r: number; rt: number }>();
  times.forEach((t, i) => {
    const d = localDay(t, utcOffsetHours);
    if (days && !days.has(d)) return;
    const s = sums.get(d) ?? sums.set(d, { v: 0, vt: 0, r: 0, rt: 0 }).get(d)!;
    const minutes = (t - times[0]) / 60_000;
    if (values[i] > 0) {
      s.v += values[i];
      s.vt += values[i] * minutes;
    }
    if (reference[i] > 0) {
      s.r += reference[i];
      s.rt += reference[i] * minutes;
    }
  });
  const shifts = [...sums.values()].filter((s) => s.v > 0 && s.r > 0).map((s) => s.vt / s.v - s.rt / s.r).sort((a, b) => a - b);
  if (!shifts.length) return NaN;
  const mid = shifts.length >> 1;
  return shifts.length % 2 ? shifts[mid] : (shifts[mid - 1] + shifts[mid]) / 2;
}

/** Local days whose power correlates with the clear-sky output at least CLEAR_DAY_MIN_CORRELATION over daylight. */
export function clearDays(t: readonly number[], kw: readonly number[], clearKw: readonly number[], utcOffsetHours: number): Set<number> {
  const byDay = new Map<number, { x: number[]; y: number[] }>();
  t.forEach((ti, i) => {
    if (!(clearKw[i] > 0) || !Number.isFinite(kw[i])) return;
    const d = localDay(ti, utcOffsetHours);
    const e = byDay.get(d) ?? byDay.set(d, { x: [], y: [] }).get(d)!;
    e.x.push(clearKw[i]);
    e.y.push(kw[i]);
  });
  const out = new Set<number>();
  for (const [d, { x, y }] of byDay) if (x.length >= 8 && pearson(x, y) >= CLEAR_DAY_MIN_CORRELATION) out.add(d);
  return out;
}

function pearson(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  const mx = x.reduce((s, v) => s + v, 0) / n;
  const my = y.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : NaN;
}

/**
 * The labelling a centroid shift points to: a value that averages the interval starting at its stamp shows up
 * half a step early (-7.5 minutes), one that closes its interval half a step late (+7.5), a centred one on time.
 */
export function labelFromShift(shiftMinutes: number): FeedLabel {
  const half = STEP_MINUTES / 2;
  const candidates: [FeedLabel, number][] = [['start', -half], ['middle', 0], ['end', half]];
  return candidates.reduce((a, b) => (Math.abs(b[1] - shiftMinutes) < Math.abs(a[1] - shiftMinutes) ? b : a))[0];
}

/** What the direct-irradiance column of a feed holds, judged on daylight rows with GHI above 50 W/m2. */
export interface DirectColumnEvidence {
  rows: number;
  /** Share of rows where direct exceeds GHI: never for direct horizontal, often for DNI at low sun. */
  shareAboveGhi: number;
  /** Mean direct / GHI with the sun high (zenith < 30) and low (70-85): DNI's ratio grows as the sun sinks, 1 / cos z. */
  ratioHighSun: number;
  ratioLowSun: number;
  verdict: 'direct horizontal' | 'direct normal';
}

/** Whether a feed's direct column is direct normal (DNI) or direct on the horizontal plane. */
export function directColumnEvidence(feed: readonly FeedRow[], place: { latitude: number; longitude: number }): DirectColumnEvidence | undefined {
  const rows = feed.filter((r) => Number.isFinite(r.directHorizontalWm2) && r.ghiWm2 > 50);
  if (!rows.length) return undefined;
  const zenith = sunPath(rows.map((r) => r.stamp), place.latitude, place.longitude).zenithDeg;
  let above = 0;
  const high: number[] = [];
  const low: number[] = [];
  rows.forEach((r, i) => {
    const ratio = (r.directHorizontalWm2 as number) / r.ghiWm2;
    if (ratio > 1) above++;
    if (zenith[i] < 30) high.push(ratio);
    else if (zenith[i] >= 70 && zenith[i] < 85) low.push(ratio);
  });
  const mean = (x: number[]) => (x.length ? x.reduce((s, v) => s + v, 0) / x.length : NaN);
  const shareAboveGhi = above / rows.length;
  const [ratioHighSun, ratioLowSun] = [mean(high), mean(low)];
  return { rows: rows.length, shareAboveGhi, ratioHighSun, ratioLowSun, verdict: shareAboveGhi < 0.01 && !(ratioLowSun > ratioHighSun * 1.2) ? 'direct horizontal' : 'direct normal' };
}

export interface LabellingCheck {
  clearTuneDays: number;
  /** Power centroid at the assumed interval middles minus the clear-sky model's, minutes. */
  powerShiftMinutes: number;
  /** Feed GHI centroid at its stamps minus Ineichen-Perez clear-sky GHI at the same instants, minutes. */
  feedGhiShiftMinutes: number;
  /** PSM3 only: its own clear-sky GHI column against Ineichen-Perez at the stamps (no cloud in either). */
  feedClearSkyShiftMinutes?: number;
  /** Untuned daylight RMSE on TUNE days, kW, per feed labelling and use of the direct column. */
  tuneRmseKw: { label: FeedLabel; direct: DirectUse; rmseKw: number }[];
  /** The feed's direct column, where it has one (TUNE rows). */
  directColumn?: DirectColumnEvidence;
  chosen: { label: FeedLabel; direct: DirectUse };
}

/**
 * Both tests on the TUNE days of a set (its steps before `tuneSteps`), with the system the untuned forecast uses;
 * `clearKw` is its clear-sky output on every step of the set.
 */
export function checkLabelling(set: PvBenchSet, system: PvSystem, clearKw: readonly number[], tuneSteps: number): LabellingCheck {
  const t = set.t.slice(0, tuneSteps);
  const kw = set.kw.slice(0, tuneSteps);
  const days = clearDays(t, kw, clearKw.slice(0, tuneSteps), set.utcOffsetHours);
  const middles = t.map((x) => x + STEP_MS / 2);
  const powerShiftMinutes = centroidShiftMinutes(middles, kw, clearKw.slice(0, tuneSteps), set.utcOffsetHours, days);

  const tuneEnd = set.t[tuneSteps - 1] + STEP_MS;
  const feed = set.feed.filter((r) => r.stamp >= set.t[0] && r.stamp < tuneEnd);
  const stamps = feed.map((r) => r.stamp);
  const ineichen = stamps.map((s) => clearSkyGhiAt(new Date(s), set.place));
  const feedGhiShiftMinutes = centroidShiftMinutes(stamps, feed.map((r) => r.ghiWm2), ineichen, set.utcOffsetHours, days);
  const ownClear = feed.map((r) => r.clearSkyGhiWm2 ?? NaN);
  const feedClearSkyShiftMinutes = ownClear.some(Number.isFinite) ? centroidShiftMinutes(stamps, ownClear, ineichen, set.utcOffsetHours) : undefined;

  // A direct column enters as DHI = GHI - direct only when it is direct horizontal (the placement onto steps carries
  // the diffuse fraction, not DNI); otherwise GHI alone is decomposed.
  const directColumn = directColumnEvidence(feed, set.place);
  const directUses: DirectUse[] = directColumn?.verdict === 'direct horizontal' ? ['ghi only', 'dhi = ghi - direct horizontal'] : ['ghi only'];
  const keep = daylightMask(t, STEP_MINUTES, kw, set.place);
  const tuneRmseKw: LabellingCheck['tuneRmseKw'] = [];
  for (const direct of directUses) {
    for (const label of FEED_LABELS) {
      const modelled = simulatePv(system, feedOnSteps(feedRows(set.feed, label, direct), t, set.place), STEP_MINUTES).map((m) => m.acKw);
      tuneRmseKw.push({ label, direct, rmseKw: pooledRmse([squaredErrors(modelled, kw, keep)]) });
    }
  }
  const label = labelFromShift(feedClearSkyShiftMinutes ?? feedGhiShiftMinutes);
  const best = tuneRmseKw.filter((r) => r.label === label).reduce((a, b) => (b.rmseKw < a.rmseKw ? b : a));
  return { clearTuneDays: days.size, powerShiftMinutes, feedGhiShiftMinutes, ...(feedClearSkyShiftMinutes !== undefined ? { feedClearSkyShiftMinutes } : {}), tuneRmseKw, ...(directColumn ? { directColumn } : {}), chosen: { label, direct: best.direct } };
}

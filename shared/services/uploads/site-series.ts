/**
 * A site's stored series as the console draws it (GET /api/sites/{site_id}/series; issue 23): the power on the
 * site's own grid from start to end, each step labelled `original`, `missing` (nothing stored), or `stale` /
 * `outlier` where the cleaning's detectors flag its stored value (shared/domain/interpolation/flags.ts). A view:
 * it takes no quota and changes nothing.
 */
import { BadRequest, NotFound } from '../../errors';
import type { Caller } from '../../access/authentication';
import { inferKind } from '../../domain/forecasting/kind';
import { labelQuality } from '../../domain/interpolation';
import { DAY_MS, MINUTE_MS, iso } from '../../domain/time';
import { ownedSite } from '../pv/pv-sites';
import { readSiteSeries } from './site-data';

/** Days up to the end of the site's data shown when the request gives no start. */
export const DEFAULT_SERIES_DAYS = 30;
/** Most points one answer holds: a year of 15-minute data, what the console draws at once (issue 23). */
export const MAX_SERIES_POINTS = 35_040;

/** The site's series from `start` to `end` (ISO 8601; by default the last DEFAULT_SERIES_DAYS days of its data). */
export async function siteSeries(caller: Caller, customerId: string, siteId: string, window: { start?: string; end?: string }) {
  const site = await ownedSite(caller, customerId, siteId);
  const { coverage } = site;
  if (!coverage?.first || !coverage.last) throw new NotFound(`No stored data for site ${siteId}: upload a series first`);
  const stepMs = coverage.interval_minutes * MINUTE_MS;
  const anchor = Date.parse(coverage.first);
  const end = window.end === undefined ? Date.parse(coverage.last) : Date.parse(window.end);
  // The default window holds 30 days of steps (or the most an answer holds) up to end, and none before the data.
  const from = end - Math.min(DEFAULT_SERIES_DAYS * DAY_MS, MAX_SERIES_POINTS * stepMs) + stepMs;
  const start = window.start !== undefined ? Date.parse(window.start) : anchor <= end ? Math.max(anchor, from) : from;
  if (start > end) throw new BadRequest(`Invalid request: start must not be after end${window.end === undefined ? ` (end defaults to the end of the site's data, ${coverage.last})` : ''}`);
  // The grid is the stored one: every step is a whole number of intervals from the first stored row.
  const first = anchor + Math.ceil((start - anchor) / stepMs) * stepMs;
  const last = anchor + Math.floor((end - anchor) / stepMs) * stepMs;
  if (first > last) throw new BadRequest(`Invalid request: no ${coverage.interval_minutes}-minute step of site ${siteId} lies from start to end`);
  const steps = (last - first) / stepMs + 1;
  if (steps > MAX_SERIES_POINTS) {
    throw new BadRequest(`Invalid request: start to end spans ${steps} steps of ${coverage.interval_minutes} minutes; at most ${MAX_SERIES_POINTS} points are returned at once (a year of 15-minute data): narrow start and end`);
  }

  const stored = new Map((await readSiteSeries(site.customer_id, site.site_id, first, last)).map((r) => [r.t, r.power_kw]));
  const t = Array.from({ length: steps }, (_, i) => first + i * stepMs);
  const y = t.map((ti) => stored.get(ti) ?? NaN);
  const series = { t, y, stepMinutes: coverage.interval_minutes };
  // The detectors judge solar by its night floor: the kind is read off the window, as training reads it.
  const kind = inferKind(series) === 'solar' ? 'solar' : 'generic';
  const { quality, counts } = labelQuality(series, { kind, capacity: site.pv_system?.capacity_kwp });
  return {
    status: 'success' as const,
    customer_id: site.customer_id,
    site_id: site.site_id,
    interval_minutes: coverage.interval_minutes,
    start: iso(first),
    end: iso(last),
    series_kind: kind,
    points: t.map((ti, i) => ({ timestamp: iso(ti), value: Number.isFinite(y[i]) ? y[i] : null, quality: quality[i] })),
    counts,
  };
}

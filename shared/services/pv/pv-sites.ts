/**
 * PV system specs of a site (ARCHITECTURE 9; issue 19): set with PUT /api/sites/{site_id}, shown with GET; where
 * none are set, inferred from the site's clear-sky days (shared/domain/pv/infer-specs.ts) and kept with their fit
 * until the data moves on; and the physics model's correction learned from the site's history
 * (shared/domain/pv/tuning.ts), kept with the site until the specs change or a day of new data arrives.
 */
import { createHash } from 'node:crypto';
import { config } from '../../config';
import { NotFound } from '../../errors';
import { timezoneAt } from '../../domain/locations';
import { inferPvSystem, NotEnoughClearSky } from '../../domain/pv/infer-specs';
import { fitPvTuning, tuningEffect, type PvTuning } from '../../domain/pv/tuning';
import type { PvSystem } from '../../domain/pv/types';
import { modelOnSteps, type WeatherRowAt } from '../../domain/pv/weather-steps';
import { regularise } from '../../domain/forecasting/regularise';
import type { WeatherPoint } from '../../domain/weather/types';
import { DEFAULT_DC_AC_RATIO, type PutSiteRequest, type PvSystemInput } from '../../schemas/pv';
import { ensureSite, getSite, setSitePv, type SiteRecord, type StoredPvSystem } from '../../store/sites-repo';
import { weatherFor } from '../../weather-providers';
import { terrainElevation } from '../../weather-providers/terrain-elevation';
import type { DomainEvent } from '../../events/event-bus';
import type { Caller } from '../../access/authentication';
import { readSiteSeries, readSiteWeather } from '../uploads/site-data';
import { findOwnedCustomer, ownedCustomer } from '../accounts/tenants';
import { roundHalfUp } from '../../domain/rounding';
import { DAY_MS, HOUR_MS } from '../../domain/time';

/** History the specs are inferred from and the tuning is learned on: recent enough to be today's system. */
export const PV_HISTORY_DAYS = 60;
/** Less history than this neither infers specs nor tunes (a week gives a few clear days in most climates). */
export const PV_MIN_HISTORY_DAYS = 7;
/** New data after which inferred specs are fitted again. */
const REINFER_AFTER_DAYS = 7;
/** New data after which the tuning is learned again. */
const RETUNE_AFTER_DAYS = 1;

/** The stored (API-shaped) specs as the domain model takes them. */
export function toPvSystem(s: StoredPvSystem): PvSystem {
  return {
    latitude: s.latitude,
    longitude: s.longitude,
    elevationM: s.elevation_m,
    capacityKwp: s.capacity_kwp,
    tiltDeg: s.tilt_deg,
    azimuthDeg: s.azimuth_deg,
    lossesPct: s.losses_pct,
    inverterAcKw: s.inverter_ac_kw,
    ...(s.horizon ? { horizon: s.horizon.map((p) => ({ azimuthDeg: p.azimuth_deg, elevationDeg: p.elevation_deg })) } : {}),
  };
}

function fromPvSystem(s: PvSystem): StoredPvSystem {
  return {
    latitude: s.latitude,
    longitude: s.longitude,
    elevation_m: roundHalfUp(s.elevationM, 1),
    capacity_kwp: roundHalfUp(s.capacityKwp, 3),
    tilt_deg: roundHalfUp(s.tiltDeg, 1),
    azimuth_deg: roundHalfUp(s.azimuthDeg, 1),
    losses_pct: roundHalfUp(s.lossesPct, 2),
    inverter_ac_kw: roundHalfUp(s.inverterAcKw, 3),
  };
}

/** Specs from a request, with PVWatts' defaults where a field is absent and the gazetteer's elevation (else sea level). */
export function storedPvSystem(input: PvSystemInput): StoredPvSystem {
  return {
    latitude: input.latitude,
    longitude: input.longitude,
    elevation_m: input.elevation_m ?? terrainElevation(input.latitude, input.longitude)?.elevationM ?? 0,
    capacity_kwp: input.capacity_kwp,
    tilt_deg: input.tilt_deg,
    azimuth_deg: input.azimuth_deg % 360,
    losses_pct: input.losses_pct,
    inverter_ac_kw: input.inverter_ac_kw ?? roundHalfUp(input.capacity_kwp / DEFAULT_DC_AC_RATIO, 3),
    ...(input.horizon ? { horizon: [...input.horizon].sort((a, b) => a.azimuth_deg - b.azimuth_deg) } : {}),
  };
}

const specsKey = (s: StoredPvSystem) => createHash('sha256').update(JSON.stringify(s)).digest('hex').slice(0, 16);

async function ownedSite(caller: Caller, customerId: string, siteId: string): Promise<SiteRecord> {
  // A read claims nothing: an unknown or foreign customer is simply not found.
  const site = (await findOwnedCustomer(caller, customerId)) ? await getSite(customerId, siteId) : undefined;
  if (!site || site.account_id !== caller.accountId) throw new NotFound(`Site ${siteId} not found for customer ${customerId}`);
  return site;
}

/** PUT /api/sites/{site_id}: stores the specs (creating the site when new) and drops a tuning learned for other specs. */
export async function putSite(caller: Caller, siteId: string, request: PutSiteRequest) {
  await ownedCustomer(caller, request.customer_id);
  const pv = storedPvSystem(request.pv_system);
  const existing = await getSite(request.customer_id, siteId);
  if (existing && existing.account_id !== caller.accountId) throw new NotFound(`Site ${siteId} not found for customer ${request.customer_id}`);
  if (!existing) {
    await ensureSite({
      customer_id: request.customer_id,
      site_id: siteId,
      account_id: caller.accountId,
      location: `${pv.latitude},${pv.longitude}`,
      region: config().AWS_REGION,
      latitude: pv.latitude,
      longitude: pv.longitude,
      timezone: timezoneAt(pv.latitude, pv.longitude),
      created_at: new Date().toISOString(),
    });
  }
  const coordinates = existing?.latitude === undefined ? { latitude: pv.latitude, longitude: pv.longitude, timezone: timezoneAt(pv.latitude, pv.longitude) } : {};
  await setSitePv(request.customer_id, siteId, { pv_system: pv, pv_system_set_at: new Date().toISOString(), ...coordinates }, ['pv_tuning']);
  return { status: 'success', ...(await siteView(caller, request.customer_id, siteId)) };
}

/** GET /api/sites/{site_id}: the site with its set specs, or the inferred ones with their fit. */
export async function siteView(caller: Caller, customerId: string, siteId: string) {
  const site = await ownedSite(caller, customerId, siteId);
  const resolved = await sitePvSystem(site);
  const tuning = site.pv_tuning && resolved && site.pv_tuning.specs_key === specsKey(resolved.system) ? site.pv_tuning : undefined;
  return {
    site: {
      customer_id: site.customer_id,
      site_id: site.site_id,
      location: site.location,
      latitude: site.latitude ?? null,
      longitude: site.longitude ?? null,
      timezone: site.timezone ?? null,
      data: site.coverage ? { first: site.coverage.first, last: site.coverage.last, rows: site.coverage.rows, interval_minutes: site.coverage.interval_minutes } : null,
    },
    pv_system: site.pv_system ?? null,
    specs_source: resolved?.source ?? 'none',
    inferred: site.pv_inferred && !site.pv_system ? { pv_system: site.pv_inferred.pv_system, fit: site.pv_inferred.fit, method: site.pv_inferred.method, inferred_at: site.pv_inferred.inferred_at, data_end: site.pv_inferred.data_end } : null,
    tuning: tuning ? { ...tuning.effect, fitted_at: tuning.fitted_at, data_end: tuning.data_end } : null,
    ...(resolved ? {} : { note: noSpecsReason(site) }),
  };
}

function noSpecsReason(site: SiteRecord): string {
  if (site.latitude === undefined) return 'No pv_system set, and the site has no coordinates to infer one from: PUT /api/sites/{site_id} with a pv_system.';
  return `No pv_system set, and the site's history has too few clear days to infer one (at least ${PV_MIN_HISTORY_DAYS} days of power are needed): PUT /api/sites/{site_id} with a pv_system.`;
}

/** The site's recent measured power on its own grid, or undefined with too little of it. */
async function recentPower(site: SiteRecord) {
  const last = site.coverage?.last ? Date.parse(site.coverage.last) : undefined;
  if (last === undefined) return undefined;
  const rows = (await readSiteSeries(site.customer_id, site.site_id, last - PV_HISTORY_DAYS * DAY_MS)).filter((r) => r.power_kw !== null);
  if (rows.length < 2 || rows[rows.length - 1].t - rows[0].t < PV_MIN_HISTORY_DAYS * DAY_MS) return undefined;
  try {
    const series = regularise(rows.map((r) => ({ t: r.t, value: r.power_kw as number })));
    return { t: series.t, kw: series.y, stepMinutes: series.stepMinutes };
  } catch {
    return undefined;
  }
}

/** The specs a site's physics forecast uses: set, else inferred (and stored) from its history; undefined when neither. */
export async function sitePvSystem(site: SiteRecord): Promise<{ system: StoredPvSystem; source: 'set' | 'inferred' } | undefined> {
  if (site.pv_system) return { system: site.pv_system, source: 'set' };
  if (site.latitude === undefined || site.longitude === undefined || !site.coverage?.last) return undefined;
  const dataEnd = site.coverage.last;
  if (site.pv_inferred && Date.parse(dataEnd) - Date.parse(site.pv_inferred.data_end) < REINFER_AFTER_DAYS * DAY_MS) return { system: site.pv_inferred.pv_system, source: 'inferred' };
  const power = await recentPower(site);
  if (!power) return site.pv_inferred ? { system: site.pv_inferred.pv_system, source: 'inferred' } : undefined;
  let inferred;
  try {
    inferred = inferPvSystem(power, { latitude: site.latitude, longitude: site.longitude, elevationM: terrainElevation(site.latitude, site.longitude)?.elevationM ?? 0 });
  } catch (err) {
    // Too few clear days, or output that no fixed plane explains: no specs rather than wrong ones.
    if (err instanceof NotEnoughClearSky || err instanceof RangeError) return site.pv_inferred ? { system: site.pv_inferred.pv_system, source: 'inferred' } : undefined;
    throw err;
  }
  if (!(inferred.system.capacityKwp > 0)) return undefined;
  const record = {
    pv_system: fromPvSystem(inferred.system),
    fit: { r2: roundHalfUp(inferred.fit.r2, 3), rmse_kw: roundHalfUp(inferred.fit.rmseKw, 3), clear_days: inferred.fit.clearDays, days_used: inferred.fit.daysUsed },
    method: inferred.method,
    inferred_at: new Date().toISOString(),
    data_end: dataEnd,
  };
  await setSitePv(site.customer_id, site.site_id, { pv_inferred: record });
  site.pv_inferred = record;
  return { system: record.pv_system, source: 'inferred' };
}

/** Weather rows (interval-end labelled) from the stored hourly points, or the provider's history. */
export function weatherRows(points: readonly WeatherPoint[]): WeatherRowAt[] {
  return points.map((p) => ({
    end: Date.parse(p.timestamp),
    ghiWm2: p.solar_radiation_wm2,
    ...(p.dni_wm2 !== undefined ? { dniWm2: p.dni_wm2 } : {}),
    ...(p.dhi_wm2 !== undefined ? { dhiWm2: p.dhi_wm2 } : {}),
    tempAirC: p.temperature_c,
    windSpeedMs: p.wind_speed_ms,
  }));
}

/** Past weather at the site over [from, to): what uploads stored, else the provider's record of the past. */
async function pastWeather(site: SiteRecord, system: StoredPvSystem, from: number, to: number) {
  const stored = (await readSiteWeather(site.customer_id, site.site_id, from)).filter((p) => Date.parse(p.timestamp) <= to + HOUR_MS);
  if (stored.length && Date.parse(stored[0].timestamp) <= from + HOUR_MS && Date.parse(stored[stored.length - 1].timestamp) >= to) return { points: stored, source: 'stored with the uploads' };
  return weatherFor({ latitude: system.latitude, longitude: system.longitude, elevationM: system.elevation_m, start: new Date(Math.floor(from / HOUR_MS) * HOUR_MS), end: new Date(Math.ceil(to / HOUR_MS) * HOUR_MS + HOUR_MS), timezone: site.timezone, mode: 'history' });
}

/**
 * The correction learned on the site's recent history for these specs (stored; learned again after a day of
 * new data), or undefined without enough history.
 */
export async function siteTuning(site: SiteRecord, stored: StoredPvSystem): Promise<{ tuning: PvTuning; effect: NonNullable<SiteRecord['pv_tuning']>['effect'] } | undefined> {
  const key = specsKey(stored);
  const dataEnd = site.coverage?.last;
  if (!dataEnd) return undefined;
  const cached = site.pv_tuning;
  if (cached && cached.specs_key === key && Date.parse(dataEnd) - Date.parse(cached.data_end) < RETUNE_AFTER_DAYS * DAY_MS) return { tuning: cached.tuning as PvTuning, effect: cached.effect };
  const power = await recentPower(site);
  if (!power) return undefined;
  const system = toPvSystem(stored);
  const from = power.t[0];
  const to = power.t[power.t.length - 1] + power.stepMinutes * 60_000;
  const weather = await pastWeather(site, stored, from, to);
  const modelled = modelOnSteps(system, weatherRows(weather.points), power.t, power.stepMinutes);
  const tuning = fitPvTuning(power.kw, modelled, system);
  const measuredEffect = tuningEffect(power.kw, modelled, system);
  const effect = { rmse_untuned_kw: roundHalfUp(measuredEffect.rmseUntunedKw, 3), rmse_tuned_kw: roundHalfUp(measuredEffect.rmseTunedKw, 3), improvement_pct: roundHalfUp(measuredEffect.improvementPct, 1), days: measuredEffect.days };
  const record = { tuning, effect, specs_key: key, fitted_at: new Date().toISOString(), data_end: dataEnd };
  await setSitePv(site.customer_id, site.site_id, { pv_tuning: record });
  site.pv_tuning = record;
  return { tuning, effect };
}

/**
 * After an upload (the `data.ingested` event, queue `pv-models`): infers the specs where none are set and learns
 * the tuning, so forecasts and GET /api/sites find them ready (each is done again only after enough new data).
 */
export async function refreshSitePv({ data }: DomainEvent<{ customer_id: string; site_id: string }>): Promise<void> {
  const { customer_id: customerId, site_id: siteId } = data;
  const site = await getSite(customerId, siteId);
  if (!site) return;
  const resolved = await sitePvSystem(site);
  if (resolved) await siteTuning(site, resolved.system);
}

export { ownedSite };

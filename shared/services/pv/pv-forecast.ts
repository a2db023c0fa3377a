/**
 * Physics forecasts of PV output (issue 19; ARCHITECTURE 9): POST /api/pv-forecast from a site's specs (set or
 * inferred) or an inline `pv_system`, driven by the caller's weather feed or the weather provider's forecast,
 * tuned by the site's history when it has one; GET /api/pv-estimated-actuals, the modelled output of past days
 * from the provider's record of the past. Each call is one forecast unit.
 */
import { BadRequest, NotFound } from '../../errors';
import { applyPvTuning, pvQuantiles } from '../../domain/pv/tuning';
import { firstUncovered, modelOnSteps, type WeatherRowAt } from '../../domain/pv/weather-steps';
import { MAX_ESTIMATED_ACTUALS_DAYS, type EstimatedActualsQuery, type PvForecastRequest, type PvWeatherRow } from '../../schemas/pv';
import type { StoredPvSystem } from '../../store/sites-repo';
import { weatherFor } from '../../weather-providers';
import type { Caller } from '../../access/authentication';
import { ownedSite, sitePvSystem, siteTuning, storedPvSystem, toPvSystem, weatherRows } from './pv-sites';
import { withQuota } from '../../access/quota';
import { readSiteSeries } from '../uploads/site-data';
import { roundHalfUp } from '../../domain/rounding';
import { DAY_MS, HOUR_MS, iso } from '../../domain/time';

function parseInstant(value: string, field: string): number {
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw new BadRequest(`Invalid request: ${field} "${value}" is not an ISO 8601 timestamp`);
  return t;
}

/** The caller's feed as interval-end rows, sorted; duplicate timestamps are refused. */
function callerRows(rows: readonly PvWeatherRow[]): WeatherRowAt[] {
  const parsed = rows.map((r, i) => ({
    end: parseInstant(r.timestamp, `weather[${i}].timestamp`),
    ghiWm2: r.ghi_wm2,
    ...(r.dni_wm2 !== undefined ? { dniWm2: r.dni_wm2 } : {}),
    ...(r.dhi_wm2 !== undefined ? { dhiWm2: r.dhi_wm2 } : {}),
    ...(r.temperature_c !== undefined ? { tempAirC: r.temperature_c } : {}),
    ...(r.wind_speed_ms !== undefined ? { windSpeedMs: r.wind_speed_ms } : {}),
  }));
  parsed.sort((a, b) => a.end - b.end);
  for (let i = 1; i < parsed.length; i++) if (parsed[i].end === parsed[i - 1].end) throw new BadRequest(`Invalid request: weather has two rows for ${iso(parsed[i].end)}`);
  return parsed;
}

interface WeatherUsed {
  rows: WeatherRowAt[];
  source: string;
  note?: string;
}

/** Weather over [start, end): the caller's rows (which must cover it), else the provider's. */
async function weatherOver(system: StoredPvSystem, start: number, end: number, mode: 'forecast' | 'history', own?: readonly PvWeatherRow[], timezone?: string): Promise<WeatherUsed> {
  if (own) {
    const rows = callerRows(own);
    const gap = firstUncovered(rows, start, end);
    if (gap !== undefined) throw new BadRequest(`Invalid request: weather does not cover the horizon from ${iso(gap)} (rows are the mean of the interval ending at their timestamp; the horizon is ${iso(start)} to ${iso(end)})`);
    return { rows, source: 'request' };
  }
  const from = Math.floor(start / HOUR_MS) * HOUR_MS;
  const to = Math.ceil(end / HOUR_MS) * HOUR_MS + HOUR_MS;
  const got = await weatherFor({ latitude: system.latitude, longitude: system.longitude, elevationM: system.elevation_m, start: new Date(from), end: new Date(to), timezone, mode });
  const rows = weatherRows(got.points);
  const gap = firstUncovered(rows, start, end);
  if (gap !== undefined) throw new NotFound(`The weather source (${got.source}) has no data for ${iso(gap)} at ${system.latitude},${system.longitude}`);
  return { rows, source: got.source, ...(got.note ? { note: got.note } : {}) };
}


const gridFrom = (start: number, end: number, stepMinutes: number) => {
  const stepMs = stepMinutes * 60_000;
  const starts: number[] = [];
  for (let t = start; t < end; t += stepMs) starts.push(t);
  return starts;
};

/** The specs a request names, where they came from, and the site when one is named. */
type SpecsRequest = { customer_id?: string; site_id?: string; pv_system?: PvForecastRequest['pv_system'] };

async function specsOf(caller: Caller, request: SpecsRequest) {
  const site = request.customer_id && request.site_id ? await ownedSite(caller, request.customer_id, request.site_id) : undefined;
  if (request.pv_system) return { site, stored: storedPvSystem(request.pv_system), source: 'request' as const };
  if (!site) throw new BadRequest('Invalid request: send a pv_system, or a customer_id and site_id of a site with one');
  const resolved = await sitePvSystem(site);
  if (!resolved) throw new NotFound(`Site ${site.site_id} has no pv_system and too little history to infer one: PUT /api/sites/${site.site_id} with a pv_system`);
  return { site, stored: resolved.system, source: resolved.source };
}

/**
 * The modelled (and, for a site with history, tuned) output over [start, end) in steps of `stepMinutes`, with what
 * it rests on: the specs and where they came from, the weather and its source, the tuning and its measured effect.
 */
async function modelledOutput(caller: Caller, request: SpecsRequest, range: { start: number; end: number; stepMinutes: number }, mode: 'forecast' | 'history', ownWeather?: readonly PvWeatherRow[]) {
  const { site, stored, source } = await specsOf(caller, request);
  const system = toPvSystem(stored);
  const weather = await weatherOver(stored, range.start, range.end, mode, ownWeather, site?.timezone);
  const modelled = modelOnSteps(system, weather.rows, gridFrom(range.start, range.end, range.stepMinutes), range.stepMinutes);
  const tuned = site ? await siteTuning(site, stored) : undefined;
  const p50 = tuned ? applyPvTuning(tuned.tuning, modelled) : modelled.map((m) => m.acKw);
  const basis = {
    ...(site ? { customer_id: site.customer_id, site_id: site.site_id } : {}),
    pv_system: stored,
    specs_source: source,
    interval_minutes: range.stepMinutes,
    weather_source: weather.source,
    ...(weather.note ? { weather_note: weather.note } : {}),
    tuned: Boolean(tuned),
    tuning_effect: tuned ? tuned.effect : null,
  };
  return { basis, system, modelled, tuning: tuned?.tuning, p50, energyKwh: roundHalfUp(p50.reduce((sum, x) => sum + x, 0) * (range.stepMinutes / 60), 2) };
}

/** POST /api/pv-forecast. */
export function pvForecast(caller: Caller, request: PvForecastRequest) {
  return withQuota(caller, 'forecasts', async () => {
    const stepMinutes = request.interval_minutes;
    const stepMs = stepMinutes * 60_000;
    const start = Math.floor((request.start ? parseInstant(request.start, 'start') : Date.now()) / stepMs) * stepMs;
    const out = await modelledOutput(caller, request, { start, end: start + request.horizon_hours * HOUR_MS, stepMinutes }, 'forecast', request.weather);
    const { p10, p90 } = pvQuantiles(out.tuning, out.modelled, out.p50, out.system.inverterAcKw);
    return {
      status: 'success',
      ...out.basis,
      forecast_start: iso(start),
      horizon_hours: request.horizon_hours,
      energy_kwh: out.energyKwh,
      forecasts: out.modelled.map((m, i) => ({
        timestamp: iso(m.t),
        p10_kw: roundHalfUp(p10[i], 3),
        p50_kw: roundHalfUp(out.p50[i], 3),
        p90_kw: roundHalfUp(p90[i], 3),
        poa_wm2: roundHalfUp(m.poaWm2, 1),
        cell_temp_c: roundHalfUp(m.cellTempC, 1),
      })),
    };
  });
}

/** GET /api/pv-estimated-actuals: modelled output of past days, beside the measured where the site has it. */
export function pvEstimatedActuals(caller: Caller, query: EstimatedActualsQuery) {
  return withQuota(caller, 'forecasts', async () => {
    const stepMinutes = query.interval_minutes;
    const stepMs = stepMinutes * 60_000;
    const start = Math.floor(parseInstant(query.start, 'start') / stepMs) * stepMs;
    const end = Math.ceil(parseInstant(query.end, 'end') / stepMs) * stepMs;
    if (!(end > start)) throw new BadRequest('Invalid request: end must be after start');
    if (end - start > MAX_ESTIMATED_ACTUALS_DAYS * DAY_MS) throw new BadRequest(`Invalid request: at most ${MAX_ESTIMATED_ACTUALS_DAYS} days per call`);
    if (end > Date.now() + HOUR_MS) throw new BadRequest('Invalid request: estimated actuals are for the past; use POST /api/pv-forecast for the future');
    const out = await modelledOutput(caller, query, { start, end, stepMinutes }, 'history');
    const measured = await measuredOnGrid(query.customer_id, query.site_id, out.modelled.map((m) => m.t), stepMs);
    return {
      status: 'success',
      ...out.basis,
      estimated_energy_kwh: out.energyKwh,
      estimated_actuals: out.modelled.map((m, i) => ({
        timestamp: iso(m.t),
        estimated_kw: roundHalfUp(out.p50[i], 3),
        measured_kw: measured[i] === null ? null : roundHalfUp(measured[i]!, 3),
        poa_wm2: roundHalfUp(m.poaWm2, 1),
        cell_temp_c: roundHalfUp(m.cellTempC, 1),
      })),
    };
  });
}

/** The site's measured power averaged over each step (null where it has none). */
async function measuredOnGrid(customerId: string, siteId: string, starts: number[], stepMs: number): Promise<(number | null)[]> {
  if (!starts.length) return [];
  const rows = (await readSiteSeries(customerId, siteId, starts[0])).filter((r) => r.power_kw !== null && r.t < starts[starts.length - 1] + stepMs);
  const sums = new Array<number>(starts.length).fill(0);
  const counts = new Array<number>(starts.length).fill(0);
  for (const r of rows) {
    const i = Math.floor((r.t - starts[0]) / stepMs);
    if (i >= 0 && i < starts.length) {
      sums[i] += r.power_kw as number;
      counts[i]++;
    }
  }
  return sums.map((s, i) => (counts[i] ? s / counts[i] : null));
}

/**
 * What a batch operation that names only a customer (and a site) takes from the customer's stored data
 * (README: Batch processing): `optimize` the forecasts of the customer's sites and its battery device,
 * `interpolate` a site's stored series. A part sent inline always wins; a part neither sent nor stored is
 * named in a 400 that says how to give it. Each answer lists where every input came from (`inputs`).
 */
import { BadRequest, NotFound } from '../../errors';
import { BATTERY_DEFAULTS } from '../../schemas/dispatch';
import { MAX_HORIZON_HOURS } from '../../schemas/forecast';
import { listForecastResults } from '../../store/forecast-results-repo';
import { listModelsOfCustomer, type ModelRecord } from '../../store/models-repo';
import { getSite, listSites, type SiteRecord } from '../../store/sites-repo';
import { getCustomer, listCustomerDevices, type DeviceRecord } from '../../store/tenants-repo';
import type { Caller } from '../../access/authentication';
import { customerForecast } from '../forecasting/customer-forecast';
import { readSiteSeries } from '../uploads/site-data';
import { ownedDevice } from '../accounts/tenants';
import { DAY_MS, HOUR_MS } from '../../domain/time';

/** Hours optimised when the operation gives no `horizon`: a day, as the spec's dispatch example. */
export const DEFAULT_OPTIMIZE_HORIZON_HOURS = 24;
/**
 * Hours of storage assumed for a battery device registered without `energy_capacity_kwh` (the spec's
 * create-device has only `capacity_kw`): 2 h, the most common duration of commercial and utility batteries.
 * The answer says when it was assumed.
 */
export const DEFAULT_BATTERY_DURATION_HOURS = 2;
/** Days of a site's stored series cleaned when the operation gives no `start`. */
export const DEFAULT_INTERPOLATION_DAYS = 7;
const BATTERY_TYPE = /batter|storage|bess\b|\bess\b/i;

type Operation = Record<string, unknown> & { customer_id: string };
type Series = { times: number[]; values: number[]; source: string };

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/** Another account's customer is a 404; an id nobody has used yet simply has no stored data. */
async function checkCustomer(caller: Caller, customerId: string): Promise<void> {
  const customer = await getCustomer(customerId);
  if (customer && customer.account_id !== caller.accountId) throw new NotFound('Customer not found');
}

/** Series kinds of the models that forecast each dispatch input; training names a load-like series `generic` (domain/forecasting/kind.ts). */
const MODEL_KINDS: Record<'solar' | 'load', readonly string[]> = { solar: ['solar'], load: ['load', 'generic'] };

/**
 * The production model of that kind at the site `<kind>_site_id` names, else at `site_id` when that site has
 * one, else the customer's only one.
 */
function modelFor(kind: 'solar' | 'load', op: Operation, production: ModelRecord[]): ModelRecord | undefined {
  const named = text(op[`${kind}_site_id`]);
  let ofKind = production.filter((m) => MODEL_KINDS[kind].includes(m.series_kind ?? 'generic') && (named === undefined || m.site_id === named));
  const atSite = ofKind.filter((m) => m.site_id === text(op.site_id));
  if (named === undefined && atSite.length) ofKind = atSite;
  if (ofKind.length > 1) {
    throw new BadRequest(`Invalid request: customer ${op.customer_id} has ${ofKind.length} sites with a ${kind} model (${ofKind.map((m) => m.site_id).join(', ')}); name one with ${kind}_site_id`);
  }
  return ofKind[0];
}

/**
 * The site model's forecast over `hours`: the latest stored forecast of that model that is long enough, else
 * a new one from the model (as GET /forecast, one forecast unit of the quota).
 */
async function siteForecast(caller: Caller, model: ModelRecord, hours: number): Promise<Series> {
  const stored = (await listForecastResults(model.customer_id))
    .filter((r) => r.site_id === model.site_id && r.model_id === model.model_id && r.forecast_points.length >= 2)
    .sort((a, b) => b.generated_at.localeCompare(a.generated_at));
  for (const result of stored) {
    const points = result.forecast_points;
    const stepMs = Date.parse(points[1].timestamp) - Date.parse(points[0].timestamp);
    const steps = Math.round((hours * HOUR_MS) / stepMs);
    if (points.length < steps) continue;
    const kept = points.slice(0, steps);
    return { times: kept.map((p) => Date.parse(p.timestamp)), values: kept.map((p) => Math.max(0, p.predicted_power_kw)), source: `stored forecast ${result.forecast_id} of site ${model.site_id} (model ${model.model_version}, generated ${result.generated_at})` };
  }
  const fresh = await customerForecast(caller, { customer_id: model.customer_id, site_id: model.site_id, horizon_hours: hours });
  return {
    times: fresh.forecasts.map((p) => Date.parse(p.timestamp)),
    values: fresh.forecasts.map((p) => Math.max(0, p.predicted_power_kw)),
    source: `new forecast ${fresh.forecast_id} of site ${model.site_id} by its model ${model.model_version} (one forecast of the quota)`,
  };
}

/** The battery device the operation names, or the customer's only one. */
async function batteryDevice(caller: Caller, op: Operation): Promise<DeviceRecord | undefined> {
  const named = text(op.device_id);
  if (named) {
    const device = await ownedDevice(caller, named);
    if (device.customer_id !== op.customer_id) throw new NotFound('Device not found');
    return device;
  }
  const batteries = (await listCustomerDevices(op.customer_id)).filter((d) => d.account_id === caller.accountId && BATTERY_TYPE.test(d.device_type));
  if (batteries.length > 1) throw new BadRequest(`Invalid request: customer ${op.customer_id} has ${batteries.length} battery devices (${batteries.map((d) => d.device_id).join(', ')}); name one with device_id`);
  return batteries[0];
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** system_config from a battery device: its power, energy (or DEFAULT_BATTERY_DURATION_HOURS of power), limits and last SOC. */
function systemOfDevice(device: DeviceRecord, notes: string[]) {
  const minSoc = device.min_soc ?? BATTERY_DEFAULTS.battery_min_soc;
  const maxSoc = device.max_soc ?? BATTERY_DEFAULTS.battery_max_soc;
  const energy = device.energy_capacity_kwh ?? device.capacity_kw * DEFAULT_BATTERY_DURATION_HOURS;
  if (device.energy_capacity_kwh === undefined) {
    notes.push(`battery_capacity_kwh: device ${device.device_id} has no energy_capacity_kwh, so ${DEFAULT_BATTERY_DURATION_HOURS} h of its ${device.capacity_kw} kW (${energy} kWh) is assumed; register it with energy_capacity_kwh or send system_config.battery_capacity_kwh`);
  }
  const soc = device.state?.soc;
  return {
    battery_capacity_kwh: energy,
    battery_power_kw: device.capacity_kw,
    battery_min_soc: minSoc,
    battery_max_soc: maxSoc,
    roundtrip_efficiency: device.roundtrip_efficiency ?? BATTERY_DEFAULTS.roundtrip_efficiency,
    ...(soc !== undefined ? { initial_soc: clamp(soc, minSoc, maxSoc) } : {}),
  };
}

/** The hours both series cover, `steps` of them from the later start; a 400 when they do not share enough. */
function aligned(solar: Series, load: Series, steps: number): { times: number[]; solar: number[]; load: number[] } {
  const start = Math.max(solar.times[0], load.times[0]);
  const from = (s: Series) => s.times.indexOf(start);
  const [i, j] = [from(solar), from(load)];
  const shared = i < 0 || j < 0 ? 0 : Math.min(solar.times.length - i, load.times.length - j);
  const agree = shared >= steps && Array.from({ length: steps }, (_, k) => solar.times[i + k] === load.times[j + k]).every(Boolean);
  if (!agree) {
    throw new BadRequest(
      `Invalid request: the solar forecast (${solar.source}, from ${new Date(solar.times[0]).toISOString()}) and the load forecast (${load.source}, from ${new Date(load.times[0]).toISOString()}) do not share ${steps} intervals; send one of them inline in forecasts`,
    );
  }
  return { times: solar.times.slice(i, i + steps), solar: solar.values.slice(i, i + steps), load: load.values.slice(j, j + steps) };
}

const stepMinutes = (times: number[]) => (times.length > 1 ? (times[1] - times[0]) / 60_000 : 60);

/**
 * The body of POST /api/dispatch-optimization for an `optimize` operation: what it sends, completed from the
 * customer's stored forecasts (a site with a solar model, a site with a load model) and battery device.
 * Prices are not stored: `forecasts.price_forecast`, or a flat `import_price` (and `export_price`), per kWh.
 */
export async function storedOptimizeRequest(caller: Caller, op: Operation): Promise<{ request: Record<string, unknown>; inputs: Record<string, string> }> {
  await checkCustomer(caller, op.customer_id);
  const inline = (op.forecasts ?? {}) as Record<string, unknown>;
  const config = { ...((op.optimization_config ?? {}) as Record<string, unknown>) };
  if (op.objective !== undefined && config.objective === undefined) config.objective = op.objective;
  const hours = Number(op.horizon ?? config.time_horizon ?? DEFAULT_OPTIMIZE_HORIZON_HOURS);
  if (!Number.isInteger(hours) || hours < 1 || hours > 168) throw new BadRequest('Invalid request: horizon must be a whole number of hours from 1 to 168');
  const inputs: Record<string, string> = {};
  const notes: string[] = [];
  const missing: string[] = [];

  const production = (await listModelsOfCustomer(op.customer_id)).filter((m) => m.status === 'production');
  const models: Partial<Record<'solar' | 'load', ModelRecord>> = {};
  for (const kind of ['solar', 'load'] as const) {
    const field = `${kind}_forecast`;
    if (inline[field] !== undefined) inputs[field] = 'sent inline';
    else if ((models[kind] = modelFor(kind, op, production)) === undefined) {
      missing.push(`${field} (no site of customer ${op.customer_id} has a ${kind} model: upload and train one, or send forecasts.${field})`);
    }
  }
  const prices = pricesOf(op, inline, inputs, missing);
  const device = op.system_config === undefined || (op.system_config as Record<string, unknown>).battery_power_kw === undefined ? await batteryDevice(caller, op) : undefined;
  if (!device && op.system_config === undefined) missing.push(`system_config (customer ${op.customer_id} has no battery device: register one with POST /api/create-device, device_type "battery", or send system_config)`);
  // Everything missing is named before any forecast is made, so a refused operation consumes no quota.
  if (missing.length) throw new BadRequest(`Invalid request: an optimize operation needs ${missing.join('; ')}`);
  const stored: Partial<Record<'solar' | 'load', Series>> = {};
  for (const kind of ['solar', 'load'] as const) {
    const model = models[kind];
    if (!model) continue;
    stored[kind] = await siteForecast(caller, model, hours);
    inputs[`${kind}_forecast`] = stored[kind].source;
  }

  const forecasts: Record<string, unknown> = { ...inline };
  let times: number[] | undefined;
  if (stored.solar && stored.load) {
    // Sites whose data end at different hours forecast from different starts: the earlier-starting forecast is
    // made long enough to cover the horizon from the later start (one more forecast of the quota).
    const lagHours = Math.ceil(Math.abs(stored.solar.times[0] - stored.load.times[0]) / HOUR_MS);
    if (lagHours > 0 && hours + lagHours <= MAX_HORIZON_HOURS) {
      const early = stored.solar.times[0] < stored.load.times[0] ? 'solar' : 'load';
      stored[early] = await siteForecast(caller, models[early]!, hours + lagHours);
      inputs[`${early}_forecast`] = stored[early].source;
    }
    const both = aligned(stored.solar, stored.load, Math.round((hours * 60) / stepMinutes(stored.solar.times)));
    times = both.times;
    Object.assign(forecasts, { solar_forecast: both.solar, load_forecast: both.load });
  } else {
    const one = stored.solar ?? stored.load;
    if (one) {
      times = one.times;
      forecasts[stored.solar ? 'solar_forecast' : 'load_forecast'] = one.values;
    }
  }
  const intervals = times?.length ?? (Array.isArray(inline.load_forecast) ? inline.load_forecast.length : Array.isArray(inline.solar_forecast) ? inline.solar_forecast.length : hours);
  if (prices.flat) Object.assign(forecasts, prices.flat(intervals));
  if (times) {
    config.interval_minutes ??= stepMinutes(times);
    config.start_time ??= new Date(times[0]).toISOString();
  }
  const system = { ...(device ? systemOfDevice(device, notes) : {}), ...((op.system_config ?? {}) as Record<string, unknown>) };
  if (device) {
    inputs.system_config = `battery device ${device.device_id} (${device.manufacturer}, ${device.capacity_kw} kW${device.energy_capacity_kwh ? `, ${device.energy_capacity_kwh} kWh` : ''})${op.system_config ? ', with the fields sent inline' : ''}`;
    if (device.grid_export_limit_kw !== undefined) config.grid_export_limit ??= device.grid_export_limit_kw;
    if (device.grid_import_limit_kw !== undefined) config.grid_import_limit ??= device.grid_import_limit_kw;
  } else inputs.system_config = 'sent inline';
  if (notes.length) inputs.notes = notes.join('; ');
  return { request: { forecasts, system_config: system, optimization_config: config }, inputs };
}

/** Prices per kWh: the inline series, or a flat import_price (export_price defaulting to it). None are stored. */
function pricesOf(op: Operation, inline: Record<string, unknown>, inputs: Record<string, string>, missing: string[]): { flat?: (n: number) => Record<string, number[]> } {
  if (inline.price_forecast !== undefined) {
    inputs.price_forecast = 'sent inline';
    return {};
  }
  const importPrice = op.import_price;
  const exportPrice = op.export_price ?? importPrice;
  if (importPrice === undefined) {
    missing.push('price_forecast (no prices are stored for a customer: send forecasts.price_forecast, per kWh and interval, or a flat import_price and export_price per kWh)');
    return {};
  }
  if (typeof importPrice !== 'number' || typeof exportPrice !== 'number' || !Number.isFinite(importPrice) || !Number.isFinite(exportPrice)) {
    throw new BadRequest('Invalid request: import_price and export_price must be numbers (per kWh)');
  }
  inputs.price_forecast = `flat import_price ${importPrice}${op.export_price !== undefined ? ` and export_price ${exportPrice}` : ' (also paid for exports)'} per kWh, as sent`;
  return { flat: (n) => ({ price_forecast: new Array<number>(n).fill(importPrice), ...(op.export_price !== undefined ? { export_price_forecast: new Array<number>(n).fill(exportPrice) } : {}) }) };
}

/** The site an operation names, or the customer's only site. */
async function siteOf(op: Operation): Promise<SiteRecord> {
  const named = text(op.site_id);
  if (named) {
    const site = await getSite(op.customer_id, named);
    if (!site) throw new NotFound('Site not found');
    return site;
  }
  const sites = await listSites(op.customer_id);
  if (!sites.length) throw new NotFound(`No stored data for customer ${op.customer_id}: upload a series, or send data`);
  if (sites.length > 1) throw new BadRequest(`Invalid request: customer ${op.customer_id} has ${sites.length} sites (${sites.map((s) => s.site_id).join(', ')}); name one with site_id, or send data`);
  return sites[0];
}

const parseTime = (value: unknown, field: string): number | undefined => {
  if (value === undefined) return undefined;
  const t = typeof value === 'string' ? Date.parse(value) : NaN;
  if (Number.isNaN(t)) throw new BadRequest(`Invalid request: ${field} must be an ISO 8601 timestamp`);
  return t;
};

/**
 * The fields of POST /interpolate for an `interpolate` operation without `data`: the site's stored series
 * (power, kW) from `start` to `end`, by default its last DEFAULT_INTERPOLATION_DAYS days; the series kind
 * from the site's model and its coordinates for solar geometry, unless sent.
 */
export async function storedInterpolationFields(caller: Caller, op: Operation): Promise<{ fields: Record<string, unknown>; inputs: Record<string, string> }> {
  await checkCustomer(caller, op.customer_id);
  const site = await siteOf(op);
  const last = site.coverage?.last ? Date.parse(site.coverage.last) : undefined;
  if (last === undefined) throw new NotFound(`No stored data for site ${site.site_id}: upload a series, or send data`);
  const end = parseTime(op.end, 'end') ?? last;
  const start = parseTime(op.start, 'start') ?? end - DEFAULT_INTERPOLATION_DAYS * DAY_MS;
  if (!(start < end)) throw new BadRequest('Invalid request: start must be before end');
  const rows = (await readSiteSeries(site.customer_id, site.site_id, start)).filter((r) => r.t <= end);
  if (rows.length < 3) throw new BadRequest(`Invalid request: site ${site.site_id} has ${rows.length} stored values from ${new Date(start).toISOString()} to ${new Date(end).toISOString()}; give a start and end its data covers (it ends ${site.coverage!.last})`);
  const model = (await listModelsOfCustomer(site.customer_id)).find((m) => m.site_id === site.site_id && m.status === 'production');
  const kind = (op.series_type as string | undefined) ?? model?.series_kind;
  return {
    fields: {
      data: rows.map((r) => ({ timestamp: new Date(r.t).toISOString(), value: r.power_kw })),
      customer_id: site.customer_id,
      site_id: site.site_id,
      ...(kind !== undefined ? { type: kind } : {}),
      ...(op.latitude === undefined && op.location === undefined && site.latitude !== undefined ? { latitude: site.latitude, longitude: site.longitude } : {}),
    },
    inputs: {
      data: `stored series of site ${site.site_id}, ${rows.length} values from ${new Date(rows[0].t).toISOString()} to ${new Date(rows[rows.length - 1].t).toISOString()}`,
      ...(op.series_type === undefined ? { series_type: model?.series_kind ? `${model.series_kind}, the kind of the site's model ${model.model_version}` : 'generic (the site has no model to tell its kind)' } : {}),
    },
  };
}

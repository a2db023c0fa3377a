/**
 * The forecasting endpoints over the engine (shared/domain/forecasting): POST /forecast (and
 * /api/generate-forecast), POST /api/price-forecast, and the freemium forecast. Each request consumes one
 * forecast of the caller's monthly quota (the freemium one is limited per address and e-mail instead).
 */
import { Readable } from 'node:stream';
import { config } from '../config';
import { BadRequest, RateLimited } from '../errors';
import { InvalidCsv, standardiseCsv, type StandardRow } from '../domain/ingest';
import { resolveLocation } from '../domain/locations';
import { forecastSeries, type EngineResult } from '../domain/forecasting/engine';
import { inferKind } from '../domain/forecasting/kind';
import { forecastInsights, marketReading } from '../domain/forecasting/insights';
import { ForecastInputError, regularise } from '../domain/forecasting/regularise';
import type { FitContext, SeriesKind } from '../domain/forecasting/types';
import type { MultipartBody } from '../http/multipart';
import type { z } from 'zod';
import type { ForecastRequest, PriceForecastRequest } from '../schemas/forecasting';
import { incrementDailyCounter } from '../store/stats-repo';
import { recordLead } from '../store/leads-repo';
import type { Caller } from './authentication';
import { withQuota } from './quota';
import { secondsUntilReset, takeDailyAllowance } from './rate-limit';

const HOUR_MS = 3_600_000;
const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d + 0;
const iso = (t: number) => new Date(t).toISOString();

/** Regularises points and runs the engine; input problems become 400s that say what to fix. */
function runEngine(points: { t: number; value: number }[], horizonHours: number, coverage: number, modelType: string, context: Omit<FitContext, 'kind'> & { kind?: SeriesKind }) {
  try {
    const series = regularise(points);
    const kind = context.kind ?? inferKind(series);
    const horizonSteps = Math.round((horizonHours * 60) / series.stepMinutes);
    const result = forecastSeries(series, { horizonSteps, coverage, modelType, context: { ...context, kind } });
    return { series, kind, result };
  } catch (err) {
    if (err instanceof ForecastInputError) throw new BadRequest(err.message);
    throw err;
  }
}

const parseTime = (timestamp: string, field: string): number => {
  const t = Date.parse(timestamp);
  if (Number.isNaN(t)) throw new BadRequest(`Invalid request: ${field} "${timestamp}" is not an ISO 8601 timestamp`);
  return t;
};

function accuracy(result: EngineResult) {
  const v = result.validation[result.modelUsed] ?? Object.values(result.validation)[0];
  return { mape: round(v?.mape ?? NaN, 4), rmse: round(v?.rmse ?? NaN, 4), r_squared: round(v?.r2 ?? NaN, 4) };
}

const countForecast = () => incrementDailyCounter(new Date().toISOString().slice(0, 10), 'forecasts');

/** POST /forecast and POST /api/generate-forecast. */
export async function generateForecast(caller: Caller, body: z.infer<typeof ForecastRequest>) {
  const units = new Set(body.historical_data.map((p) => p.unit));
  if (units.size > 1) throw new BadRequest(`Invalid request: historical_data mixes units (${[...units].join(', ')}); send one unit`);
  const unit = body.historical_data[0].unit;
  const points = body.historical_data.map((p, i) => ({ t: parseTime(p.timestamp, `historical_data.${i}.timestamp`), value: p.value }));
  const cfg = body.forecast_config;
  const place = cfg.location ? resolveLocation(cfg.location) : undefined;
  if (cfg.location && !place) throw new BadRequest(`Unknown location: ${cfg.location}`);
  return withQuota(caller, 'forecasts', async () => {
    const { series, result } = runEngine(points, cfg.horizon, cfg.confidence_interval, cfg.model_type, {
      kind: cfg.series_type,
      latitude: cfg.latitude ?? place?.latitude,
      longitude: cfg.longitude ?? place?.longitude,
      timezone: place?.timezone,
    });
    await countForecast();
    return {
      forecast: result.points.map((p) => ({ timestamp: iso(p.t), value: round(p.value), confidence_lower: round(p.lower), confidence_upper: round(p.upper), unit })),
      model_performance: {
        accuracy_metrics: accuracy(result),
        model_used: result.modelUsed,
        training_duration: `${(result.fitMs / 1000).toFixed(3)} s`,
        validation: 'rolling-origin, on the request’s own history',
        member_weights: result.weights,
      },
      actionable_insights: forecastInsights(result.points, unit, series.stepMinutes),
    };
  });
}

/** POST /api/price-forecast: hourly prices, LEAR with the duck-curve feature when asked. */
export async function priceForecast(caller: Caller, body: z.infer<typeof PriceForecastRequest>) {
  const currencies = new Set(body.historical_prices.map((p) => p.currency));
  if (currencies.size > 1) throw new BadRequest(`Invalid request: historical_prices mixes currencies (${[...currencies].join(', ')})`);
  const currency = body.historical_prices[0].currency;
  const points = body.historical_prices.map((p, i) => ({ t: parseTime(p.timestamp, `historical_prices.${i}.timestamp`), value: p.price }));
  return withQuota(caller, 'forecasts', async () => {
    const { result } = runEngine(points, body.forecast_horizon, body.confidence_interval, 'ensemble', {
      kind: 'price',
      options: { duckCurve: body.duck_curve_adjustment },
    });
    await countForecast();
    const reading = marketReading(result.points, currency);
    return {
      price_forecast: result.points.map((p, i) => ({
        timestamp: iso(p.t),
        price: round(p.value, 2),
        confidence_interval: [round(p.lower, 2), round(p.upper, 2)],
        currency,
        market_factors: reading.factors[i],
      })),
      market_insights: reading.insights,
      model_used: result.modelUsed,
      market: body.market,
    };
  });
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/** Hourly energy (kWh) from standardised rows: the sum of each interval's energy within the hour. */
function hourlyEnergy(rows: StandardRow[]): { t: number; value: number }[] {
  const hours = new Map<number, number>();
  for (const r of rows) {
    if (r.energy_kwh === null) continue;
    const h = Math.floor(r.t / HOUR_MS) * HOUR_MS;
    hours.set(h, (hours.get(h) ?? 0) + r.energy_kwh);
  }
  return [...hours].sort((a, b) => a[0] - b[0]).map(([t, value]) => ({ t, value }));
}

/** POST /v1/freemium-forecast: 24 hourly kWh values for a solar site from a CSV of its history. */
export async function freemiumForecast(form: MultipartBody) {
  const file = form.files.find((f) => f.field === 'file');
  if (!file || !file.data.length) throw new BadRequest('CSV file is required');
  const email = (form.fields.email ?? '').trim();
  if (!EMAIL.test(email) || email.length > 254) throw new BadRequest('Invalid email address format');
  const siteName = (form.fields.site_name ?? '').trim().slice(0, 200);
  const location = (form.fields.location ?? '').trim().slice(0, 200);
  const allowance = await takeDailyAllowance(`email:${email.toLowerCase()}`, config().FREEMIUM_FORECASTS_PER_EMAIL_PER_DAY);
  if (!allowance.allowed) throw new RateLimited(secondsUntilReset(allowance));

  let parsed;
  try {
    parsed = await standardiseCsv(Readable.from([file.data]));
  } catch (err) {
    if (err instanceof InvalidCsv) throw new BadRequest('Invalid CSV Format', { reason: err.reason });
    throw err;
  }
  const place = location ? resolveLocation(location) : undefined;
  const { result } = runEngine(hourlyEnergy(parsed.rows), 24, 0.9, 'ensemble', {
    kind: 'solar',
    latitude: place?.latitude,
    longitude: place?.longitude,
    timezone: place?.timezone,
  });
  await recordLead(email, siteName, location);
  await countForecast();
  const values = result.points.map((p) => round(Math.max(0, p.value)));
  const peakValue = Math.max(...values);
  const forecasts = result.points.map((p, i) => ({
    timestamp: iso(p.t),
    hour_ahead: i + 1,
    kWh_forecast: values[i],
    // 1 where the forecast is certain (night), falling with the interval's width relative to the day's peak.
    confidence: round(peakValue > 0 ? Math.max(0, 1 - (p.upper - p.lower) / (2 * peakValue)) : 1),
  }));
  const total = values.reduce((a, b) => a + b, 0);
  const peakIndex = values.indexOf(peakValue);
  return {
    status: 'success',
    forecast: {
      site_name: form.fields.site_name ?? '',
      location: form.fields.location ?? '',
      manufacturer: parsed.detectedManufacturer,
      forecast_hours: 24,
      generated_at: new Date().toISOString(),
      model_type: result.modelUsed,
      forecasts,
      summary: { total_kwh_24h: total, peak_kwh: peakValue, average_hourly_kwh: total / 24, peak_hour: forecasts[peakIndex].timestamp },
    },
  };
}


/**
 * Stored forecast results: POST /terminal/forecast lists them; GET /results (and /api/forecast-results)
 * joins them with the actuals that arrived since and measures their accuracy.
 */
import { NotFound } from '../errors';
import { wapeAccuracy } from '../domain/forecasting/metrics';
import { listForecastResults, type StoredForecastResult } from '../store/forecast-results-repo';
import { listCustomers } from '../store/tenants-repo';
import type { Caller } from './authentication';
import { readSiteSeries } from './site-data';
import { findOwnedCustomer } from './tenants';

const HOUR_MS = 3_600_000;
const round = (x: number, d = 4) => Math.round(x * 10 ** d) / 10 ** d + 0;
/** Accuracy moves by more than this between the halves of the record before it counts as a trend. */
const TREND_THRESHOLD = 0.02;

const publicResult = ({ account_id: _a, model_id: _m, ...result }: StoredForecastResult) => result;

/** POST /terminal/forecast. */
export async function terminalForecasts(caller: Caller, customerId: string) {
  const customer = await findOwnedCustomer(caller, customerId);
  const results = customer ? await listForecastResults(customerId) : [];
  if (!results.length) throw new NotFound('No forecast results found');
  return { success: true, customer_id: customerId, forecast_results: results.map(publicResult), count: results.length };
}

interface Joined {
  t: number;
  predicted: number;
  actual: number | null;
  lower: number;
  upper: number;
  modelVersion: string;
}

/** 1 - |error| / |actual| per point (0 when the error exceeds the actual); for aggregates, 1 - sum|error| / sum|actual|. */
function accuracy(points: readonly Joined[]): number | null {
  const known = points.filter((p) => p.actual !== null);
  const value = wapeAccuracy(known.map((p) => p.actual!), known.map((p) => p.predicted));
  return Number.isFinite(value) ? round(value) : null;
}

function trend(points: readonly Joined[]): string | null {
  const known = points.filter((p) => p.actual !== null).sort((a, b) => a.t - b.t);
  if (known.length < 4) return null;
  const half = Math.floor(known.length / 2);
  const early = accuracy(known.slice(0, half));
  const late = accuracy(known.slice(half));
  if (early === null || late === null) return null;
  return late - early > TREND_THRESHOLD ? 'improving' : early - late > TREND_THRESHOLD ? 'degrading' : 'stable';
}

/** Business readings derived from the joined numbers. */
function insights(points: readonly Joined[], overall: number | null) {
  const known = points.filter((p) => p.actual !== null);
  if (!points.length) {
    return { revenue_optimization: 'No stored forecasts yet: GET /forecast stores one per request.', peak_demand_management: 'No forecasts to read peaks from yet.', maintenance_recommendations: [] as string[] };
  }
  const peak = points.reduce((a, b) => (b.predicted > a.predicted ? b : a));
  const meanError = known.length ? known.reduce((s, p) => s + Math.abs(p.actual! - p.predicted), 0) / known.length : null;
  const bias = known.length ? known.reduce((s, p) => s + (p.actual! - p.predicted), 0) / known.length : 0;
  const outside = known.filter((p) => p.actual! < p.lower || p.actual! > p.upper).length;
  const recommendations: string[] = [];
  const predictedMean = known.length ? known.reduce((s, p) => s + Math.abs(p.predicted), 0) / known.length : 0;
  if (known.length >= 24 && predictedMean > 0 && bias < -0.1 * predictedMean) {
    recommendations.push(`Actual output averaged ${round(-bias, 2)} kW (${round((-100 * bias) / predictedMean, 1)}%) below forecast over ${known.length} points: check for soiling, shading, curtailment or inverter faults.`);
  }
  if (known.length >= 20 && outside / known.length > 0.2) {
    recommendations.push(`${outside} of ${known.length} actuals fell outside the forecast intervals: retrain the model on recent data (POST /train).`);
  }
  return {
    revenue_optimization:
      meanError === null
        ? `Forecasts peak at ${round(peak.predicted, 2)} kW; accuracy is measured once actuals arrive for the forecast hours.`
        : `Mean absolute forecast error ${round(meanError, 2)} kW over ${known.length} points (accuracy ${overall === null ? 'n/a' : `${round(100 * overall, 1)}%`}); schedule sales and storage against the lower interval bound to limit imbalance exposure.`,
    peak_demand_management: `Highest forecast ${round(peak.predicted, 2)} kW at ${new Date(peak.t).toISOString()} (interval ${round(peak.lower, 2)} to ${round(peak.upper, 2)} kW).`,
    maintenance_recommendations: recommendations,
  };
}

/** GET /results and /api/forecast-results: forecasts in [from, to] joined with the actuals, per customer and site filter. */
export async function forecastResults(caller: Caller, query: { customer_id?: string; site_id?: string; from?: string; to?: string }) {
  const customers = query.customer_id ? ((await findOwnedCustomer(caller, query.customer_id)) ? [query.customer_id] : []) : (await listCustomers(caller.accountId)).map((c) => c.customer_id);
  const from = query.from ? Date.parse(query.from) : -Infinity;
  const to = query.to ? Date.parse(query.to) : Infinity;
  const joined: Joined[] = [];
  let latest: StoredForecastResult | undefined;
  for (const customer of customers) {
    const results = (await listForecastResults(customer)).filter((r) => !query.site_id || r.site_id === query.site_id);
    const sites = [...new Set(results.map((r) => r.site_id))];
    const actualsBySite = new Map<string, Map<number, number>>();
    for (const site of sites) {
      const first = Math.min(...results.filter((r) => r.site_id === site).map((r) => Date.parse(r.forecast_points[0]?.timestamp ?? r.generated_at)));
      const rows = await readSiteSeries(customer, site, first);
      actualsBySite.set(site, new Map(rows.filter((r) => r.power_kw !== null).map((r) => [r.t, r.power_kw as number])));
    }
    for (const r of results) {
      if (!latest || r.generated_at > latest.generated_at) latest = r;
      const actuals = actualsBySite.get(r.site_id)!;
      for (const p of r.forecast_points) {
        const t = Date.parse(p.timestamp);
        if (t < from || t > to) continue;
        joined.push({ t, predicted: p.predicted_power_kw, actual: actuals.get(t) ?? null, lower: p.lower_conf_kw, upper: p.upper_conf_kw, modelVersion: r.model_version });
      }
    }
  }
  joined.sort((a, b) => a.t - b.t);
  const overall = accuracy(joined);
  const lastActual = Math.max(...joined.filter((p) => p.actual !== null).map((p) => p.t));
  return {
    results: {
      forecast_data: joined.map((p) => ({
        timestamp: new Date(p.t).toISOString(),
        predicted_value: p.predicted,
        actual_value: p.actual,
        accuracy: p.actual === null ? null : accuracy([p]),
        confidence_interval: [p.lower, p.upper],
      })),
      performance_metrics: {
        overall_accuracy: overall,
        last_24h_accuracy: Number.isFinite(lastActual) ? accuracy(joined.filter((p) => p.t > lastActual - 24 * HOUR_MS)) : null,
        trending: trend(joined),
        model_version: latest?.model_version ?? null,
      },
      business_insights: insights(joined, overall),
    },
  };
}

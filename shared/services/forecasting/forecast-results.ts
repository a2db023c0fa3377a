/**
 * Stored forecast results: POST /terminal/forecast lists them; GET /results (and /api/forecast-results)
 * joins them with the actuals that arrived since and measures their accuracy, per forecast and per model:
 * two forecasts of the same hour are two points, each under its own forecast_id, never pooled across models.
 */
import { NotFound } from '../../errors';
import { ACCURACY_METRIC } from '../../domain/training/accuracy';
import { accuracyOf, intervalScore, type ScoredPoint } from '../../domain/training/evaluation';
import { listForecastResults, type StoredForecastResult } from '../../store/forecast-results-repo';
import { listCustomers } from '../../store/tenants-repo';
import type { Caller } from '../../access/authentication';
import { readSiteSeries } from '../uploads/site-data';
import { findOwnedCustomer } from '../accounts/tenants';
import { roundHalfUp, roundHalfUpOrNull } from '../../domain/rounding';
import { HOUR_MS } from '../../domain/time';

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

interface Joined extends ScoredPoint {
  t: number;
  forecast: StoredForecastResult;
}

/** A model's forecasts are those of one stored model (model_id): a site's `v1` and another site's `v1` are two. */
const modelKey = (r: StoredForecastResult) => r.model_id ?? `${r.site_id}#${r.model_version}`;

function trend(points: readonly Joined[]): string | null {
  const known = points.filter((p) => p.actual !== null).sort((a, b) => a.t - b.t);
  if (known.length < 4) return null;
  const half = Math.floor(known.length / 2);
  const early = accuracyOf(known.slice(0, half));
  const late = accuracyOf(known.slice(half));
  if (early === null || late === null) return null;
  return late - early > TREND_THRESHOLD ? 'improving' : early - late > TREND_THRESHOLD ? 'degrading' : 'stable';
}

/** Accuracy and interval calibration of a group of points (one forecast, or one model's forecasts). */
function scores(points: readonly Joined[]) {
  const interval = intervalScore(points);
  return {
    points: points.length,
    points_with_actuals: points.filter((p) => p.actual !== null).length,
    accuracy: roundHalfUpOrNull(accuracyOf(points), 4),
    interval_hit_rate: roundHalfUpOrNull(interval.hitRate, 4),
    interval_points_scored: interval.scored,
    night_points_excluded: interval.nightExcluded,
  };
}

/** Business readings of the current model's forecasts (performance_metrics' scope). */
function insights(points: readonly Joined[], overall: number | null, scope: string) {
  const known = points.filter((p) => p.actual !== null);
  if (!points.length) {
    return { revenue_optimization: 'No stored forecasts yet: GET /forecast stores one per request.', peak_demand_management: 'No forecasts to read peaks from yet.', maintenance_recommendations: [] as string[] };
  }
  const peak = points.reduce((a, b) => (b.predicted > a.predicted ? b : a));
  const meanError = known.length ? known.reduce((s, p) => s + Math.abs(p.actual! - p.predicted), 0) / known.length : null;
  const bias = known.length ? known.reduce((s, p) => s + (p.actual! - p.predicted), 0) / known.length : 0;
  const interval = intervalScore(points);
  const recommendations: string[] = [];
  const predictedMean = known.length ? known.reduce((s, p) => s + Math.abs(p.predicted), 0) / known.length : 0;
  if (known.length >= 24 && predictedMean > 0 && bias < -0.1 * predictedMean) {
    recommendations.push(`Actual output averaged ${roundHalfUp(-bias, 2)} kW (${roundHalfUp((-100 * bias) / predictedMean, 1)}%) below forecast over ${known.length} points of ${scope}: check for soiling, shading, curtailment or inverter faults.`);
  }
  if (interval.scored >= 20 && interval.outside / interval.scored > 0.2) {
    recommendations.push(`${interval.outside} of ${interval.scored} actuals fell outside the forecast intervals of ${scope} (${interval.nightExcluded} night points, nothing forecast and nothing produced, not counted): retrain the model on recent data (POST /train).`);
  }
  return {
    revenue_optimization:
      meanError === null
        ? `Forecasts of ${scope} peak at ${roundHalfUp(peak.predicted, 2)} kW; accuracy is measured once actuals arrive for the forecast hours.`
        : `Mean absolute forecast error ${roundHalfUp(meanError, 2)} kW over ${known.length} points of ${scope} (accuracy ${overall === null ? 'n/a' : `${roundHalfUp(100 * overall, 1)}%`}); schedule sales and storage against the lower interval bound to limit imbalance exposure.`,
    peak_demand_management: `Highest forecast ${roundHalfUp(peak.predicted, 2)} kW at ${new Date(peak.t).toISOString()} (interval ${roundHalfUp(peak.lower, 2)} to ${roundHalfUp(peak.upper, 2)} kW, forecast ${peak.forecast.forecast_id}).`,
    maintenance_recommendations: recommendations,
  };
}

/** The stored forecasts of the customers and site asked for, with the actuals of their hours (null where none arrived). */
async function joinedForecasts(caller: Caller, query: { customer_id?: string; site_id?: string; from?: string; to?: string }) {
  const customers = query.customer_id ? ((await findOwnedCustomer(caller, query.customer_id)) ? [query.customer_id] : []) : (await listCustomers(caller.accountId)).map((c) => c.customer_id);
  const from = query.from ? Date.parse(query.from) : -Infinity;
  const to = query.to ? Date.parse(query.to) : Infinity;
  const forecasts: { forecast: StoredForecastResult; points: Joined[] }[] = [];
  for (const customer of customers) {
    const results = (await listForecastResults(customer)).filter((r) => !query.site_id || r.site_id === query.site_id);
    const actualsBySite = new Map<string, Map<number, number>>();
    for (const site of new Set(results.map((r) => r.site_id))) {
      const first = Math.min(...results.filter((r) => r.site_id === site).map((r) => Date.parse(r.forecast_points[0]?.timestamp ?? r.generated_at)));
      const rows = await readSiteSeries(customer, site, first);
      actualsBySite.set(site, new Map(rows.filter((r) => r.power_kw !== null).map((r) => [r.t, r.power_kw as number])));
    }
    for (const forecast of results) {
      const actuals = actualsBySite.get(forecast.site_id)!;
      const points = forecast.forecast_points
        .map((p) => ({ t: Date.parse(p.timestamp), forecast, predicted: p.predicted_power_kw, actual: actuals.get(Date.parse(p.timestamp)) ?? null, lower: p.lower_conf_kw, upper: p.upper_conf_kw }))
        .filter((p) => p.t >= from && p.t <= to);
      if (points.length) forecasts.push({ forecast, points });
    }
  }
  return forecasts.sort((a, b) => a.forecast.generated_at.localeCompare(b.forecast.generated_at) || a.forecast.forecast_id.localeCompare(b.forecast.forecast_id));
}

/**
 * GET /results and /api/forecast-results: every stored forecast in [from, to] with its points (each under its
 * forecast_id and model_version), scored per forecast and per model. The spec's single performance_metrics
 * describe the model of the most recent forecast, over that model's forecasts only.
 */
export async function forecastResults(caller: Caller, query: { customer_id?: string; site_id?: string; from?: string; to?: string }) {
  const forecasts = await joinedForecasts(caller, query);
  const byModel = new Map<string, { forecasts: StoredForecastResult[]; points: Joined[] }>();
  for (const f of forecasts) {
    const group = byModel.get(modelKey(f.forecast)) ?? { forecasts: [], points: [] };
    group.forecasts.push(f.forecast);
    group.points.push(...f.points);
    byModel.set(modelKey(f.forecast), group);
  }
  const latest = forecasts.at(-1)?.forecast;
  const current = latest ? byModel.get(modelKey(latest))! : { forecasts: [], points: [] };
  const overall = roundHalfUpOrNull(accuracyOf(current.points), 4);
  const lastActual = Math.max(...current.points.filter((p) => p.actual !== null).map((p) => p.t));
  const scope = latest ? `model ${latest.model_version} of site ${latest.site_id}` : 'no model';
  return {
    results: {
      forecast_data: forecasts.flatMap(({ forecast, points }) =>
        points.map((p) => ({
          forecast_id: forecast.forecast_id,
          model_version: forecast.model_version,
          site_id: forecast.site_id,
          timestamp: new Date(p.t).toISOString(),
          predicted_value: p.predicted,
          actual_value: p.actual,
          accuracy: p.actual === null ? null : roundHalfUpOrNull(accuracyOf([p]), 4),
          confidence_interval: [p.lower, p.upper],
        })),
      ),
      performance_metrics: {
        overall_accuracy: overall,
        last_24h_accuracy: Number.isFinite(lastActual) ? roundHalfUpOrNull(accuracyOf(current.points.filter((p) => p.t > lastActual - 24 * HOUR_MS)), 4) : null,
        trending: trend(current.points),
        model_version: latest?.model_version ?? null,
        site_id: latest?.site_id ?? null,
        forecasts: current.forecasts.length,
        interval_hit_rate: roundHalfUpOrNull(intervalScore(current.points).hitRate, 4),
        scope: latest ? `the ${current.forecasts.length} stored forecast(s) of ${scope}, the model of the most recent forecast; every forecast and model is scored in forecasts and models` : 'no stored forecasts',
        accuracy_metric: ACCURACY_METRIC,
      },
      forecasts: forecasts.map(({ forecast, points }) => ({
        forecast_id: forecast.forecast_id,
        site_id: forecast.site_id,
        model_version: forecast.model_version,
        generated_at: forecast.generated_at,
        forecast_start: forecast.forecast_points[0]?.timestamp ?? null,
        ...scores(points),
      })),
      models: [...byModel.values()].map(({ forecasts: fs, points }) => ({
        site_id: fs[0].site_id,
        model_version: fs[0].model_version,
        forecasts: fs.length,
        forecast_ids: fs.map((f) => f.forecast_id),
        ...scores(points),
      })),
      business_insights: insights(current.points, overall, scope),
    },
  };
}

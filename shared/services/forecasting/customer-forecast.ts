/**
 * GET /forecast (SPEC 4.4): the site's production model forecasts from the site's latest data (historical
 * and nowcast uploads merged) and the weather forecast at the site; the result is stored as a forecast
 * result and `forecast_ready` is published. Without `site_id`, every site of the customer with a model.
 */
import { randomUUID } from 'node:crypto';
import { NotFound } from '../../errors';
import { ForecastInputError } from '../../domain/forecasting/regularise';
import { ACCURACY_METRIC } from '../../domain/training/accuracy';
import { forecastWithModel, SERVING_HISTORY_DAYS } from '../../domain/training/serve';
import type { ModelArtifact } from '../../domain/training/train';
import { forecastTiming } from '../../domain/forecasting/forecast-timing';
import { contextPvSystem } from '../../domain/forecasting/pv-physical';
import { publishEvent } from '../../events/event-bus';
import { saveForecastResult, type StoredForecastResult } from '../../store/forecast-results-repo';
import { listModelsOfCustomer, type ModelRecord } from '../../store/models-repo';
import { getSite, type SiteRecord } from '../../store/sites-repo';
import type { Caller } from '../../access/authentication';
import { withQuota } from '../../access/quota';
import { horizonWeather, usedVariables, type WeatherPlace, type WeatherUsed } from './forecast-weather';
import { loadSiteModelData, type SiteModelData } from './site-model-data';
import { findOwnedCustomer } from '../accounts/tenants';
import { loadArtifact } from '../training/training';
import { roundHalfUp } from '../../domain/rounding';
import { DAY_MS, HOUR_MS } from '../../domain/time';

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

// Artifacts never change once stored: keep the latest few in memory so a warm function skips the bucket.
const ARTIFACT_CACHE_SIZE = 50;
const artifacts = new Map<string, ModelArtifact>();

async function artifactOf(model: ModelRecord): Promise<ModelArtifact> {
  const cached = artifacts.get(model.model_id);
  if (cached) return cached;
  const artifact = await loadArtifact(model);
  if (artifacts.size >= ARTIFACT_CACHE_SIZE) artifacts.delete(artifacts.keys().next().value!);
  artifacts.set(model.model_id, artifact);
  return artifact;
}

/** Where the site's weather is asked for: its coordinates, at its PV system's elevation when known. */
function sitePlace(site: SiteRecord, data: SiteModelData): WeatherPlace | undefined {
  if (site.latitude === undefined || site.longitude === undefined) return undefined;
  const elevationM = contextPvSystem(data.context)?.elevationM;
  return { latitude: site.latitude, longitude: site.longitude, timezone: site.timezone, ...(data.pvSystemSource === 'set' && elevationM !== undefined ? { elevationM } : {}) };
}

/**
 * What the answer says about its weather: the horizon's source, and the variables the model read (those its
 * history carries from the uploads and the forecast gives ahead).
 */
function weatherUsed(horizon: Awaited<ReturnType<typeof horizonWeather>>, data: SiteModelData, trainedWithWeather: boolean): WeatherUsed {
  const variables = usedVariables(data.context.history, horizon.future);
  const notes = [horizon.note];
  if (!trainedWithWeather) notes.push('the model was trained without weather features: the forecast is from the history alone (the weather is shown per step)');
  else if (!data.context.history) notes.push('no weather is stored with the site\'s uploads: the forecast is from the history alone');
  else if (variables.length) notes.push('history: the weather stored with the site\'s uploads');
  if (data.pvSystemSource && variables.includes('ghi_wm2')) notes.push(`pv_physical: the site's ${data.pvSystemSource} PV specs`);
  const note = notes.filter(Boolean).join('; ');
  return { source: horizon.source, variables, ...(note ? { note } : {}) };
}

async function forecastSite(caller: Caller, site: SiteRecord, model: ModelRecord, horizonHours: number) {
  const artifact = await artifactOf(model);
  const last = site.coverage?.last ? Date.parse(site.coverage.last) : Date.now();
  let data;
  try {
    // Only the serving window is read, averaged to the step the model was trained at (domain/training/window.ts).
    data = await loadSiteModelData(site, { sinceMs: last - SERVING_HISTORY_DAYS * DAY_MS, weather: artifact.features.weather, stepMinutes: artifact.stepMinutes });
  } catch (err) {
    if (err instanceof ForecastInputError) throw new NotFound(`No usable recent data for site ${site.site_id}: ${err.message}`);
    throw err;
  }
  const { series } = data;
  const steps = Math.round((horizonHours * 60) / series.stepMinutes);
  const origin = series.t[series.t.length - 1];
  const times = Array.from({ length: steps }, (_, j) => origin + (j + 1) * series.stepMinutes * 60_000);
  const horizon = await horizonWeather(sitePlace(site, data), times);
  const weather = horizon.points;
  const future = horizon.future;
  const points = forecastWithModel(artifact, series, { ...data.context, ...(future && data.context.history ? { future } : {}) }, steps);
  const now = Date.now();
  const generatedAt = new Date(now).toISOString();
  const forecastId = `fc_${randomUUID()}`;
  const timing = forecastTiming(origin, times, now, `upload recent data for site ${site.site_id} (POST /upload_nowcast) for a forecast of the coming hours`);
  // The weather each step was forecast with (hourly values on the grid, see weatherExogenous).
  const conditions = (j: number) => ({ temperature_c: roundHalfUp(future?.temperature_c[j] ?? NaN, 1, 0), irradiance_w_m2: roundHalfUp(future?.ghi_wm2[j] ?? NaN, 1, 0), wind_speed_m_s: roundHalfUp(future?.wind_speed_ms[j] ?? NaN, 1, 0) });
  const stored: StoredForecastResult = {
    forecast_id: forecastId,
    account_id: caller.accountId,
    customer_id: site.customer_id,
    site_id: site.site_id,
    generated_at: generatedAt,
    model_id: model.model_id,
    model_name: model.model_name,
    model_version: model.model_version,
    horizon_hours: horizonHours,
    forecast_start: timing.forecast_start,
    data_age_hours: timing.data_age_hours,
    // Hours ahead of the forecast's origin, the last data point (data_age_hours before generation).
    forecast_points: points.map((p) => ({ timestamp: new Date(p.t).toISOString(), hour_ahead: Math.max(1, Math.ceil((p.t - origin) / HOUR_MS)), predicted_power_kw: roundHalfUp(p.value, 3, 0), lower_conf_kw: roundHalfUp(p.lower, 3, 0), upper_conf_kw: roundHalfUp(p.upper, 3, 0) })),
    metrics: model.metrics ?? { training_rmse: 0, validation_rmse: 0, mape_percent: 0, smape_percent: 0 },
    weather_context: {
      avg_temperature_c: roundHalfUp(mean(weather.map((w) => w.temperature_c)), 2, 0),
      avg_irradiance_wm2: roundHalfUp(mean(weather.map((w) => w.solar_radiation_wm2)), 2, 0),
      avg_wind_speed_ms: roundHalfUp(mean(weather.map((w) => w.wind_speed_ms)), 2, 0),
    },
  };
  await saveForecastResult(stored);
  await publishEvent('forecast_ready', caller.accountId, { forecast_id: forecastId, customer_id: site.customer_id, site_id: site.site_id, horizon_hours: horizonHours, model_version: model.model_version });
  return {
    forecast_id: forecastId,
    customer_id: site.customer_id,
    site_id: site.site_id,
    generated_at: generatedAt,
    horizon_hours: horizonHours,
    ...timing,
    forecasts: points.map((p, j) => ({ timestamp: new Date(p.t).toISOString(), predicted_power_kw: roundHalfUp(p.value, 3, 0), confidence_interval: { lower: roundHalfUp(p.lower, 3, 0), upper: roundHalfUp(p.upper, 3, 0) }, weather_conditions: conditions(j) })),
    metadata: {
      model_version: model.model_version,
      training_data_points: model.training_data_points ?? 0,
      model_accuracy: roundHalfUp(Math.min(1, Math.max(0, model.validation_accuracy ?? 0)), 4, 0),
      accuracy_metric: `${ACCURACY_METRIC}, on the model's held-out test days`,
    },
    weather: weatherUsed(horizon, data, artifact.features.weather),
  };
}

export async function customerForecast(caller: Caller, query: { customer_id: string; site_id?: string; horizon_hours: number }) {
  const customer = await findOwnedCustomer(caller, query.customer_id);
  if (query.site_id && (!customer || !(await getSite(query.customer_id, query.site_id)))) throw new NotFound('Site not found');
  const models = customer ? await listModelsOfCustomer(query.customer_id) : [];
  const production = models.filter((m) => m.status === 'production' && (!query.site_id || m.site_id === query.site_id)).sort((a, b) => a.site_id.localeCompare(b.site_id));
  if (!production.length) throw new NotFound('No model found for customer');
  return withQuota(caller, 'forecasts', async () => {
    const forecasts = [];
    for (const model of production) {
      const site = await getSite(model.customer_id, model.site_id);
      if (site) forecasts.push(await forecastSite(caller, site, model, query.horizon_hours));
    }
    if (!forecasts.length) throw new NotFound('Site not found');
    // One site: the generated forecast; all sites: the first site's at the top, every site's in site_forecasts.
    return query.site_id ? forecasts[0] : { ...forecasts[0], site_forecasts: forecasts };
  });
}

/** Stored forecast results (analytics table), newest last within a customer. */
import { listRecords, putItem } from './dynamo';
import { keys } from './keys';
import { archiveResult } from './result-archive';

export interface StoredForecastPoint {
  timestamp: string;
  hour_ahead: number;
  predicted_power_kw: number;
  lower_conf_kw: number;
  upper_conf_kw: number;
}

export interface StoredForecastResult {
  forecast_id: string;
  account_id: string;
  customer_id: string;
  site_id: string;
  generated_at: string;
  model_id: string;
  model_name: string;
  model_version: string;
  horizon_hours: number;
  /** The first forecast step, and how far the site's last data point lay before generated_at (hours). */
  forecast_start?: string;
  data_age_hours?: number;
  forecast_points: StoredForecastPoint[];
  metrics: { training_rmse: number; validation_rmse: number; mape_percent: number; smape_percent: number };
  weather_context: { avg_temperature_c: number; avg_irradiance_wm2: number; avg_wind_speed_ms: number };
}

export async function saveForecastResult(result: StoredForecastResult): Promise<void> {
  await putItem('analytics', { ...keys.forecastResult(result.customer_id, result.generated_at, result.forecast_id), ...result });
  await archiveResult('forecasts', result.customer_id, result.generated_at, result.forecast_id, result);
}

export async function listForecastResults(customerId: string): Promise<StoredForecastResult[]> {
  return listRecords<StoredForecastResult>('analytics', keys.forecastResultsOf(customerId));
}

/** Stored interpolation results (analytics table), per account, newest last. */
import { listRecords, putItem } from './dynamo';
import { keys } from './keys';
import { archiveResult } from './result-archive';

export interface StoredInterpolationResult {
  result_id: string;
  account_id: string;
  customer_id: string | null;
  site_id: string | null;
  processed_at: string;
  method: string;
  asset_ids: string[];
  data_window: { start: string; end: string };
  gap_statistics: { total_gaps: number; average_gap_minutes: number; largest_gap_minutes: number; coverage_improvement_percent: number };
  performance_metrics: { rmse_kw: number | null; mae_kw: number | null; r2_score: number | null; nrmse_percent: number | null };
  weather_features: { mean_temperature_c: number | null; mean_irradiance_wm2: number | null };
}

export async function saveInterpolationResult(result: StoredInterpolationResult): Promise<void> {
  await putItem('analytics', { ...keys.interpolationResult(result.account_id, result.processed_at, result.result_id), ...result });
  await archiveResult('interpolations', result.account_id, result.processed_at, result.result_id, result);
}

export async function listInterpolationResultsOf(accountId: string): Promise<StoredInterpolationResult[]> {
  return listRecords<StoredInterpolationResult>('analytics', keys.interpolationResultsOf(accountId));
}

/**
 * The model registry (analytics table). Training (a later capability) writes model records; the
 * foundation reads them for GET /forecast preconditions, /health and /api/system-status.
 */
import { queryIndex, queryPartition, withoutKeys } from './dynamo';
import { keys } from './keys';

export interface ModelRecord {
  model_id: string;
  customer_id: string;
  site_id: string;
  model_name: string;
  model_version: string;
  model_type: 'forecasting' | 'interpolation' | 'diagnostics';
  status: 'production' | 'challenger' | 'archived';
  last_trained_at: string;
  validation_accuracy?: number;
  requires_retraining?: boolean;
}

export async function listModelsOfCustomer(customerId: string): Promise<ModelRecord[]> {
  const { pk, skPrefix } = keys.modelsOfCustomer(customerId);
  return (await queryPartition('analytics', pk, { prefix: skPrefix })).map((i) => withoutKeys<ModelRecord>(i));
}

/** Production models of every customer, through the status index. */
export async function listProductionModels(): Promise<ModelRecord[]> {
  return (await queryIndex('analytics', keys.productionModelsIndex().gsi1pk)).map((i) => withoutKeys<ModelRecord>(i));
}

/**
 * The model registry (analytics table): one record per trained model version of a site. Production models
 * also carry the status index key, so /health and the marketplace find them without a scan.
 */
import { getItem, putItem, queryIndex, queryPartition, setFields, withoutKeys } from './dynamo';
import { keys } from './keys';

export type ModelStatus = 'production' | 'challenger' | 'archived';

export interface ModelRecord {
  model_id: string;
  customer_id: string;
  site_id: string;
  account_id?: string;
  version?: number;
  model_name: string;
  model_version: string;
  model_type: 'forecasting' | 'interpolation' | 'diagnostics';
  status: ModelStatus;
  last_trained_at: string;
  training_data_window?: { start: string; end: string };
  hyperparameters?: { layers: number[]; learning_rate: number; dropout: number; optimizer: string };
  training_metrics?: { epochs: number; train_loss: number; validation_loss: number; early_stop_epoch: number };
  artifact_locations?: { model: string; encoders: string; config: string };
  /** Accuracy on the held-out test days (1 - sum|error| / sum|actual|). */
  validation_accuracy?: number;
  /** Test-window metrics the forecasts report. */
  metrics?: { training_rmse: number; validation_rmse: number; mape_percent: number; smape_percent: number };
  training_data_points?: number;
  series_kind?: string;
  region?: string;
  requires_retraining?: boolean;
}

const indexKey = (status: ModelStatus) => (status === 'production' ? keys.productionModelsIndex() : {});

export async function saveModel(model: ModelRecord & { version: number }): Promise<void> {
  await putItem('analytics', { ...keys.model(model.customer_id, model.site_id, model.version), ...indexKey(model.status), gsi1sk: model.model_id, ...model });
}

export async function setModelStatus(model: ModelRecord & { version: number }, status: ModelStatus): Promise<void> {
  const key = keys.model(model.customer_id, model.site_id, model.version);
  if (status === 'production') await setFields('analytics', key, { status, ...keys.productionModelsIndex(), gsi1sk: model.model_id });
  else await setFields('analytics', key, { status }, { remove: ['gsi1pk', 'gsi1sk'] });
}

export async function getModel(customerId: string, siteId: string, version: number): Promise<ModelRecord | undefined> {
  const item = await getItem('analytics', keys.model(customerId, siteId, version));
  return item && withoutKeys<ModelRecord>(item);
}

export async function listModelsOfCustomer(customerId: string): Promise<ModelRecord[]> {
  const { pk, skPrefix } = keys.modelsOfCustomer(customerId);
  return (await queryPartition('analytics', pk, { prefix: skPrefix })).map((i) => withoutKeys<ModelRecord>(i));
}

/** A site's model versions, oldest first. */
export async function listModelsOfSite(customerId: string, siteId: string): Promise<(ModelRecord & { version: number })[]> {
  const { pk, skPrefix } = keys.modelsOfSite(customerId, siteId);
  return (await queryPartition('analytics', pk, { prefix: skPrefix })).map((i) => withoutKeys<ModelRecord & { version: number }>(i));
}

/** Production models of every customer, through the status index. */
export async function listProductionModels(): Promise<ModelRecord[]> {
  return (await queryIndex('analytics', keys.productionModelsIndex().gsi1pk)).map((i) => withoutKeys<ModelRecord>(i));
}

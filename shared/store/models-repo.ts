/**
 * The model registry (analytics table): one record per trained model version of a site. Production models
 * also carry the status index key, so /health and the marketplace find them without a scan.
 */
import { getRecord, listIndexed, listRecords, putItem, setFields } from './dynamo';
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
  hyperparameters?: { layers: number[]; learning_rate: number; dropout: number; optimizer: string; members?: string[]; ridge_lambda?: number | null };
  training_metrics?: { epochs: number; train_loss: number; validation_loss: number; early_stop_epoch: number; cross_validation_folds?: number };
  artifact_locations?: { model: string; encoders: string; config: string };
  /** Accuracy on the held-out test days (1 - sum|error| / sum|actual|). */
  validation_accuracy?: number;
  /** Test-window metrics the forecasts report. */
  metrics?: { training_rmse: number; validation_rmse: number; mape_percent: number; smape_percent: number };
  training_data_points?: number;
  series_kind?: string;
  region?: string;
  requires_retraining?: boolean;
  /** The production model this one replaced when it went into production: what a rollback restores. */
  previous_production_model_id?: string;
  /** Every registry change of this model: trained, promoted, rolled back, archived; who, when, from which version. */
  status_history?: ModelStatusChange[];
}

export interface ModelStatusChange {
  action: 'trained' | 'promoted' | 'rolled_back' | 'archived';
  status: ModelStatus;
  at: string;
  /** The e-mail of the account that asked, or `training` for the trainer's own champion/challenger decision. */
  by: string;
  /** The site's production version before the change (null: there was none). */
  from_production_version: string | null;
  reason?: string;
}

const indexKey = (status: ModelStatus) => (status === 'production' ? keys.productionModelsIndex() : {});

export async function saveModel(model: ModelRecord & { version: number }): Promise<void> {
  await putItem('analytics', { ...keys.model(model.customer_id, model.site_id, model.version), ...indexKey(model.status), gsi1sk: model.model_id, ...model });
}

/**
 * Moves a model from status `from` to `change.status` and appends `change` to its history, only while it still
 * has status `from` (false otherwise: another change got there first). Production models carry the status index key.
 */
export async function changeModelStatus(model: ModelRecord & { version: number }, from: ModelStatus, change: ModelStatusChange, extra: Pick<ModelRecord, 'previous_production_model_id'> = {}): Promise<boolean> {
  const key = keys.model(model.customer_id, model.site_id, model.version);
  const fields = { status: change.status, status_history: [...(model.status_history ?? []), change], ...extra };
  const guard = { condition: 'attribute_exists(pk) AND #status = :from', conditionNames: { '#status': 'status' }, conditionValues: { ':from': from } };
  if (change.status === 'production') return setFields('analytics', key, { ...fields, ...keys.productionModelsIndex(), gsi1sk: model.model_id }, guard);
  return setFields('analytics', key, fields, { ...guard, remove: ['gsi1pk', 'gsi1sk'] });
}

export async function getModel(customerId: string, siteId: string, version: number): Promise<ModelRecord | undefined> {
  return getRecord<ModelRecord>('analytics', keys.model(customerId, siteId, version));
}

export async function listModelsOfCustomer(customerId: string): Promise<ModelRecord[]> {
  return listRecords<ModelRecord>('analytics', keys.modelsOfCustomer(customerId));
}

/** A site's model versions, oldest first. */
export async function listModelsOfSite(customerId: string, siteId: string): Promise<(ModelRecord & { version: number })[]> {
  return listRecords<ModelRecord & { version: number }>('analytics', keys.modelsOfSite(customerId, siteId));
}

/** Production models of every customer, through the status index. */
export async function listProductionModels(): Promise<ModelRecord[]> {
  return listIndexed<ModelRecord>('analytics', keys.productionModelsIndex().gsi1pk);
}

/** The model registry's read side: POST /terminal/ml-models and GET /api/models/marketplace. */
import { listModelsOfCustomer, listProductionModels, type ModelRecord } from '../store/models-repo';
import { listCustomers } from '../store/tenants-repo';
import type { Caller } from './authentication';
import { findOwnedCustomer } from './tenants';

/** The spec's model record (internal ids and bookkeeping left out). */
const modelRecord = (m: ModelRecord) => ({
  model_id: m.model_id,
  customer_id: m.customer_id,
  site_id: m.site_id,
  model_name: m.model_name,
  model_version: m.model_version,
  model_type: m.model_type,
  status: m.status,
  last_trained_at: m.last_trained_at,
  training_data_window: m.training_data_window,
  hyperparameters: m.hyperparameters,
  training_metrics: m.training_metrics,
  artifact_locations: m.artifact_locations,
  validation_accuracy: m.validation_accuracy,
});

/** POST /terminal/ml-models: the customer's models, or every model of the account's customers. */
export async function listModelRecords(caller: Caller, customerId?: string) {
  const customers = customerId ? ((await findOwnedCustomer(caller, customerId)) ? [customerId] : []) : (await listCustomers(caller.accountId)).map((c) => c.customer_id);
  const models = (await Promise.all(customers.map(listModelsOfCustomer))).flat().filter((m) => m.training_metrics);
  return { success: true, model_metrics: models.map(modelRecord), count: models.length };
}

const USE_CASES: Record<string, string> = { solar: 'solar generation forecasting', wind: 'wind generation forecasting', load: 'load forecasting', price: 'price forecasting', generic: 'time-series forecasting' };

/**
 * GET /api/models/marketplace: the models in production here, with their accuracy measured on held-out
 * days. Customer and site ids stay private; a model is offered as its configuration (members, weights,
 * features), which is what another site would be trained with.
 */
export async function marketplace() {
  const models = await listProductionModels();
  return {
    available_models: models
      .filter((m) => m.training_metrics)
      .sort((a, b) => (b.validation_accuracy ?? 0) - (a.validation_accuracy ?? 0))
      .map((m) => ({
        model_id: m.model_id,
        name: `${m.series_kind ?? 'generic'} forecaster ${m.model_version}`,
        use_case: USE_CASES[m.series_kind ?? 'generic'] ?? USE_CASES.generic,
        region: m.region ?? 'unspecified',
        price: 'included in every tier with training',
        accuracy: m.validation_accuracy ?? 0,
      })),
  };
}

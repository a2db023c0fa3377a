/**
 * The model registry: POST /terminal/ml-models and GET /api/models/marketplace read it; POST
 * /api/models/{model_id}/promote and /rollback steer it (professional and enterprise tiers, route rows).
 */
import { config } from '../../config';
import { Conflict, NotFound } from '../../errors';
import { limitsOf, TIERS } from '../../domain/accounts/tiers';
import { ACCURACY_METRIC } from '../../domain/training/accuracy';
import { changeModelStatus, listModelsOfCustomer, listModelsOfSite, listProductionModels, type ModelRecord, type ModelStatusChange } from '../../store/models-repo';
import { listCustomers } from '../../store/tenants-repo';
import type { Caller } from '../../access/authentication';
import { findOwnedCustomer } from '../accounts/tenants';

type VersionedModel = ModelRecord & { version: number };

/**
 * The spec's model record (internal ids and bookkeeping left out). The members are statistical and fitted in
 * closed form: the spec's neural-network fields keep their types with what is true of such a model (no layers,
 * no gradient steps, so no learning rate or dropout: named in `not_applicable`), and the cross-validation folds
 * are reported as folds, never as epochs (README, "Training and the model registry").
 */
export const modelRecord = (m: ModelRecord) => {
  const metrics = m.training_metrics;
  // Records written before folds were named kept the fold count in `epochs`.
  const folds = metrics ? (metrics.cross_validation_folds ?? metrics.epochs) : undefined;
  return {
    model_id: m.model_id,
    customer_id: m.customer_id,
    site_id: m.site_id,
    model_name: m.model_name,
    model_version: m.model_version,
    model_type: m.model_type,
    status: m.status,
    last_trained_at: m.last_trained_at,
    training_data_window: m.training_data_window,
    hyperparameters: m.hyperparameters && { ...m.hyperparameters, layers: [], learning_rate: 0, dropout: 0, not_applicable: ['layers', 'learning_rate', 'dropout'] },
    training_metrics: metrics && {
      // One closed-form fit over the training window: one pass, nothing stopped early.
      epochs: 1,
      early_stop_epoch: 1,
      cross_validation_folds: folds,
      train_loss: metrics.train_loss,
      validation_loss: metrics.validation_loss,
      loss_metric: 'mean squared error, kW²: train_loss over the cross-validation folds, validation_loss on the held-out test days',
    },
    artifact_locations: m.artifact_locations,
    validation_accuracy: m.validation_accuracy ?? null,
    accuracy_metric: ACCURACY_METRIC,
    ...(m.metrics ? { validation_mape_percent: m.metrics.mape_percent, validation_rmse_kw: m.metrics.validation_rmse } : {}),
    previous_production_model_id: m.previous_production_model_id ?? null,
    status_history: m.status_history ?? [],
  };
};

/** POST /terminal/ml-models: the customer's models, or every model of the account's customers. */
export async function listModelRecords(caller: Caller, customerId?: string) {
  const customers = customerId ? ((await findOwnedCustomer(caller, customerId)) ? [customerId] : []) : (await listCustomers(caller.accountId)).map((c) => c.customer_id);
  const models = (await Promise.all(customers.map(listModelsOfCustomer))).flat().filter((m) => m.training_metrics);
  return { success: true, model_metrics: models.map(modelRecord), count: models.length };
}

/** The caller's model and its site's versions; another account's model is reported exactly like a missing one. */
async function ownedModel(caller: Caller, modelId: string): Promise<{ model: VersionedModel; site: VersionedModel[] }> {
  for (const customer of await listCustomers(caller.accountId)) {
    const found = (await listModelsOfCustomer(customer.customer_id)).find((m) => m.model_id === modelId);
    if (!found) continue;
    const site = await listModelsOfSite(found.customer_id, found.site_id);
    const model = site.find((m) => m.model_id === modelId);
    if (model) return { model, site };
  }
  throw new NotFound('Model not found');
}

const change = (caller: Caller, action: ModelStatusChange['action'], status: ModelStatusChange['status'], production: ModelRecord | undefined, reason: string): ModelStatusChange => ({
  action,
  status,
  at: new Date().toISOString(),
  by: caller.email,
  from_production_version: production?.model_version ?? null,
  reason,
});

const retry = () => new Conflict('The site\'s models changed while this request ran: read them again (POST /terminal/ml-models) and retry');

/**
 * POST /api/models/{model_id}/promote: the named challenger (or archived model) becomes the site's production
 * model and the previous production model is archived; a rollback of the new one restores it.
 */
export async function promoteModel(caller: Caller, modelId: string) {
  const { model, site } = await ownedModel(caller, modelId);
  if (model.status === 'production') throw new Conflict(`Model ${model.model_version} is already the production model of site ${model.site_id}`);
  const productions = site.filter((m) => m.status === 'production');
  const previous = productions.at(-1);
  const reason = `promoted by request over ${previous ? `production ${previous.model_version}` : 'no production model'}`;
  if (!(await changeModelStatus(model, model.status, change(caller, 'promoted', 'production', previous, reason), { previous_production_model_id: previous?.model_id }))) throw retry();
  for (const old of productions) await changeModelStatus(old, 'production', change(caller, 'archived', 'archived', previous, `replaced by ${model.model_version} (promoted by request)`));
  return {
    message: `Model ${model.model_version} is now the production model of site ${model.site_id}${previous ? `; ${previous.model_version} is archived (POST /api/models/${model.model_id}/rollback restores it)` : ''}`,
    model: modelRecord(await reread(model)),
    previous_production: previous ? modelRecord(await reread(previous)) : null,
  };
}

/**
 * POST /api/models/{model_id}/rollback: the named production model is archived and the model it replaced (its
 * `previous_production_model_id`; for models registered before that was kept, the site's newest archived
 * earlier version) is production again.
 */
export async function rollbackModel(caller: Caller, modelId: string) {
  const { model, site } = await ownedModel(caller, modelId);
  if (model.status !== 'production') throw new Conflict(`Model ${model.model_version} is not in production (status ${model.status}): only the production model can be rolled back`);
  const target = model.previous_production_model_id
    ? site.find((m) => m.model_id === model.previous_production_model_id)
    : site.filter((m) => m.status === 'archived' && m.version < model.version).at(-1);
  if (!target) throw new Conflict(`Model ${model.model_version} replaced no earlier production model: there is nothing to roll back to`);
  if (!(await changeModelStatus(target, target.status, change(caller, 'rolled_back', 'production', model, `restored by a rollback of ${model.model_version}`)))) throw retry();
  await changeModelStatus(model, 'production', change(caller, 'archived', 'archived', model, `rolled back to ${target.model_version}`));
  return {
    message: `Model ${target.model_version} is the production model of site ${model.site_id} again; ${model.model_version} is archived`,
    model: modelRecord(await reread(target)),
    rolled_back: modelRecord(await reread(model)),
  };
}

async function reread(model: VersionedModel): Promise<VersionedModel> {
  return (await listModelsOfSite(model.customer_id, model.site_id)).find((m) => m.model_id === model.model_id) ?? model;
}

const USE_CASES: Record<string, string> = { solar: 'solar generation forecasting', wind: 'wind generation forecasting', load: 'load forecasting', price: 'price forecasting', generic: 'time-series forecasting' };

/**
 * What a marketplace model costs: nothing apart from training, which the tiers' monthly training quotas
 * meter (SPEC "Limits"); the text is built from those quotas, so it changes with them.
 */
export function marketplacePrice(enterpriseQuota = 0): string {
  const tiers = TIERS.map((tier) => ({ tier, limit: limitsOf(tier, enterpriseQuota).model_training_per_month })).filter((t) => t.limit !== 0);
  const quotas = tiers.map((t) => `${t.tier} (${t.limit === null ? 'unlimited' : `${t.limit}`} training jobs a month)`).join(' and ');
  return `no separate charge: trained for your site within the monthly training quota of the ${quotas} tiers`;
}

/**
 * GET /api/models/marketplace: the models in production here, with their accuracy measured on held-out
 * days. Customer and site ids stay private; a model is offered as its configuration (members, weights,
 * features), which is what another site would be trained with.
 */
export async function marketplace(enterpriseQuota = config().ENTERPRISE_QUOTA) {
  const models = await listProductionModels();
  const price = marketplacePrice(enterpriseQuota);
  return {
    available_models: models
      .filter((m) => m.training_metrics && typeof m.validation_accuracy === 'number')
      .sort((a, b) => b.validation_accuracy! - a.validation_accuracy!)
      .map((m) => ({
        model_id: m.model_id,
        name: `${m.series_kind ?? 'generic'} forecaster ${m.model_version}`,
        use_case: USE_CASES[m.series_kind ?? 'generic'] ?? USE_CASES.generic,
        region: m.region ?? 'unspecified',
        price,
        accuracy: m.validation_accuracy!,
      })),
    accuracy_metric: ACCURACY_METRIC,
  };
}

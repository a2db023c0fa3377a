import { apiHandler, byRoute } from '../shared/http/api-handler';
import { ModelPath } from '../shared/schemas/training';
import { promoteModel, rollbackModel } from '../shared/services/model-registry';

// Professional and enterprise tiers (the route rows); each change is recorded on the model's status_history.
export const handler = byRoute({
  'model-promote': apiHandler('model-promote', { path: ModelPath }, ({ caller, path }) => promoteModel(caller, path.model_id)),
  'model-rollback': apiHandler('model-rollback', { path: ModelPath }, ({ caller, path }) => rollbackModel(caller, path.model_id)),
});

import { serve } from '../shared/http/api-handler';
import { TRAINING_ROUTES } from '../shared/routes/training';
import { promoteModel, rollbackModel } from '../shared/services/training/model-registry';

// Professional and enterprise tiers (the route rows); each change is recorded on the model's status_history.
export const handler = serve(TRAINING_ROUTES, 'change-model-status', {
  'model-promote': ({ caller, path }) => promoteModel(caller, path.model_id),
  'model-rollback': ({ caller, path }) => rollbackModel(caller, path.model_id),
});

import { serve } from '../shared/http/api-handler';
import { TRAINING_ROUTES } from '../shared/routes/training';
import { listModelRecords } from '../shared/services/training/model-registry';

export const handler = serve(TRAINING_ROUTES, 'terminal-ml-models', { 'terminal-ml-models': ({ caller, body }) => listModelRecords(caller, body.customer_id) });

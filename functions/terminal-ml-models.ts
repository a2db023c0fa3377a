import { serve } from '../shared/http/api-handler';
import { listModelRecords } from '../shared/services/model-registry';

export const handler = serve('terminal-ml-models', { 'terminal-ml-models': ({ caller, body }) => listModelRecords(caller, body.customer_id) });

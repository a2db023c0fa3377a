import { serve } from '../shared/http/api-handler';
import { OPERATIONS_ROUTES } from '../shared/routes/operations';
import { listOodaSummaries } from '../shared/services/operations/observe-orient';

export const handler = serve(OPERATIONS_ROUTES, 'terminal-ooda', { 'terminal-ooda': ({ caller, body }) => listOodaSummaries(caller.accountId, body.customer_id) });

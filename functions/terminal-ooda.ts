import { serve } from '../shared/http/api-handler';
import { listOodaSummaries } from '../shared/services/observe-orient';

export const handler = serve('terminal-ooda', { 'terminal-ooda': ({ caller, body }) => listOodaSummaries(caller.accountId, body.customer_id) });

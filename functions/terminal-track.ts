import { serve } from '../shared/http/api-handler';
import { OPERATIONS_ROUTES } from '../shared/routes/operations';
import { listTracking, subscribe } from '../shared/services/operations/maintenance';

export const handler = serve(OPERATIONS_ROUTES, 'terminal-track', {
  'terminal-track': ({ caller, body }) => (body.action === 'list' ? listTracking(caller.accountId, body.order_id) : subscribe(caller.accountId, body)),
});

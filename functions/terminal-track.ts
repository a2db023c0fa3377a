import { serve } from '../shared/http/api-handler';
import { listTracking, subscribe } from '../shared/services/maintenance';

export const handler = serve('terminal-track', {
  'terminal-track': ({ caller, body }) => (body.action === 'list' ? listTracking(caller.accountId, body.order_id) : subscribe(caller.accountId, body)),
});

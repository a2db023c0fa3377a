import { apiHandler } from '../shared/http/api-handler';
import { requireFields } from '../shared/http/validation';
import { checkAction, TerminalActionRequest } from '../shared/schemas/terminal';
import { listTracking, subscribe } from '../shared/services/maintenance';

export const handler = apiHandler('terminal-track', { body: TerminalActionRequest }, async ({ caller, body }) => {
  const action = checkAction(body.action, ['subscribe', 'list']);
  requireFields(body, ['order_id']);
  return action === 'list' ? listTracking(caller.accountId, String(body.order_id).trim()) : subscribe(caller.accountId, body);
});

import { apiHandler } from '../shared/http/api-handler';
import { requireFields } from '../shared/http/validation';
import { TerminalCustomerRequest } from '../shared/schemas/terminal';
import { listOodaSummaries } from '../shared/services/observe-orient';

export const handler = apiHandler('terminal-ooda', { body: TerminalCustomerRequest }, ({ caller, body }) => {
  requireFields(body, ['customer_id']);
  return listOodaSummaries(caller.accountId, body.customer_id!.trim());
});

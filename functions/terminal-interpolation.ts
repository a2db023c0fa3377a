import { apiHandler } from '../shared/http/api-handler';
import { requireFields } from '../shared/http/validation';
import { TerminalCustomerRequest } from '../shared/schemas/terminal';
import { listInterpolationResults } from '../shared/services/interpolation';

export const handler = apiHandler('terminal-interpolation', { body: TerminalCustomerRequest }, ({ caller, body }) => {
  requireFields(body, ['customer_id']);
  return listInterpolationResults(caller, body.customer_id!.trim());
});

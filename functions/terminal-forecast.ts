import { apiHandler } from '../shared/http/api-handler';
import { requireFields } from '../shared/http/validation';
import { TerminalCustomerRequest } from '../shared/schemas/terminal';
import { terminalForecasts } from '../shared/services/forecast-results';

export const handler = apiHandler('terminal-forecast', { body: TerminalCustomerRequest }, ({ caller, body }) => {
  requireFields(body, ['customer_id']);
  return terminalForecasts(caller, body.customer_id!.trim());
});

import { apiHandler } from '../shared/http/api-handler';
import { TerminalCustomerRequest } from '../shared/schemas/terminal';
import { listModelRecords } from '../shared/services/model-registry';

export const handler = apiHandler('terminal-ml-models', { body: TerminalCustomerRequest }, ({ caller, body }) => listModelRecords(caller, body.customer_id?.trim() || undefined));

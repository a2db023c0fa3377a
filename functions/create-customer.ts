import { apiHandler } from '../shared/http/api-handler';
import { CreateCustomerRequest } from '../shared/schemas/accounts';
import { createCustomer } from '../shared/services/tenants';

export const handler = apiHandler('create-customer', { body: CreateCustomerRequest }, ({ caller, body }) => createCustomer(caller, body));

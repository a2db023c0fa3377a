import { apiHandler } from '../shared/http/api-handler';
import { CreateClientRequest } from '../shared/schemas/accounts';
import { createClient } from '../shared/services/tenants';

export const handler = apiHandler('create-client', { body: CreateClientRequest }, ({ caller, body }) => createClient(caller, body));

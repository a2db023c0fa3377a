import { serve } from '../shared/http/api-handler';
import { createCustomer } from '../shared/services/tenants';

export const handler = serve('create-customer', { 'create-customer': ({ caller, body }) => createCustomer(caller, body) });

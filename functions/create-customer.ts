import { serve } from '../shared/http/api-handler';
import { FOUNDATION_ROUTES } from '../shared/routes/foundation';
import { createCustomer } from '../shared/services/accounts/tenants';

export const handler = serve(FOUNDATION_ROUTES, 'create-customer', { 'create-customer': ({ caller, body }) => createCustomer(caller, body) });

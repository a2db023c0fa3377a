import { serve } from '../shared/http/api-handler';
import { FOUNDATION_ROUTES } from '../shared/routes/foundation';
import { createClient } from '../shared/services/accounts/tenants';

export const handler = serve(FOUNDATION_ROUTES, 'create-client', { 'create-client': ({ caller, body }) => createClient(caller, body) });

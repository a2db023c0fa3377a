import { serve } from '../shared/http/api-handler';
import { FOUNDATION_ROUTES } from '../shared/routes/foundation';
import { createDevice } from '../shared/services/accounts/tenants';

export const handler = serve(FOUNDATION_ROUTES, 'create-device', { 'create-device': ({ caller, body }) => createDevice(caller, body) });

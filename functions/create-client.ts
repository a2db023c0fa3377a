import { serve } from '../shared/http/api-handler';
import { createClient } from '../shared/services/tenants';

export const handler = serve('create-client', { 'create-client': ({ caller, body }) => createClient(caller, body) });

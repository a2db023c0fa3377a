import { serve } from '../shared/http/api-handler';
import { createDevice } from '../shared/services/tenants';

export const handler = serve('create-device', { 'create-device': ({ caller, body }) => createDevice(caller, body) });

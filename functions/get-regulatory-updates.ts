import { serve } from '../shared/http/api-handler';
import { listUpdates } from '../shared/services/regulatory-updates';

export const handler = serve('get-regulatory-updates', { 'regulatory-updates': ({ query }) => listUpdates(query) });

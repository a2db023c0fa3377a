import { serve } from '../shared/http/api-handler';
import { POLICY_ROUTES } from '../shared/routes/policy';
import { listUpdates } from '../shared/services/regulatory/regulatory-updates';

export const handler = serve(POLICY_ROUTES, 'get-regulatory-updates', { 'regulatory-updates': ({ query }) => listUpdates(query) });

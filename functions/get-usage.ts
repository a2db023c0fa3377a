import { serve } from '../shared/http/api-handler';
import { FOUNDATION_ROUTES } from '../shared/routes/foundation';
import { usageOf } from '../shared/services/accounts/accounts';

export const handler = serve(FOUNDATION_ROUTES, 'get-usage', { usage: ({ caller }) => usageOf(caller) });

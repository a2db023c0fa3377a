import { serve } from '../shared/http/api-handler';
import { usageOf } from '../shared/services/accounts';

export const handler = serve('get-usage', { usage: ({ caller }) => usageOf(caller) });

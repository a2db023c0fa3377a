import { serve } from '../shared/http/api-handler';
import { optimizeDispatch } from '../shared/services/dispatch';

export const handler = serve('optimize-dispatch', { 'dispatch-optimization': ({ body }) => optimizeDispatch(body) });

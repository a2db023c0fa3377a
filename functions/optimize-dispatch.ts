import { serve } from '../shared/http/api-handler';
import { DISPATCH_ROUTES } from '../shared/routes/dispatch';
import { optimizeDispatch } from '../shared/services/dispatch/dispatch';

export const handler = serve(DISPATCH_ROUTES, 'optimize-dispatch', { 'dispatch-optimization': ({ body }) => optimizeDispatch(body) });

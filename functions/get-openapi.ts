import { serve } from '../shared/http/api-handler';
import { BATCH_EDGE_ROUTES } from '../shared/routes/batch-edge';
import { servedDocument } from '../shared/openapi/served-document';

export const handler = serve(BATCH_EDGE_ROUTES, 'get-openapi', { openapi: async ({ event, route }) => servedDocument(event, route) });

import { serve } from '../shared/http/api-handler';
import { servedDocument } from '../shared/openapi/served-document';

export const handler = serve('get-openapi', { openapi: async ({ event, route }) => servedDocument(event, route) });

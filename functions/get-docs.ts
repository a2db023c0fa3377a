import { serve } from '../shared/http/api-handler';
import { BATCH_EDGE_ROUTES } from '../shared/routes/batch-edge';
import { docsFile, servesStaticFile } from '../shared/openapi/docs-page';

export const handler = serve(BATCH_EDGE_ROUTES, 'get-docs', { docs: ({ query }) => docsFile(query.asset) }, { use: [servesStaticFile()] });

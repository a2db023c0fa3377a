import { serve } from '../shared/http/api-handler';
import { docsFile, servesStaticFile } from '../shared/openapi/docs-page';

export const handler = serve('get-docs', { docs: ({ query }) => docsFile(query.asset) }, { use: [servesStaticFile()] });

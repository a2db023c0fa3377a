import { publicHandler } from '../shared/http/api-handler';
import { docsFile, DocsQuery, servesStaticFile } from '../shared/openapi/docs-page';

export const handler = publicHandler('docs', { query: DocsQuery }, ({ query }) => docsFile(query.asset)).use(servesStaticFile());

import { publicHandler } from '../shared/http/api-handler';
import { servedDocument } from '../shared/openapi/served-document';

export const handler = publicHandler('openapi', {}, async ({ event, route }) => servedDocument(event, route));

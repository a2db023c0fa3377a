import { apiHandler } from '../shared/http/api-handler';
import { RegulatoryUpdatesQuery } from '../shared/schemas/regulatory';
import { listUpdates } from '../shared/services/regulatory-updates';

export const handler = apiHandler('regulatory-updates', { query: RegulatoryUpdatesQuery }, ({ query }) => listUpdates(query));

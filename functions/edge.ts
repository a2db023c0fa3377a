import { apiHandler, byRoute } from '../shared/http/api-handler';
import { EdgeSettings } from '../shared/edge/edge-settings';
import { configureEdge, edgeStatus } from '../shared/services/edge';

// Edge-only routes (SPEC 4.1, {edge_base_url}); served when the runtime runs as an edge node (EDGE=1).
export const handler = byRoute({
  'edge-configure': apiHandler('edge-configure', { body: EdgeSettings.partial() }, async ({ body }) => configureEdge(body)),
  'edge-status': apiHandler('edge-status', {}, () => edgeStatus()),
});

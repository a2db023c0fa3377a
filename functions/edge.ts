import { serve } from '../shared/http/api-handler';
import { configureEdge, edgeStatus } from '../shared/services/edge';

// Edge-only routes (SPEC 4.1, {edge_base_url}); served when the runtime runs as an edge node (EDGE=1).
export const handler = serve('edge', {
  'edge-configure': async ({ body }) => configureEdge(body),
  'edge-status': () => edgeStatus(),
});

import { serve } from '../shared/http/api-handler';
import { BATCH_EDGE_ROUTES } from '../shared/routes/batch-edge';
import { configureEdge, edgeStatus } from '../shared/services/edge/edge';

// Edge-only routes (SPEC 4.1, {edge_base_url}); served when the runtime runs as an edge node (EDGE=1).
export const handler = serve(BATCH_EDGE_ROUTES, 'edge', {
  'edge-configure': async ({ body }) => configureEdge(body),
  'edge-status': () => edgeStatus(),
});

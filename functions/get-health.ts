import { Reply, serve } from '../shared/http/api-handler';
import { FOUNDATION_ROUTES } from '../shared/routes/foundation';
import { healthReport } from '../shared/services/platform/health';

export const handler = serve(FOUNDATION_ROUTES, 'get-health', {
  health: async () => {
    const { healthy, body } = await healthReport();
    return healthy ? body : new Reply(503, body);
  },
});

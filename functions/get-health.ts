import { Reply, serve } from '../shared/http/api-handler';
import { healthReport } from '../shared/services/health';

export const handler = serve('get-health', {
  health: async () => {
    const { healthy, body } = await healthReport();
    return healthy ? body : new Reply(503, body);
  },
});

/** POST /api/dispatch/mpc and GET /api/dispatch/mpc/{device_id} (ARCHITECTURE 9). */
import { serve } from '../shared/http/api-handler';
import { DISPATCH_ROUTES } from '../shared/routes/dispatch';
import { mpcPlanOf, runMpc } from '../shared/services/dispatch/mpc';

export const handler = serve(DISPATCH_ROUTES, 'dispatch-mpc', {
  'dispatch-mpc': ({ caller, body }) => runMpc(caller, body),
  'dispatch-mpc-plan': ({ caller, path }) => mpcPlanOf(caller, path.device_id),
});

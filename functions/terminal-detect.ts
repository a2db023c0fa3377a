import { serve } from '../shared/http/api-handler';
import { OPERATIONS_ROUTES } from '../shared/routes/operations';
import { ownedAsset } from '../shared/services/operations/assets';
import { listDetections, runDetection } from '../shared/services/operations/observe-orient';

export const handler = serve(OPERATIONS_ROUTES, 'terminal-detect', {
  'terminal-detect': async ({ caller, body }) =>
    body.action === 'list' ? listDetections(caller.accountId, body.asset_id) : runDetection(caller.accountId, await ownedAsset(caller, body.asset_id)),
});

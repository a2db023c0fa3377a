import { serve } from '../shared/http/api-handler';
import { ownedAsset } from '../shared/services/assets';
import { listDetections, runDetection } from '../shared/services/observe-orient';

export const handler = serve('terminal-detect', {
  'terminal-detect': async ({ caller, body }) =>
    body.action === 'list' ? listDetections(caller.accountId, body.asset_id) : runDetection(caller.accountId, await ownedAsset(caller, body.asset_id)),
});

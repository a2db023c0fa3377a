import { serve } from '../shared/http/api-handler';
import { OPERATIONS_ROUTES } from '../shared/routes/operations';
import { ownedAsset } from '../shared/services/operations/assets';
import { createSchedule, listSchedules } from '../shared/services/operations/maintenance';

export const handler = serve(OPERATIONS_ROUTES, 'terminal-schedule', {
  'terminal-schedule': async ({ caller, body }) => {
    const asset = await ownedAsset(caller, body.asset_id);
    return body.action === 'list' ? listSchedules(asset) : createSchedule(asset, body);
  },
});

import { serve } from '../shared/http/api-handler';
import { ownedAsset } from '../shared/services/assets';
import { createSchedule, listSchedules } from '../shared/services/maintenance';

export const handler = serve('terminal-schedule', {
  'terminal-schedule': async ({ caller, body }) => {
    const asset = await ownedAsset(caller, body.asset_id);
    return body.action === 'list' ? listSchedules(asset) : createSchedule(asset, body);
  },
});

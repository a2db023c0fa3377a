import { serve } from '../shared/http/api-handler';
import { OPERATIONS_ROUTES } from '../shared/routes/operations';
import { ownedAsset } from '../shared/services/operations/assets';
import { createBom, listBoms } from '../shared/services/operations/maintenance';

export const handler = serve(OPERATIONS_ROUTES, 'terminal-bom', {
  'terminal-bom': async ({ caller, body }) => {
    const asset = await ownedAsset(caller, body.asset_id);
    return body.action === 'list' ? listBoms(asset) : createBom(asset, body);
  },
});

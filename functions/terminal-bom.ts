import { serve } from '../shared/http/api-handler';
import { ownedAsset } from '../shared/services/assets';
import { createBom, listBoms } from '../shared/services/maintenance';

export const handler = serve('terminal-bom', {
  'terminal-bom': async ({ caller, body }) => {
    const asset = await ownedAsset(caller, body.asset_id);
    return body.action === 'list' ? listBoms(asset) : createBom(asset, body);
  },
});

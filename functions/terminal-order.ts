import { serve } from '../shared/http/api-handler';
import { ownedAsset } from '../shared/services/assets';
import { createOrder, listOrders, updateOrder } from '../shared/services/maintenance';

export const handler = serve('terminal-order', {
  'terminal-order': async ({ caller, body }) => {
    if (body.action === 'update') return updateOrder(caller.accountId, body);
    const asset = await ownedAsset(caller, body.asset_id);
    return body.action === 'list' ? listOrders(asset) : createOrder(asset, body);
  },
});

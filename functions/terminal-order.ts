import { serve } from '../shared/http/api-handler';
import { OPERATIONS_ROUTES } from '../shared/routes/operations';
import { ownedAsset } from '../shared/services/operations/assets';
import { createOrder, listOrders, updateOrder } from '../shared/services/operations/maintenance';

export const handler = serve(OPERATIONS_ROUTES, 'terminal-order', {
  'terminal-order': async ({ caller, body }) => {
    if (body.action === 'update') return updateOrder(caller.accountId, body);
    const asset = await ownedAsset(caller, body.asset_id);
    return body.action === 'list' ? listOrders(asset) : createOrder(asset, body);
  },
});

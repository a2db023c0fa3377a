import { apiHandler } from '../shared/http/api-handler';
import { requireFields } from '../shared/http/validation';
import { checkAction, TerminalActionRequest } from '../shared/schemas/terminal';
import { ownedAsset } from '../shared/services/assets';
import { createOrder, listOrders, updateOrder } from '../shared/services/maintenance';

// `update` is ours (ARCHITECTURE 9): the spec names create and list only.
export const handler = apiHandler('terminal-order', { body: TerminalActionRequest }, async ({ caller, body }) => {
  const action = checkAction(body.action, ['create', 'list', 'update']);
  if (action === 'update') return updateOrder(caller.accountId, body);
  requireFields(body, ['asset_id']);
  const asset = await ownedAsset(caller, body.asset_id!);
  return action === 'list' ? listOrders(asset) : createOrder(asset, body);
});

import { apiHandler } from '../shared/http/api-handler';
import { requireFields } from '../shared/http/validation';
import { checkAction, TerminalActionRequest } from '../shared/schemas/terminal';
import { ownedAsset } from '../shared/services/assets';
import { createBom, listBoms } from '../shared/services/maintenance';

export const handler = apiHandler('terminal-bom', { body: TerminalActionRequest }, async ({ caller, body }) => {
  const action = checkAction(body.action, ['generate', 'list']);
  requireFields(body, ['asset_id']);
  const asset = await ownedAsset(caller, body.asset_id!);
  return action === 'list' ? listBoms(asset) : createBom(asset, body);
});

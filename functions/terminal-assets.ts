import { BadRequest } from '../shared/errors';
import { apiHandler } from '../shared/http/api-handler';
import { parseWith, requireFields } from '../shared/http/validation';
import { ASSET_ACTIONS, ASSET_REQUIRED_ON_ADD, AddAssetRequest, AssetsRequest } from '../shared/schemas/assets';
import { addAsset, assetOf, listAssetsOf } from '../shared/services/assets';

export const handler = apiHandler('terminal-assets', { body: AssetsRequest.loose() }, async ({ caller, body }) => {
  if (!(ASSET_ACTIONS as readonly string[]).includes(body.action)) throw new BadRequest('Invalid action');
  if (body.action === 'list') return listAssetsOf(caller);
  requireFields(body, ['asset_id']);
  if (body.action === 'get') return assetOf(caller, body.asset_id!);
  requireFields(body, ASSET_REQUIRED_ON_ADD);
  return addAsset(caller, parseWith(AddAssetRequest, body, 'body'));
});

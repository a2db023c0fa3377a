import { BadRequest } from '../shared/errors';
import { apiHandler } from '../shared/http/api-handler';
import { parseWith } from '../shared/http/validation';
import { ASSET_ACTIONS, AddAssetRequest, AssetsRequest } from '../shared/schemas/assets';
import { addAsset, assetOf, listAssetsOf } from '../shared/services/assets';

export const handler = apiHandler('terminal-assets', { body: AssetsRequest.loose() }, async ({ caller, body }) => {
  if (!(ASSET_ACTIONS as readonly string[]).includes(body.action)) throw new BadRequest('Invalid action');
  if (body.action === 'list') return listAssetsOf(caller);
  if (!body.asset_id) throw new BadRequest('Missing required field: asset_id');
  if (body.action === 'get') return assetOf(caller, body.asset_id);
  return addAsset(caller, parseWith(AddAssetRequest, body, 'body'));
});

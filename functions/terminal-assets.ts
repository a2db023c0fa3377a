import { serve } from '../shared/http/api-handler';
import { OPERATIONS_ROUTES } from '../shared/routes/operations';
import { addAsset, assetOf, listAssetsOf } from '../shared/services/operations/assets';

export const handler = serve(OPERATIONS_ROUTES, 'terminal-assets', {
  'terminal-assets': ({ caller, body }) => {
    if (body.action === 'list') return listAssetsOf(caller);
    if (body.action === 'get') return assetOf(caller, body.asset_id);
    const { action: _action, ...asset } = body;
    return addAsset(caller, asset);
  },
});

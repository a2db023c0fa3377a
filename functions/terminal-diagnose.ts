import { serve } from '../shared/http/api-handler';
import { OPERATIONS_ROUTES } from '../shared/routes/operations';
import { ownedAsset } from '../shared/services/operations/assets';
import { listDiagnostics, runDiagnosis } from '../shared/services/operations/observe-orient';

export const handler = serve(OPERATIONS_ROUTES, 'terminal-diagnose', {
  'terminal-diagnose': async ({ caller, body }) =>
    body.action === 'list' ? listDiagnostics(caller.accountId, body.asset_id) : runDiagnosis(caller.accountId, await ownedAsset(caller, body.asset_id)),
});

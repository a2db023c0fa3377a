import { serve } from '../shared/http/api-handler';
import { ownedAsset } from '../shared/services/assets';
import { listDiagnostics, runDiagnosis } from '../shared/services/observe-orient';

export const handler = serve('terminal-diagnose', {
  'terminal-diagnose': async ({ caller, body }) =>
    body.action === 'list' ? listDiagnostics(caller.accountId, body.asset_id) : runDiagnosis(caller.accountId, await ownedAsset(caller, body.asset_id)),
});

import { apiHandler } from '../shared/http/api-handler';
import { requireFields } from '../shared/http/validation';
import { checkAction, TerminalActionRequest } from '../shared/schemas/terminal';
import { ownedAsset } from '../shared/services/assets';
import { listDiagnostics, runDiagnosis } from '../shared/services/observe-orient';

export const handler = apiHandler('terminal-diagnose', { body: TerminalActionRequest }, async ({ caller, body }) => {
  if (checkAction(body.action, ['run', 'list']) === 'list') return listDiagnostics(caller.accountId, body.asset_id);
  requireFields(body, ['asset_id']);
  return runDiagnosis(caller.accountId, await ownedAsset(caller, body.asset_id!));
});

import { apiHandler } from '../shared/http/api-handler';
import { requireFields } from '../shared/http/validation';
import { checkAction, TerminalActionRequest } from '../shared/schemas/terminal';
import { ownedAsset } from '../shared/services/assets';
import { listDetections, runDetection } from '../shared/services/observe-orient';

export const handler = apiHandler('terminal-detect', { body: TerminalActionRequest }, async ({ caller, body }) => {
  if (checkAction(body.action, ['run', 'list']) === 'list') return listDetections(caller.accountId, body.asset_id);
  requireFields(body, ['asset_id']);
  return runDetection(caller.accountId, await ownedAsset(caller, body.asset_id!));
});

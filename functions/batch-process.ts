/** POST /api/batch-process and GET /api/batch/{batch_id} (ARCHITECTURE 9). */
import { apiHandler, byRoute, Reply } from '../shared/http/api-handler';
import { BatchPath, BatchProcessRequest } from '../shared/schemas/batch';
import { acceptBatch, batchStatus, runBatchNow } from '../shared/services/batch';

export const handler = byRoute({
  // With callback_url the batch is queued (202) and its results are POSTed to the callback; without, they are the answer.
  'batch-process': apiHandler('batch-process', { body: BatchProcessRequest }, async ({ caller, body }) =>
    body.callback_url === undefined ? runBatchNow(caller, body) : new Reply(202, await acceptBatch(caller, { ...body, callback_url: body.callback_url })),
  ),
  'batch-status': apiHandler('batch-status', { path: BatchPath }, ({ caller, path }) => batchStatus(caller, path.batch_id)),
});

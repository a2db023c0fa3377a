/** POST /api/batch-process and GET /api/batch/{batch_id} (ARCHITECTURE 9). */
import { Reply, serve } from '../shared/http/api-handler';
import { BATCH_EDGE_ROUTES } from '../shared/routes/batch-edge';
import { acceptBatch, batchStatus, runBatchNow } from '../shared/services/batch/batch';

export const handler = serve(BATCH_EDGE_ROUTES, 'batch-process', {
  // With callback_url the batch is queued (202) and its results are POSTed to the callback; without, they are the answer.
  'batch-process': async ({ caller, body }) =>
    body.callback_url === undefined ? runBatchNow(caller, body) : new Reply(202, await acceptBatch(caller, { ...body, callback_url: body.callback_url })),
  'batch-status': ({ caller, path }) => batchStatus(caller, path.batch_id),
});

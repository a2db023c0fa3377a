/** POST /api/webhooks, GET /api/webhooks, DELETE /api/webhooks/{webhook_id} (ARCHITECTURE 9). */
import { Reply, serve } from '../shared/http/api-handler';
import { OPERATIONS_ROUTES } from '../shared/routes/operations';
import { listWebhooksOf, registerWebhook, removeWebhook } from '../shared/services/webhooks/webhooks';

export const handler = serve(OPERATIONS_ROUTES, 'webhooks', {
  'webhooks-create': async ({ caller, body }) => new Reply(201, await registerWebhook(caller, body)),
  'webhooks-list': ({ caller }) => listWebhooksOf(caller),
  'webhooks-delete': ({ caller, path }) => removeWebhook(caller, path.webhook_id),
});

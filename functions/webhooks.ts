/** POST /api/webhooks, GET /api/webhooks, DELETE /api/webhooks/{webhook_id} (ARCHITECTURE 9). */
import { apiHandler, byRoute, Reply } from '../shared/http/api-handler';
import { CreateWebhookRequest, WebhookPath } from '../shared/schemas/webhooks';
import { listWebhooksOf, registerWebhook, removeWebhook } from '../shared/services/webhooks';

export const handler = byRoute({
  'webhooks-create': apiHandler('webhooks-create', { body: CreateWebhookRequest }, async ({ caller, body }) => new Reply(201, await registerWebhook(caller, body))),
  'webhooks-list': apiHandler('webhooks-list', {}, ({ caller }) => listWebhooksOf(caller)),
  'webhooks-delete': apiHandler('webhooks-delete', { path: WebhookPath }, ({ caller, path }) => removeWebhook(caller, path.webhook_id)),
});

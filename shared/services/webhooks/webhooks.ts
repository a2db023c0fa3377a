/** Webhook registrations of an account (ARCHITECTURE 9): register, list, remove. */
import { randomUUID } from 'node:crypto';
import { config } from '../../config';
import { BadRequest, NotFound } from '../../errors';
import type { CreateWebhookInput } from '../../schemas/webhooks';
import { deleteWebhook, getWebhook, insertWebhook, listWebhooks, type WebhookRecord } from '../../store/webhooks-repo';
import type { Caller } from '../../access/authentication';

/** What the caller sees of a registration: never the secret, nor the owner; its last delivery attempts, newest first. */
const publicView = ({ webhook_id, webhook_url, events, created_at, recent_deliveries = [] }: WebhookRecord) => ({ webhook_id, webhook_url, events, created_at, recent_deliveries });

export async function registerWebhook(caller: Caller, input: CreateWebhookInput) {
  const limit = config().WEBHOOKS_PER_ACCOUNT;
  // A soft limit (two concurrent registrations may pass it by one): it bounds the fan-out of an event.
  if ((await listWebhooks(caller.accountId)).length >= limit) throw new BadRequest(`Webhook limit reached: at most ${limit} registrations per account`);
  const record: WebhookRecord = { webhook_id: `wh_${randomUUID()}`, account_id: caller.accountId, ...input, created_at: new Date().toISOString() };
  if (!(await insertWebhook(record))) throw new Error(`webhook id ${record.webhook_id} already exists`);
  return { status: 'success', message: 'Webhook registered', ...publicView(record) };
}

export async function listWebhooksOf(caller: Caller) {
  const webhooks = (await listWebhooks(caller.accountId)).sort((a, b) => a.created_at.localeCompare(b.created_at)).map(publicView);
  return { status: 'success', webhooks, count: webhooks.length };
}

/** Another account's registration answers exactly like a missing one (ARCHITECTURE 3). */
export async function removeWebhook(caller: Caller, webhookId: string) {
  if (!(await getWebhook(caller.accountId, webhookId))) throw new NotFound('Webhook not found');
  await deleteWebhook(caller.accountId, webhookId);
  return { status: 'success', message: 'Webhook deleted', webhook_id: webhookId };
}

/** The account's registrations that subscribe to an event type, with their secrets (for delivery only). */
export async function registrationsFor(accountId: string, eventType: string): Promise<WebhookRecord[]> {
  return (await listWebhooks(accountId)).filter((w) => w.events.includes(eventType));
}

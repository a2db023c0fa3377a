/**
 * Webhook registrations and parked deliveries of an account (accounts table, in the account's partition).
 * A registration holds its secret, which signs every delivery: it never leaves the service.
 */
import { RECENT_DELIVERIES, type DeliveryOutcome } from '../domain/webhooks/delivery-outcome';
import { deleteItem, getRecord, listRecords, prependBounded, putItem, putNew } from './dynamo';
import { keys } from './keys';

export interface WebhookRecord {
  webhook_id: string;
  account_id: string;
  webhook_url: string;
  events: string[];
  secret: string;
  created_at: string;
  /** The last RECENT_DELIVERIES attempts to this registration, newest first. */
  recent_deliveries?: DeliveryOutcome[];
  recent_deliveries_version?: number;
}

export const insertWebhook = (w: WebhookRecord): Promise<boolean> => putNew('accounts', { ...keys.webhook(w.account_id, w.webhook_id), ...w });

export async function getWebhook(accountId: string, webhookId: string): Promise<WebhookRecord | undefined> {
  return getRecord<WebhookRecord>('accounts', keys.webhook(accountId, webhookId));
}

/** The account's registrations (in id order). */
export async function listWebhooks(accountId: string): Promise<WebhookRecord[]> {
  return listRecords<WebhookRecord>('accounts', keys.webhooksOf(accountId));
}

export const deleteWebhook = (accountId: string, webhookId: string): Promise<void> => deleteItem('accounts', keys.webhook(accountId, webhookId));

/** Lists an attempt first in the registration's recent_deliveries; false when the registration is gone. */
export const recordWebhookDelivery = (accountId: string, webhookId: string, outcome: DeliveryOutcome): Promise<boolean> =>
  prependBounded('accounts', keys.webhook(accountId, webhookId), 'recent_deliveries', outcome, RECENT_DELIVERIES);

/** A delivery given up after its last attempt: the event, where it went, and every failure. No secret. */
export interface ParkedDelivery {
  kind: 'webhook.parked';
  /** `<event id>:<recipient id>`: parking the same delivery twice keeps one record. */
  delivery_id: string;
  account_id: string;
  event: { id: string; type: string; created_at: string; data: unknown };
  recipient_id: string;
  url: string;
  attempts: number;
  /** Why the last attempt failed. */
  reason: string;
  failures: { attempt: number; at: string; reason: string }[];
  parked_at: string;
}

export const saveParkedDelivery = (p: ParkedDelivery): Promise<void> => putItem('accounts', { ...keys.parkedDelivery(p.account_id, p.delivery_id), ...p });

export async function listParkedDeliveries(accountId: string): Promise<ParkedDelivery[]> {
  return listRecords<ParkedDelivery>('accounts', keys.parkedDeliveriesOf(accountId));
}

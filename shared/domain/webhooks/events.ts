/**
 * What a webhook receiver is sent (ARCHITECTURE 9): the events an account may register for, the payload
 * `{type, id, created_at, data}` (the domain event without its account), and which URLs may receive it.
 */

/** The long-running operations a registration may subscribe to (SPEC, Events). */
export const WEBHOOK_EVENT_TYPES = ['training_completed', 'forecast_ready', 'dispatch_executed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const isWebhookEventType = (type: string): type is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);

/** The fields of a domain event that a delivery carries. */
export interface WebhookEvent {
  id: string;
  type: string;
  created_at: string;
  data: unknown;
}

export interface WebhookPayload {
  type: string;
  id: string;
  created_at: string;
  data: unknown;
}

/** The body of every delivery, in this key order; the account stays out of it. */
export const webhookPayload = (event: WebhookEvent): WebhookPayload => ({ type: event.type, id: event.id, created_at: event.created_at, data: event.data });

/**
 * Webhook registrations (ARCHITECTURE 9: POST/GET /api/webhooks, DELETE /api/webhooks/{webhook_id}) and
 * the two kinds of message on the `webhooks` queue.
 */
import * as z from 'zod';
import { identifier } from './bounds';
import { exact } from '../validation';
import { config } from '../config';
import { MAX_CALLBACK_URL_LENGTH, callbackUrlProblem } from '../domain/webhooks/callback-url';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhooks/events';
import { isUsableSecret } from '../domain/webhooks/signing';

const MAX_SECRET_LENGTH = 512;

export const CreateWebhookRequest = z.object({
  webhook_url: z.string().trim().max(MAX_CALLBACK_URL_LENGTH).refine((url) => callbackUrlProblem(url, config().CALLBACK_HOSTS) === null, { error: exact('Invalid webhook URL') }),
  // An unknown name fails with "must be one of" and the allowed names (shared/http/validation.ts).
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES))
    .min(1)
    .transform((events) => [...new Set(events)]),
  secret: z
    .string()
    .min(1)
    .max(MAX_SECRET_LENGTH)
    .refine(isUsableSecret, { error: 'must be "whsec_" followed by base64, or any other non-empty string' }),
});
export type CreateWebhookInput = z.infer<typeof CreateWebhookRequest>;

/** Any id is looked up: one that was never issued is a 404 like another account's. */
export const WebhookPath = z.object({ webhook_id: identifier() });

/** A domain event as the event rule puts it on the queue (shared/events/event-bus.ts). */
export const QueuedDomainEvent = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  created_at: z.string().min(1),
  account_id: z.string().min(1),
  data: z.unknown(),
});

/** One failed attempt, as carried from retry to retry and recorded when the delivery is parked. */
export const DeliveryAttempt = z.object({ attempt: z.number().int().positive(), at: z.string(), reason: z.string() });
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

/** The next attempt of one event to one recipient, sent with a delay after a failure. */
export const DeliveryRetry = z.object({
  kind: z.literal('webhook.retry'),
  event: QueuedDomainEvent,
  recipient_id: z.string().min(1),
  attempt: z.number().int().min(2),
  failures: z.array(DeliveryAttempt),
});
export type DeliveryRetry = z.infer<typeof DeliveryRetry>;

export const WebhookQueueMessage = z.union([DeliveryRetry, QueuedDomainEvent]);
export type WebhookQueueMessage = z.infer<typeof WebhookQueueMessage>;

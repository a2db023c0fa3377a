/** Success bodies of the webhook registrations (ARCHITECTURE 9; the spec shows none). */
import * as z from 'zod';
import { success, timestamp } from './common';

/** One delivery attempt (shared/domain/webhooks/delivery-outcome.ts), as registrations and tracking subscriptions list them. */
export const RecentDeliveries = z
  .array(
    z
      .object({
        event_id: z.string(),
        event_type: z.string(),
        attempt: z.number().int().positive(),
        at: timestamp(),
        outcome: z.enum(['delivered', 'failed']),
        status_code: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null when no answer came." }),
        reason: z.string().nullable().meta({ description: 'Why the attempt failed (`HTTP 503`, `timed out after 10000 ms`, `network error: ECONNREFUSED`); null when delivered.' }),
      })
      .meta({ id: 'DeliveryAttemptOutcome' }),
  )
  .meta({ description: 'The last 10 delivery attempts, newest first.' });

const Webhook = z
  .looseObject({ webhook_id: z.string(), webhook_url: z.url(), events: z.array(z.string()), created_at: timestamp(), recent_deliveries: RecentDeliveries })
  .meta({ id: 'Webhook' });

export const CreateWebhookResponse = success({ message: z.string(), webhook_id: z.string(), webhook_url: z.url(), events: z.array(z.string()), created_at: timestamp() }).meta({ id: 'CreateWebhookResponse' });
export const ListWebhooksResponse = success({ webhooks: z.array(Webhook), count: z.number().int() }).meta({ id: 'ListWebhooksResponse' });
export const DeleteWebhookResponse = success({ message: z.string(), webhook_id: z.string() }).meta({ id: 'DeleteWebhookResponse' });

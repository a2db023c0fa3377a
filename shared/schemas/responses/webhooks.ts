/** Success bodies of the webhook registrations (ARCHITECTURE 9; the spec shows none). */
import * as z from 'zod';
import { success, timestamp } from './common';

const Webhook = z.looseObject({ webhook_id: z.string(), webhook_url: z.url(), events: z.array(z.string()), created_at: timestamp() }).meta({ id: 'Webhook' });

export const CreateWebhookResponse = success({ message: z.string(), webhook_id: z.string(), webhook_url: z.url(), events: z.array(z.string()), created_at: timestamp() }).meta({ id: 'CreateWebhookResponse' });
export const ListWebhooksResponse = success({ webhooks: z.array(Webhook), count: z.number().int() }).meta({ id: 'ListWebhooksResponse' });
export const DeleteWebhookResponse = success({ message: z.string(), webhook_id: z.string() }).meta({ id: 'DeleteWebhookResponse' });

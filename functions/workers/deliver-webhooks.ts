/**
 * Consumes the webhooks queue (shared/pipelines.ts): each message is delivered, retried later or parked by
 * the service. A message that could not be handled is reported as a partial batch failure, so SQS sends it
 * again and parks it in the DLQ after the queue's maxReceiveCount.
 */
import { sqsBatchHandler } from '../../shared/events/sqs-batch';
import { WebhookQueueMessage } from '../../shared/schemas/webhooks';
import { handleWebhookMessage, WEBHOOKS_QUEUE } from '../../shared/services/webhooks/webhook-delivery';

// Concurrently: ten messages of ten-second POSTs must end within the function's time-out.
export const handler = sqsBatchHandler(WEBHOOKS_QUEUE, WebhookQueueMessage, (message) => handleWebhookMessage(message), { concurrent: true });

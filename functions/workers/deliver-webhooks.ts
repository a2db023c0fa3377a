/**
 * Consumes the webhooks queue (shared/pipelines.ts): each message is delivered, retried later or parked by
 * the service. A message that could not be handled is reported as a partial batch failure, so SQS sends it
 * again and parks it in the DLQ after the queue's maxReceiveCount.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { log } from '../../shared/http/logger';
import { handleWebhookMessage } from '../../shared/services/webhook-delivery';

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  // Concurrently: ten messages of ten-second POSTs must end within the function's time-out.
  const outcomes = await Promise.allSettled(event.Records.map((record) => handleWebhookMessage(record.body)));
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  outcomes.forEach((outcome, i) => {
    if (outcome.status === 'fulfilled') return;
    log.error('webhook message failed', { message_id: event.Records[i].messageId, err: outcome.reason });
    batchItemFailures.push({ itemIdentifier: event.Records[i].messageId });
  });
  return { batchItemFailures };
};

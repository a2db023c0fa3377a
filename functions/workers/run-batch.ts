/** Consumes the batches queue (shared/pipelines.ts): one batch per message, partial batch failures reported. */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { PIPELINES } from '../../shared/pipelines';
import { BATCHES_QUEUE, runQueuedBatch, type BatchMessage } from '../../shared/services/batch';

const QUEUE = PIPELINES.queues.find((q) => q.id === BATCHES_QUEUE)!;

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      // The lease lasts as long as the message stays invisible: a crashed run is taken again after both.
      await runQueuedBatch(JSON.parse(record.body) as BatchMessage, Number(record.attributes.ApproximateReceiveCount ?? 1), QUEUE.maxReceiveCount, QUEUE.visibilityTimeoutSeconds);
    } catch {
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};

/** Consumes the batches queue (shared/pipelines.ts): one batch per message, partial batch failures reported. */
import { receiveCount, sqsBatchHandler } from '../../shared/events/sqs-batch';
import { PIPELINES } from '../../shared/pipelines';
import { BatchMessage } from '../../shared/schemas/queue-messages';
import { BATCHES_QUEUE, runQueuedBatch } from '../../shared/services/batch/batch';

const QUEUE = PIPELINES.queues.find((q) => q.id === BATCHES_QUEUE)!;

// The lease lasts as long as the message stays invisible: a crashed run is taken again after both.
export const handler = sqsBatchHandler(BATCHES_QUEUE, BatchMessage, (message, record) =>
  runQueuedBatch(message, receiveCount(record), QUEUE.maxReceiveCount, QUEUE.visibilityTimeoutSeconds),
);

/** Consumes the training queue (shared/pipelines.ts): one job per message, partial batch failures reported. */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { PIPELINES } from '../../shared/pipelines';
import { runTrainingMessage, type TrainingMessage } from '../../shared/services/training';

const MAX_ATTEMPTS = PIPELINES.queues.find((q) => q.id === 'training')!.maxReceiveCount;

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      await runTrainingMessage(JSON.parse(record.body) as TrainingMessage, Number(record.attributes.ApproximateReceiveCount ?? 1), MAX_ATTEMPTS);
    } catch {
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};

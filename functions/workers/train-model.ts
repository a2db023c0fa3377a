/** Consumes the training queue (shared/pipelines.ts): one job per message, partial batch failures reported. */
import { receiveCount, sqsBatchHandler } from '../../shared/events/sqs-batch';
import { PIPELINES } from '../../shared/pipelines';
import { TrainingMessage } from '../../shared/schemas/queue-messages';
import { runTrainingMessage } from '../../shared/services/training/training';

const MAX_ATTEMPTS = PIPELINES.queues.find((q) => q.id === 'training')!.maxReceiveCount;

export const handler = sqsBatchHandler('training', TrainingMessage, (message, record) => runTrainingMessage(message, receiveCount(record), MAX_ATTEMPTS));

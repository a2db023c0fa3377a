/** The queue port: send work and read a queue's depth. SQS in the cloud and locally (the stand-in speaks SQS). */
import { GetQueueAttributesCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { config } from '../config';
import { dlqId } from '../pipelines';
import { sqsClient } from '../store/aws-clients';

function queueUrl(queueId: string): string {
  const url = config().queueUrls[queueId];
  if (!url) throw new Error(`queue ${queueId} is not configured (QUEUE_URLS)`);
  return url;
}

/** SQS's ceiling on a message's delay (DelaySeconds). */
export const MAX_DELAY_SECONDS = 900;

/** Sends a message; with `delaySeconds` (at most 900) it stays invisible that long first. */
export async function enqueue(queueId: string, message: unknown, options: { delaySeconds?: number } = {}): Promise<void> {
  const delay = options.delaySeconds;
  if (delay !== undefined && !(Number.isInteger(delay) && delay >= 0 && delay <= MAX_DELAY_SECONDS)) {
    throw new Error(`delaySeconds must be an integer from 0 to ${MAX_DELAY_SECONDS}, got ${delay}`);
  }
  await sqsClient().send(new SendMessageCommand({ QueueUrl: queueUrl(queueId), MessageBody: JSON.stringify(message), DelaySeconds: delay }));
}

/**
 * Sends a message straight to a queue's dead-letter queue, for work a consumer gives up on by its own rule
 * (SQS redrive parks only messages received too often).
 */
export async function sendToDeadLetterQueue(queueId: string, message: unknown): Promise<void> {
  await sqsClient().send(new SendMessageCommand({ QueueUrl: queueUrl(dlqId(queueId)), MessageBody: JSON.stringify(message) }));
}

/** Messages waiting, and those received and being worked on. */
export async function queueDepth(queueId: string): Promise<{ waiting: number; inFlight: number }> {
  const out = await sqsClient().send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl(queueId),
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  const a = out.Attributes ?? {};
  return { waiting: Number(a.ApproximateNumberOfMessages ?? 0), inFlight: Number(a.ApproximateNumberOfMessagesNotVisible ?? 0) };
}

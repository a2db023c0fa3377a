/** The queue port: send work and read a queue's depth. SQS in the cloud and locally (the stand-in speaks SQS). */
import { GetQueueAttributesCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { config } from '../config';
import { sqsClient } from '../store/aws-clients';

function queueUrl(queueId: string): string {
  const url = config().queueUrls[queueId];
  if (!url) throw new Error(`queue ${queueId} is not configured (QUEUE_URLS)`);
  return url;
}

export async function enqueue(queueId: string, message: unknown): Promise<void> {
  await sqsClient().send(new SendMessageCommand({ QueueUrl: queueUrl(queueId), MessageBody: JSON.stringify(message) }));
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

/** Creates in the stand-ins what CDK creates in AWS: the tables, the bucket, the queues with their DLQs. */
import { CreateTableCommand, DynamoDBClient, ResourceInUseException } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, SQSClient, GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { TABLE_KEY_LAYOUT, TABLES } from '../shared/store/tables';
import { dlqId, type Pipelines } from '../shared/pipelines';
import type { Config } from '../shared/config';

export async function createTables(client: DynamoDBClient, cfg: Config): Promise<void> {
  for (const table of TABLES) {
    try {
      await client.send(
        new CreateTableCommand({
          TableName: cfg[table.nameFrom],
          BillingMode: 'PAY_PER_REQUEST',
          ...TABLE_KEY_LAYOUT,
        }),
      );
    } catch (err) {
      if (!(err instanceof ResourceInUseException)) throw err; // kept on disk from an earlier start
    }
  }
}

export async function createBucket(client: S3Client, bucket: string): Promise<void> {
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (err) {
    if (!['BucketAlreadyOwnedByYou', 'BucketAlreadyExists'].includes((err as Error).name)) throw err;
  }
}

/** Creates each queue after its DLQ; returns the URLs by logical id (DLQs as `<id>-dlq`). */
export async function createQueues(client: SQSClient, pipelines: Pipelines, options: { visibilityTimeoutSeconds?: number } = {}): Promise<Record<string, string>> {
  const urls: Record<string, string> = {};
  for (const q of pipelines.queues) {
    const dlq = await client.send(new CreateQueueCommand({ QueueName: dlqId(q.id) }));
    const dlqArn = (await client.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }))).Attributes!.QueueArn;
    const queue = await client.send(
      new CreateQueueCommand({
        QueueName: q.id,
        Attributes: {
          VisibilityTimeout: String(options.visibilityTimeoutSeconds ?? q.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: q.maxReceiveCount }),
        },
      }),
    );
    urls[q.id] = queue.QueueUrl!;
    urls[dlqId(q.id)] = dlq.QueueUrl!;
  }
  return urls;
}

/**
 * AWS SDK clients, created once per process. Local endpoints come from the standard
 * AWS_ENDPOINT_URL_* variables (ARCHITECTURE 10), so no code here knows it runs locally.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { config } from '../config';
import { RecordTooLarge } from '../errors';

let ddb: DynamoDBDocumentClient | undefined;
let s3: S3Client | undefined;
let sqs: SQSClient | undefined;
let events: EventBridgeClient | undefined;
let bedrock: BedrockRuntimeClient | undefined;

/** DynamoDB refuses items over 400 KB with a ValidationException ("Item size has exceeded ..."). */
const isItemTooLarge = (err: unknown) => (err as { name?: string })?.name === 'ValidationException' && /item size .*exceeded/i.test((err as Error).message);

export function documentClient(): DynamoDBDocumentClient {
  if (!ddb) {
    const client = new DynamoDBClient({ region: config().AWS_REGION });
    // Every repository's write is covered: a record grown too large by client text is that client's 413, not a 500.
    client.middlewareStack.add(
      (next) => async (args) => {
        try {
          return await next(args);
        } catch (err) {
          if (isItemTooLarge(err)) throw new RecordTooLarge();
          throw err;
        }
      },
      { step: 'initialize', name: 'itemTooLargeAsNamedError' },
    );
    ddb = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  }
  return ddb;
}

export function s3Client(): S3Client {
  // Path style and on-demand checksums keep s3rver correct (ARCHITECTURE 10); both are harmless on AWS.
  s3 ??= new S3Client({
    region: config().AWS_REGION,
    forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return s3;
}

export function sqsClient(): SQSClient {
  sqs ??= new SQSClient({ region: config().AWS_REGION });
  return sqs;
}

export function eventBridgeClient(): EventBridgeClient {
  events ??= new EventBridgeClient({ region: config().AWS_REGION });
  return events;
}

/** Only created when POLICY_REPHRASING is `bedrock`. */
export function bedrockClient(): BedrockRuntimeClient {
  bedrock ??= new BedrockRuntimeClient({ region: config().AWS_REGION });
  return bedrock;
}

/** Forget the clients (the local runtime calls this after pointing the endpoints elsewhere). */
export function resetClients(): void {
  for (const c of [ddb, s3, sqs, events, bedrock]) c?.destroy();
  ddb = s3 = sqs = events = bedrock = undefined;
}

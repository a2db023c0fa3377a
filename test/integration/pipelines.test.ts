import type { S3Event, SQSEvent, SQSBatchResponse } from 'aws-lambda';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { useRuntime } from '../helpers/runtime';
import { putObject } from '../../shared/store/bucket';
import { enqueue } from '../../shared/events/queues';
import { publishEvent } from '../../shared/events/event-bus';
import { sqsClient } from '../../shared/store/aws-clients';
import { dlqId, type Pipelines } from '../../shared/pipelines';
import { encodeEventKey } from '../../local/s3-router';
import type { AnyHandler } from '../../local/lambda-context';
import { pollFor, until } from '../helpers/poll';

const s3Records: S3Event['Records'] = [];
const delivered: string[] = [];
const receiveCounts: Record<string, number> = {};

const workers: Record<string, AnyHandler> = {
  'record-upload': async (event: S3Event) => {
    s3Records.push(...event.Records);
  },
  'consume-work': async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures = [];
    for (const record of event.Records) {
      const body = JSON.parse(record.body) as { n?: number; poison?: boolean; type?: string };
      receiveCounts[record.body] = Number(record.attributes.ApproximateReceiveCount);
      if (body.poison) failures.push({ itemIdentifier: record.messageId });
      else delivered.push(record.body);
    }
    return { batchItemFailures: failures };
  },
};

const pipelines: Pipelines = {
  queues: [{ id: 'work', purpose: 'test', consumer: 'consume-work', visibilityTimeoutSeconds: 1, maxReceiveCount: 2, batchSize: 5 }],
  rules: [],
  triggers: [{ id: 'uploads', prefixes: ['nowcast/'], handler: 'record-upload' }],
  schedules: [],
};

describe('S3 event router', () => {
  const runtime = useRuntime({ pipelines, loadHandler: async (name) => workers[name], visibilityTimeoutSeconds: 2 });

  it('encodes keys as S3 does: segments URL-encoded, spaces as +', () => {
    expect(encodeEventKey('nowcast/My Site/a(1).csv')).toBe('nowcast/My+Site/a(1).csv');
    expect(encodeEventKey('nowcast/ü/x y+z.csv')).toBe('nowcast/%C3%BC/x+y%2Bz.csv');
  });

  it('invokes the trigger of a matching prefix with the AWS record shape and only that prefix', async () => {
    await putObject('nowcast/cust a/site/20260101_000000_realtime.csv', 'timestamp,power_kw\n');
    await putObject('models/ignored.json', '{}');
    await runtime().s3Events.idle();
    await until(() => s3Records.length > 0);
    await runtime().s3Events.idle();
    expect(s3Records).toHaveLength(1);
    const [record] = s3Records;
    expect(record.eventName).toMatch(/^ObjectCreated:/);
    expect(record.s3.object.key).toBe('nowcast/cust+a/site/20260101_000000_realtime.csv');
    expect(record.awsRegion).toBe(process.env.AWS_REGION);
  });
});

describe('queue poller', () => {
  useRuntime({ pipelines, loadHandler: async (name) => workers[name], visibilityTimeoutSeconds: 2 });

  it('delivers queued messages to the consumer in SQS event shape', async () => {
    await enqueue('work', { n: 1 });
    await enqueue('work', { n: 2 });
    await until(() => delivered.length >= 2);
    expect(delivered.map((b) => JSON.parse(b).n).sort()).toEqual([1, 2]);
  });

  it('retries a failed item and parks it in the DLQ after maxReceiveCount', async () => {
    await enqueue('work', { poison: true });
    const dlqUrl = JSON.parse(process.env.QUEUE_URLS!)[dlqId('work')];
    const parked = await pollFor(async () => (await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: dlqUrl, MaxNumberOfMessages: 1 }))).Messages?.[0]?.Body, { ms: 20_000 });
    expect(JSON.parse(parked)).toEqual({ poison: true });
    expect(receiveCounts['{"poison":true}']).toBe(2);
  });

  it('routes a published event to the queue of the matching rule locally', async () => {
    const withRule: Pipelines = { ...pipelines, rules: [{ id: 'r', eventTypes: ['thing.happened'], queue: 'work' }] };
    const { PIPELINES } = await import('../../shared/pipelines');
    const saved = PIPELINES.rules;
    PIPELINES.rules = withRule.rules;
    try {
      const event = await publishEvent('thing.happened', 'acct-1', { x: 1 });
      await until(() => delivered.some((b) => JSON.parse(b).id === event.id));
      expect(JSON.parse(delivered.find((b) => JSON.parse(b).id === event.id)!)).toMatchObject({ type: 'thing.happened', account_id: 'acct-1', data: { x: 1 } });
    } finally {
      PIPELINES.rules = saved;
    }
  });
});

/**
 * The durable SQS stand-in (local/durable-sqs) through the real @aws-sdk/client-sqs: SQS semantics in
 * memory, then durability: a stand-in dropped without a clean shutdown (its worker thread terminated, as a
 * kill would) and started again on the same directory gives back every message with its deadlines and counts.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  PurgeQueueCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
  type Message,
} from '@aws-sdk/client-sqs';

const SERVER_MODULE = pathToFileURL(path.resolve('local/durable-sqs/server.mjs')).href;

interface StandIn {
  client: SQSClient;
  /** Ends the worker thread at once: no close handler runs, as with a kill. */
  drop(): Promise<void>;
}

/** Starts the stand-in in a worker thread, as the runtime does (emulator-worker.mjs), on a free port. */
async function startStandIn(dataDir?: string): Promise<StandIn> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     import(workerData.module)
       .then(({ startDurableSqs }) => startDurableSqs({ dataDir: workerData.dataDir }))
       .then((sqs) => parentPort.postMessage({ endpoint: sqs.endpoint }), (err) => parentPort.postMessage({ error: String(err) }));`,
    { eval: true, workerData: { module: SERVER_MODULE, dataDir } },
  );
  const started = await new Promise<{ endpoint?: string; error?: string }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  if (!started.endpoint) throw new Error(`stand-in did not start: ${started.error}`);
  const client = new SQSClient({ region: 'us-east-1', endpoint: started.endpoint, credentials: { accessKeyId: 'tester', secretAccessKey: 'secret' } });
  return {
    client,
    async drop() {
      client.destroy();
      await worker.terminate();
    },
  };
}

let queues = 0;
async function createQueue(client: SQSClient, attributes: Record<string, string> = {}): Promise<string> {
  const out = await client.send(new CreateQueueCommand({ QueueName: `q-${++queues}`, Attributes: attributes }));
  return out.QueueUrl!;
}

async function counts(client: SQSClient, url: string) {
  const a = (await client.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] }))).Attributes!;
  return { visible: Number(a.ApproximateNumberOfMessages), inFlight: Number(a.ApproximateNumberOfMessagesNotVisible), delayed: Number(a.ApproximateNumberOfMessagesDelayed) };
}

async function receive(client: SQSClient, url: string, options: { wait?: number; max?: number; visibility?: number } = {}): Promise<Message[]> {
  const out = await client.send(
    new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: options.max ?? 10, WaitTimeSeconds: options.wait ?? 0, VisibilityTimeout: options.visibility, MessageSystemAttributeNames: ['All'] }),
  );
  return out.Messages ?? [];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Timers may fire a few ms early; deadlines are checked with this slack. */
const TIMER_SLACK_MS = 20;

describe('SQS semantics', () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await startStandIn();
  });
  afterAll(() => standIn.drop());
  const client = () => standIn.client;

  it('sends, receives with the body MD5 and system attributes, and deletes a message', async () => {
    // Prepare
    const url = await createQueue(client());
    const body = '{"event":"dispatch_executed","note":"ünïcode ✓"}';
    const before = Date.now();

    // Act
    const sent = await client().send(new SendMessageCommand({ QueueUrl: url, MessageBody: body }));
    const [message] = await receive(client(), url);
    await client().send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: message.ReceiptHandle }));

    // Assess (the SDK itself fails a call whose MD5 does not match the body)
    const md5 = createHash('md5').update(body, 'utf8').digest('hex');
    expect(message).toMatchObject({ MessageId: sent.MessageId, Body: body, MD5OfBody: md5 });
    expect(sent.MD5OfMessageBody).toBe(md5);
    expect(message.Attributes).toMatchObject({ ApproximateReceiveCount: '1', SenderId: 'tester' });
    expect(Number(message.Attributes!.SentTimestamp)).toBeGreaterThanOrEqual(before);
    expect(Number(message.Attributes!.ApproximateFirstReceiveTimestamp)).toBeGreaterThanOrEqual(Number(message.Attributes!.SentTimestamp));
    expect(await counts(client(), url)).toEqual({ visible: 0, inFlight: 0, delayed: 0 });
    expect(await receive(client(), url)).toEqual([]);
  });

  it('keeps a message sent with DelaySeconds invisible until the delay has passed', async () => {
    const url = await createQueue(client());
    const sentAt = Date.now();
    await client().send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'later', DelaySeconds: 1 }));

    expect(await receive(client(), url)).toEqual([]);
    expect(await counts(client(), url)).toEqual({ visible: 0, inFlight: 0, delayed: 1 });
    const [message] = await receive(client(), url, { wait: 5 });

    expect(message.Body).toBe('later');
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(1000 - TIMER_SLACK_MS);
    expect(Date.now() - sentAt).toBeLessThan(3000);
  });

  it('gives a message back after its visibility time-out with ApproximateReceiveCount 2; the stale receipt handle no longer deletes it', async () => {
    const url = await createQueue(client(), { VisibilityTimeout: '1' });
    await client().send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'retry me' }));
    const [first] = await receive(client(), url);
    expect(await receive(client(), url)).toEqual([]);

    const [second] = await receive(client(), url, { wait: 5 });

    expect(second).toMatchObject({ MessageId: first.MessageId, Body: 'retry me', Attributes: { ApproximateReceiveCount: '2' } });
    expect(second.Attributes!.ApproximateFirstReceiveTimestamp).toBe(first.Attributes!.ApproximateFirstReceiveTimestamp);
    expect(second.ReceiptHandle).not.toBe(first.ReceiptHandle);
    // SQS: "you must provide the most recently received ReceiptHandle ... (otherwise, the request succeeds,
    // but the message will not be deleted)".
    await client().send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: first.ReceiptHandle }));
    expect(await counts(client(), url)).toEqual({ visible: 0, inFlight: 1, delayed: 0 });
    await client().send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: second.ReceiptHandle }));
    expect(await counts(client(), url)).toEqual({ visible: 0, inFlight: 0, delayed: 0 });
  });

  it('moves a message to the dead-letter queue instead of receiving it a (maxReceiveCount + 1)th time', async () => {
    const dlq = await createQueue(client());
    const dlqArn = (await client().send(new GetQueueAttributesCommand({ QueueUrl: dlq, AttributeNames: ['QueueArn'] }))).Attributes!.QueueArn!;
    const url = await createQueue(client(), { VisibilityTimeout: '30', RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: 2 }) });
    const sent = await client().send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'poison' }));

    // Two receives, each handed back at once (visibility 0), as a consumer that fails would.
    for (const expected of ['1', '2']) {
      const [m] = await receive(client(), url);
      expect(m.Attributes!.ApproximateReceiveCount).toBe(expected);
      await client().send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: 0 }));
    }
    const third = await receive(client(), url);

    expect(third).toEqual([]);
    expect(await counts(client(), url)).toEqual({ visible: 0, inFlight: 0, delayed: 0 });
    const [parked] = await receive(client(), dlq);
    expect(parked).toMatchObject({ MessageId: sent.MessageId, Body: 'poison' });
  });

  it('sends and deletes in batches, reporting a bad entry as Failed and the others as Successful', async () => {
    const url = await createQueue(client());

    const sent = await client().send(
      new SendMessageBatchCommand({
        QueueUrl: url,
        Entries: [
          { Id: 'a', MessageBody: 'one' },
          { Id: 'b', MessageBody: 'two', DelaySeconds: 0 },
          { Id: 'c', MessageBody: 'bad \u0001 character' },
        ],
      }),
    );
    const received = await receive(client(), url, { max: 10 });
    const deleted = await client().send(
      new DeleteMessageBatchCommand({
        QueueUrl: url,
        Entries: [...received.map((m, i) => ({ Id: `m${i}`, ReceiptHandle: m.ReceiptHandle })), { Id: 'junk', ReceiptHandle: 'not-a-handle' }],
      }),
    );

    expect(sent.Successful!.map((s) => s.Id).sort()).toEqual(['a', 'b']);
    expect(sent.Failed).toEqual([expect.objectContaining({ Id: 'c', SenderFault: true, Code: 'InvalidMessageContents' })]);
    expect(received.map((m) => m.Body).sort()).toEqual(['one', 'two']);
    expect(new Set(received.map((m) => m.MessageId)).size).toBe(2);
    expect(deleted.Successful!.map((s) => s.Id).sort()).toEqual(['m0', 'm1']);
    expect(deleted.Failed).toEqual([expect.objectContaining({ Id: 'junk', Code: 'ReceiptHandleIsInvalid' })]);
    expect(await counts(client(), url)).toEqual({ visible: 0, inFlight: 0, delayed: 0 });
  });

  it('returns a message once per batch even with visibility 0, and at most MaxNumberOfMessages', async () => {
    const url = await createQueue(client());
    await client().send(new SendMessageBatchCommand({ QueueUrl: url, Entries: ['1', '2', '3'].map((n) => ({ Id: n, MessageBody: n })) }));

    const two = await receive(client(), url, { max: 2, visibility: 0 });
    const all = await receive(client(), url, { max: 10, visibility: 0 });

    expect(two.map((m) => m.Body)).toEqual(['1', '2']);
    expect(all.map((m) => m.Body)).toEqual(['1', '2', '3']);
  });

  it('wakes a long poll as soon as a message is sent', async () => {
    const url = await createQueue(client());
    const started = Date.now();

    const polling = receive(client(), url, { wait: 15 });
    await sleep(300);
    await client().send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'wake up' }));
    const [message] = await polling;

    expect(message.Body).toBe('wake up');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('counts visible, in-flight and delayed messages, and PurgeQueue empties the queue', async () => {
    const url = await createQueue(client(), { VisibilityTimeout: '60' });
    await client().send(new SendMessageBatchCommand({ QueueUrl: url, Entries: ['1', '2', '3'].map((n) => ({ Id: n, MessageBody: n })) }));
    await client().send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'delayed', DelaySeconds: 60 }));
    await receive(client(), url, { max: 1 });

    expect(await counts(client(), url)).toEqual({ visible: 2, inFlight: 1, delayed: 1 });
    await client().send(new PurgeQueueCommand({ QueueUrl: url }));
    expect(await counts(client(), url)).toEqual({ visible: 0, inFlight: 0, delayed: 0 });
  });

  it('is idempotent for the same queue name, and answers QueueDoesNotExist for an unknown one', async () => {
    const first = await client().send(new CreateQueueCommand({ QueueName: 'twice', Attributes: { VisibilityTimeout: '5' } }));
    const second = await client().send(new CreateQueueCommand({ QueueName: 'twice', Attributes: { VisibilityTimeout: '5' } }));

    expect(second.QueueUrl).toBe(first.QueueUrl);
    await expect(client().send(new GetQueueUrlCommand({ QueueName: 'no-such-queue' }))).rejects.toMatchObject({ name: 'QueueDoesNotExist', $metadata: { httpStatusCode: 400 } });
    await expect(client().send(new ReceiveMessageCommand({ QueueUrl: first.QueueUrl, MaxNumberOfMessages: 11 }))).rejects.toMatchObject({ name: 'InvalidParameterValue' });
  });
});

describe('durability across a crash', () => {
  let dataDir: string;
  const running: StandIn[] = [];
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'durable-sqs-'));
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.drop()));
    rmSync(dataDir, { recursive: true, force: true });
  });
  const start = async () => {
    const standIn = await startStandIn(dataDir);
    running.push(standIn);
    return standIn;
  };
  const urlOf = async (standIn: StandIn, name: string) => (await standIn.client.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl!;

  it('gives back delayed and in-flight messages with their deadlines and receive counts kept', async () => {
    // Prepare: one message delayed 5 s, one received with a 4 s visibility time-out, one deleted.
    const first = await start();
    const url = await first.client.send(new CreateQueueCommand({ QueueName: 'work', Attributes: { VisibilityTimeout: '30' } })).then((o) => o.QueueUrl!);
    const delayedAt = Date.now();
    await first.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'delayed', DelaySeconds: 5 }));
    await first.client.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: [{ Id: 'a', MessageBody: 'in flight' }, { Id: 'b', MessageBody: 'done' }] }));
    const receivedAt = Date.now();
    const taken = await receive(first.client, url, { visibility: 4 });
    const inFlight = taken.find((m) => m.Body === 'in flight')!;
    await first.client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: taken.find((m) => m.Body === 'done')!.ReceiptHandle }));

    // Act
    await first.drop();
    const second = await start();
    const again = await urlOf(second, 'work');

    // Assess: nothing is visible yet; each message comes back at its own deadline, not at restart.
    expect(await counts(second.client, again)).toEqual({ visible: 0, inFlight: 1, delayed: 1 });
    const [back] = await receive(second.client, again, { wait: 10 });
    expect(Date.now() - receivedAt).toBeGreaterThanOrEqual(4000 - TIMER_SLACK_MS);
    expect(back).toMatchObject({ MessageId: inFlight.MessageId, Body: 'in flight', Attributes: { ApproximateReceiveCount: '2', SentTimestamp: inFlight.Attributes!.SentTimestamp } });
    const [delayed] = await receive(second.client, again, { wait: 10 });
    expect(Date.now() - delayedAt).toBeGreaterThanOrEqual(5000 - TIMER_SLACK_MS);
    expect(delayed).toMatchObject({ Body: 'delayed', Attributes: { ApproximateReceiveCount: '1' } });
    // The queue keeps its attributes too.
    const attributes = (await second.client.send(new GetQueueAttributesCommand({ QueueUrl: again, AttributeNames: ['VisibilityTimeout'] }))).Attributes;
    expect(attributes).toEqual({ VisibilityTimeout: '30' });
  }, 30_000);

  it('makes a message whose visibility lapsed while the stand-in was down visible at once, keeping its receive count', async () => {
    const first = await start();
    const url = await first.client.send(new CreateQueueCommand({ QueueName: 'work' })).then((o) => o.QueueUrl!);
    await first.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'lapsed' }));
    const [taken] = await receive(first.client, url, { visibility: 1 });

    await first.drop();
    await sleep(1200);
    const second = await start();
    const [back] = await receive(second.client, await urlOf(second, 'work'));

    expect(back).toMatchObject({ MessageId: taken.MessageId, Attributes: { ApproximateReceiveCount: '2' } });
    // The receipt handle of the latest receive still deletes it after the restart.
    await second.client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: back.ReceiptHandle }));
    expect(await counts(second.client, url)).toEqual({ visible: 0, inFlight: 0, delayed: 0 });
  });

  it('ignores a torn final journal line and keeps appending after it', async () => {
    const first = await start();
    const url = await first.client.send(new CreateQueueCommand({ QueueName: 'work' })).then((o) => o.QueueUrl!);
    await first.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'kept' }));
    await first.drop();
    const journal = path.join(dataDir, 'journal.jsonl');
    appendFileSync(journal, '{"op":"send","q":"work","m":{"id":"torn-by-a-kil');

    const second = await start();
    await second.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'after' }));
    await second.drop();
    const third = await start();
    const bodies = (await receive(third.client, url)).map((m) => m.Body);

    expect(bodies).toEqual(['kept', 'after']);
    expect(readFileSync(journal, 'utf8')).not.toContain('torn-by-a-kil');
  });

  it('compacts the journal at start to the live messages', async () => {
    const first = await start();
    const url = await first.client.send(new CreateQueueCommand({ QueueName: 'work' })).then((o) => o.QueueUrl!);
    await first.client.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: ['gone', 'stays'].map((b) => ({ Id: b, MessageBody: b })) }));
    const gone = (await receive(first.client, url)).find((m) => m.Body === 'gone')!;
    await first.client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: gone.ReceiptHandle }));
    await first.drop();

    await start();
    const lines = readFileSync(path.join(dataDir, 'journal.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));

    expect(lines.map((l) => l.op)).toEqual(['journal', 'queue', 'send']);
    expect(lines[2].m).toMatchObject({ body: 'stays', receiveCount: 1 });
  });
});

/**
 * Drains the local queues into their consumer workers as Lambda's SQS event source mapping does:
 * batches of SQS records, partial batch failures (`batchItemFailures`), messages left to reappear after
 * the visibility time-out, and the queue's redrive policy parking them in the DLQ after maxReceiveCount.
 */
import type { SQSEvent, SQSRecord, SQSBatchResponse } from 'aws-lambda';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, type SQSClient, type Message } from '@aws-sdk/client-sqs';
import { log } from '../shared/logger';
import type { QueueSpec } from '../shared/pipelines';
import { lambdaContext, type AnyHandler } from './lambda-context';

const WAIT_SECONDS = 1;

/** Batches of each queue handled at once, from `queue=n` pairs (shared/config.ts LOCAL_QUEUE_CONCURRENCY). */
export function parseQueueConcurrency(setting: string): Record<string, number> {
  if (!setting) return {};
  return Object.fromEntries(setting.split(',').map((pair) => pair.split('=')).map(([queue, n]) => [queue, Number(n)]));
}

function toRecord(m: Message, queueArn: string, region: string): SQSRecord {
  const a = m.Attributes ?? {};
  return {
    messageId: m.MessageId!,
    receiptHandle: m.ReceiptHandle!,
    body: m.Body ?? '',
    attributes: {
      ApproximateReceiveCount: a.ApproximateReceiveCount ?? '1',
      SentTimestamp: a.SentTimestamp ?? String(Date.now()),
      SenderId: a.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: a.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: m.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: region,
  };
}

export class QueuePoller {
  private running = false;
  private loops: Promise<void>[] = [];
  private busy = 0;

  constructor(
    private readonly sqs: SQSClient,
    private readonly queues: readonly QueueSpec[],
    private readonly urls: Record<string, string>,
    private readonly loadHandler: (name: string) => Promise<AnyHandler>,
    private readonly region: string,
    /** Batches of each queue handled at once (one receive loop each); a queue not named takes 1. */
    private readonly concurrency: Record<string, number> = {},
  ) {}

  start(): void {
    this.running = true;
    this.loops = this.queues.filter((q) => q.consumer).flatMap((q) => Array.from({ length: this.concurrency[q.id] ?? 1 }, () => this.poll(q)));
  }

  private async poll(queue: QueueSpec): Promise<void> {
    const url = this.urls[queue.id];
    const arn = `arn:aws:sqs:${this.region}:000000000000:${queue.id}`;
    while (this.running) {
      let messages: Message[];
      try {
        const out = await this.sqs.send(
          new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: queue.batchSize, WaitTimeSeconds: WAIT_SECONDS, AttributeNames: ['All'] }),
        );
        // SQS never returns a message twice in one batch; keep one record per message id all the same,
        // so a stand-in that did could not run one message twice at once.
        messages = [...new Map((out.Messages ?? []).map((m) => [m.MessageId, m])).values()];
      } catch (err) {
        if (!this.running) return;
        log.warn('queue receive failed', { queue: queue.id, err });
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      if (!messages.length) continue;
      this.busy++;
      try {
        await this.deliver(queue, url, arn, messages);
      } finally {
        this.busy--;
      }
    }
  }

  private async deliver(queue: QueueSpec, url: string, arn: string, messages: Message[]): Promise<void> {
    const event: SQSEvent = { Records: messages.map((m) => toRecord(m, arn, this.region)) };
    let failed = new Set<string>();
    try {
      const handler = await this.loadHandler(queue.consumer!);
      const result = (await handler(event, lambdaContext(queue.consumer!))) as SQSBatchResponse | undefined;
      failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (err) {
      log.error('queue consumer failed', { queue: queue.id, err });
      failed = new Set(messages.map((m) => m.MessageId!));
    }
    const done = messages.filter((m) => !failed.has(m.MessageId!));
    if (done.length) {
      await this.sqs.send(new DeleteMessageBatchCommand({ QueueUrl: url, Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
    }
  }

  /** True while a batch is being handled. */
  get active(): boolean {
    return this.busy > 0;
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.allSettled(this.loops);
  }
}

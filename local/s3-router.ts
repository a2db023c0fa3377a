/**
 * Routes s3rver's ObjectCreated events to the workers named by the bucket triggers, shaped as AWS
 * sends them. s3rver neither URL-encodes keys nor filters prefixes nor knows the region (ARCHITECTURE 10),
 * so that is done here and the worker's real key decoding is exercised.
 */
import type { S3Event, S3EventRecord } from 'aws-lambda';
import type { EventEmitter } from 'node:events';
import { log } from '../shared/logger';
import type { BucketTrigger } from '../shared/pipelines';
import { lambdaContext, type AnyHandler } from './lambda-context';

/** Lambda retries a failed asynchronous invocation twice. */
const ASYNC_ATTEMPTS = 3;

/** S3 event keys are URL-encoded with spaces as '+', slashes kept. */
export const encodeEventKey = (key: string): string =>
  key.split('/').map((segment) => encodeURIComponent(segment).replace(/%20/g, '+')).join('/');

export class S3EventRouter {
  private inFlight = new Set<Promise<void>>();

  constructor(
    private readonly triggers: readonly BucketTrigger[],
    private readonly loadHandler: (name: string) => Promise<AnyHandler>,
    private readonly region: string,
  ) {}

  attach(source: EventEmitter): void {
    source.on('event', (event: S3Event) => {
      for (const record of event.Records) this.track(this.route(record));
    });
  }

  private track(p: Promise<void>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  private async route(raw: S3EventRecord): Promise<void> {
    if (!raw.eventName.startsWith('ObjectCreated')) return;
    const key = raw.s3.object.key;
    const record: S3EventRecord = { ...raw, awsRegion: this.region, s3: { ...raw.s3, object: { ...raw.s3.object, key: encodeEventKey(key) } } };
    for (const trigger of this.triggers.filter((t) => t.prefixes.some((p) => key.startsWith(p)))) {
      const handler = await this.loadHandler(trigger.handler);
      for (let attempt = 1; attempt <= ASYNC_ATTEMPTS; attempt++) {
        try {
          await handler({ Records: [record] }, lambdaContext(trigger.handler));
          break;
        } catch (err) {
          log.error('bucket trigger failed', { trigger: trigger.id, key, attempt, err });
        }
      }
    }
  }

  /** Resolves when every event received so far has been handled. */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }
}

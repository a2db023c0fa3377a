/**
 * The embedded AWS stand-ins of the local runtime (ARCHITECTURE 6, 10): dynalite for DynamoDB
 * (LevelDB on disk, or memory), s3rver for S3 (a folder), durable-sqs for SQS (a journal on disk that
 * survives a kill, or memory). They run in a worker thread of the same process (emulator-worker.mjs), which
 * keeps them off the handlers' event loop.
 */
import { Worker } from 'node:worker_threads';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import type { S3Event } from 'aws-lambda';

export interface Emulators {
  dynamoEndpoint: string;
  s3Endpoint: string;
  sqsEndpoint: string;
  /** Emits 'event' with each S3 event (s3rver's, as AWS would shape it before encoding). */
  s3Events: EventEmitter;
  /** Stops the S3 stand-in alone (tests of a component that is down). */
  closeS3(): Promise<void>;
  close(): Promise<void>;
}

type WorkerMessage =
  | { type: 'ready'; dynamoEndpoint: string; s3Endpoint: string; sqsEndpoint: string }
  | { type: 's3-event'; event: S3Event }
  | { type: 'closed'; what: 's3' | 'all' };

/** Resolved from the working directory: npm scripts and tests run from the repository root. */
const WORKER_FILE = path.resolve('local/emulator-worker.mjs');

/** Starts the three stand-ins on free loopback ports. `dataDir` undefined keeps DynamoDB in memory. */
export function startEmulators(options: { dataDir?: string; s3Dir: string; region: string }): Promise<Emulators> {
  const worker = new Worker(WORKER_FILE, { workerData: options, execArgv: [] });
  const s3Events = new EventEmitter();
  const closed = new EventEmitter();
  worker.on('message', (m: WorkerMessage) => {
    if (m.type === 's3-event') s3Events.emit('event', m.event);
    if (m.type === 'closed') closed.emit(m.what);
  });
  const request = (type: 'close' | 'close-s3', what: 's3' | 'all') =>
    new Promise<void>((resolve) => {
      closed.once(what, () => resolve());
      worker.postMessage({ type });
    });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (m: WorkerMessage) => {
      if (m.type !== 'ready') return;
      resolve({
        dynamoEndpoint: m.dynamoEndpoint,
        s3Endpoint: m.s3Endpoint,
        sqsEndpoint: m.sqsEndpoint,
        s3Events,
        closeS3: () => request('close-s3', 's3'),
        async close() {
          await request('close', 'all');
          await worker.terminate();
        },
      });
    });
  });
}

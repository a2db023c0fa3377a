/**
 * The asynchronous wiring, declared once beside the route table: work queues (each with a DLQ),
 * event rules (which domain events feed which queue), bucket triggers (which key prefixes invoke
 * which worker) and schedules (which worker runs how often). CDK builds the AWS resources from these lists; the local runtime applies the same
 * rows to its stand-ins. A row with no consumer yet is a queue that its capability will drain.
 */

export interface QueueSpec {
  id: string;
  purpose: string;
  /** Worker module in functions/ (without extension) that consumes the queue, when one exists. */
  consumer?: string;
  /** Seconds a received message stays invisible; longer than the worker's time-out. */
  visibilityTimeoutSeconds: number;
  /** Receives before a message is parked in the DLQ (a poisoned message must not retry forever). */
  maxReceiveCount: number;
  batchSize: number;
}

export interface EventRule {
  id: string;
  /** Domain event types (EventBridge detail-type). */
  eventTypes: string[];
  queue: string;
}

export interface BucketTrigger {
  id: string;
  prefixes: string[];
  /** Worker module in functions/ invoked with S3 ObjectCreated records. */
  handler: string;
}

/** A worker run on a timer: an EventBridge schedule in the cloud, a timer (and a command) locally. */
export type ScheduleSpec = {
  id: string;
  purpose: string;
  /** Worker module in functions/ invoked with no input. */
  handler: string;
  timeoutSeconds: number;
  /**
   * Local runtime only (EventBridge has no "start"): also run once when the runtime starts, with
   * `detail.runtime_started_at`. Only for work that stays on this machine: a local server must not reach
   * out to the internet on start.
   * @default false
   */
  runAtStart?: boolean;
} & ({ everyHours: number; everyMinutes?: never } | { everyMinutes: number; everyHours?: never });

/** The `detail` of a run at start: work last touched before this instant was left by an earlier process. */
export interface StartRunDetail {
  runtime_started_at: string;
}

/** The period of a schedule row, in minutes. */
export const scheduleMinutes = (schedule: ScheduleSpec): number => schedule.everyMinutes ?? schedule.everyHours! * 60;

/**
 * How long the upload-processing worker may run on one file (its Lambda time-out, lib/pipelines/workers.ts).
 * The upload reconciler sizes its thresholds from it (shared/config.ts UPLOAD_STALE_MINUTES).
 */
export const UPLOAD_PROCESSING_TIMEOUT_SECONDS = 300;

export interface Pipelines {
  queues: QueueSpec[];
  rules: EventRule[];
  triggers: BucketTrigger[];
  schedules: ScheduleSpec[];
}

/** EventBridge `source` of every domain event we publish. */
export const EVENT_SOURCE = 'energy-ops';

export const PIPELINES: Pipelines = {
  queues: [
    { id: 'training', purpose: 'model training jobs', consumer: 'workers/train-model', visibilityTimeoutSeconds: 960, maxReceiveCount: 3, batchSize: 1 },
    { id: 'webhooks', purpose: 'signed webhook deliveries', consumer: 'workers/deliver-webhooks', visibilityTimeoutSeconds: 60, maxReceiveCount: 8, batchSize: 10 },
    { id: 'detections', purpose: 'detection and diagnosis after a nowcast for a site with assets', consumer: 'workers/detect-assets', visibilityTimeoutSeconds: 180, maxReceiveCount: 3, batchSize: 1 },
    { id: 'batches', purpose: 'batch-process requests with a callback', consumer: 'workers/run-batch', visibilityTimeoutSeconds: 900, maxReceiveCount: 3, batchSize: 1 },
    { id: 'pv-models', purpose: 'PV specs inferred and the physics tuning learned after new data', consumer: 'workers/refresh-pv', visibilityTimeoutSeconds: 360, maxReceiveCount: 3, batchSize: 1 },
  ],
  rules: [
    { id: 'detection-on-nowcast', eventTypes: ['detection.requested'], queue: 'detections' },
    { id: 'pv-on-ingest', eventTypes: ['data.ingested'], queue: 'pv-models' },
    {
      id: 'webhook-delivery',
      eventTypes: ['order.status_changed', 'training_completed', 'forecast_ready', 'dispatch_executed', 'batch.completed'],
      queue: 'webhooks',
    },
  ],
  triggers: [{ id: 'process-upload', prefixes: ['nowcast/', 'historical/'], handler: 'workers/process-upload' }],
  schedules: [
    { id: 'regulatory-feeds', purpose: 'pull the configured regulatory RSS/Atom feeds', handler: 'workers/pull-regulatory-feeds', everyHours: 24, timeoutSeconds: 300 },
    // Lambda's longest time-out: a pass re-drives uploads one after another (shared/services/uploads/upload-reconciler.ts).
    { id: 'upload-reconciler', purpose: 're-drive uploads stuck queued or processing; fail them after bounded attempts', handler: 'workers/reconcile-uploads', everyMinutes: 15, timeoutSeconds: 900, runAtStart: true },
  ],
};

export const dlqId = (queueId: string) => `${queueId}-dlq`;

/**
 * The local runtime (ARCHITECTURE 6): the embedded stand-ins, the same tables, bucket and queues that
 * CDK creates, the HTTP gateway over the route table, the S3 event router and the queue poller, in one
 * process. The workers they invoke run in worker threads (worker-threads.ts), so this loop serves requests.
 * `npm start` runs it on disk; tests run it in memory on a free port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { config, resetConfig } from '../shared/config';
import { PIPELINES, type Pipelines } from '../shared/pipelines';
import { ROUTES, type Route } from '../shared/routes';
import { forgetCachedKeys } from '../shared/access/authentication';
import { flushRequestStats } from '../shared/access/request-stats';
import { resetClients, s3Client, sqsClient } from '../shared/store/aws-clients';
import { holdStoreLeasesAlone } from '../shared/store/locks';
import { createBucket, createQueues, createTables } from './bootstrap';
import { startEmulators, type Emulators } from './emulators';
import { createGateway } from './http-gateway';
import { loadFunction, type AnyHandler } from './lambda-context';
import { ScheduleRunner } from './schedule-runner';
import { EdgeNode, registerEdgeNode } from '../shared/edge-node/edge-node';
import { QueuePoller, parseQueueConcurrency } from './queue-poller';
import { S3EventRouter } from './s3-router';
import { publishEndpoints, withdrawEndpoints } from './store-access';
import { WorkerThreads } from './worker-threads';

export interface LocalRuntimeOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** Keep data here across restarts; undefined keeps everything in memory (tests). */
  dataDir?: string;
  /** Serve the edge-only routes too. */
  edge?: boolean;
  pipelines?: Pipelines;
  /** The route table to serve (tests add fixture routes). */
  routes?: readonly Route[];
  loadHandler?: (name: string) => Promise<AnyHandler>;
  /** Extra environment for the handlers (rate limits, for example). */
  env?: Record<string, string>;
  /** Overrides every queue's visibility time-out (tests retry faster). */
  visibilityTimeoutSeconds?: number;
}

export interface LocalRuntime {
  url: string;
  port: number;
  emulators: Emulators;
  s3Events: S3EventRouter;
  queues: QueuePoller;
  queueUrls: Record<string, string>;
  /** The threads running the workers; undefined when they run on the API's loop (shared/config.ts LOCAL_WORKER_THREADS). */
  workerThreads: WorkerThreads | undefined;
  schedules: ScheduleRunner;
  close(): Promise<void>;
}

const LOCAL_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' }; // s3rver's fixed key
/** Local defaults of the per-address limits (shared/config.ts has the cloud's: 5 a day, 20 a minute). */
const LOCAL_REGISTRATIONS_PER_ADDRESS_PER_DAY = 1000;
const LOCAL_AUTH_FAILURES_PER_ADDRESS_PER_MINUTE = 1000;

export async function startLocalRuntime(options: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  const pipelines = options.pipelines ?? PIPELINES;
  const loadHandler = options.loadHandler ?? loadFunction;
  const scratch = options.dataDir ? undefined : mkdtempSync(path.join(tmpdir(), 'energy-ops-'));
  const s3Dir = path.join(options.dataDir ?? scratch!, 's3');
  const region = options.env?.AWS_REGION ?? process.env.AWS_REGION ?? 'us-east-1';
  const emulators = await startEmulators({ dataDir: options.dataDir, s3Dir, region });

  Object.assign(process.env, LOCAL_CREDENTIALS, {
    // Versions are pinned in the lockfile; Lambda runs Node 22 (ARCHITECTURE 10).
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    AWS_REGION: region,
    AWS_ENDPOINT_URL_DYNAMODB: emulators.dynamoEndpoint,
    AWS_ENDPOINT_URL_S3: emulators.s3Endpoint,
    AWS_ENDPOINT_URL_SQS: emulators.sqsEndpoint,
    AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
    EVENT_TRANSPORT: 'local',
    // Development receivers listen on this machine (ARCHITECTURE 9 allows loopback locally), unless the
    // environment says otherwise (an edge node facing a site network sets CALLBACK_HOSTS=public).
    CALLBACK_HOSTS: process.env.CALLBACK_HOSTS ?? 'loopback',
    // Every caller of a local runtime shares one address (loopback, or a site's NAT at an edge node), and the
    // conformance suite registers about a hundred accounts and tries ~70 unknown keys a run: the per-address
    // limits get local defaults, which the environment (or `env` here) overrides. README: configuration.
    REGISTRATIONS_PER_ADDRESS_PER_DAY: process.env.REGISTRATIONS_PER_ADDRESS_PER_DAY ?? String(LOCAL_REGISTRATIONS_PER_ADDRESS_PER_DAY),
    AUTH_FAILURES_PER_ADDRESS_PER_MINUTE: process.env.AUTH_FAILURES_PER_ADDRESS_PER_MINUTE ?? String(LOCAL_AUTH_FAILURES_PER_ADDRESS_PER_MINUTE),
    DISK_PATH: options.dataDir ?? scratch!,
    EDGE_ARCHIVE_RESULTS: options.edge ? '1' : '0',
    ...options.env,
  });
  resetConfig();
  resetClients();
  forgetCachedKeys();

  const dynamo = new DynamoDBClient({ region });
  await createTables(dynamo, config());
  dynamo.destroy();
  await createBucket(s3Client(), config().DATA_BUCKET);
  const queueUrls = await createQueues(sqsClient(), pipelines, { visibilityTimeoutSeconds: options.visibilityTimeoutSeconds });
  process.env.QUEUE_URLS = JSON.stringify(queueUrls);
  resetConfig();

  // Workers run in threads of their own once the environment they inherit is complete (endpoints, QUEUE_URLS);
  // fixture handlers given by a test are functions of its own thread, so they run on this loop.
  const workerThreads = !options.loadHandler && config().LOCAL_WORKER_THREADS === '1' ? new WorkerThreads() : undefined;
  const loadWorker = workerThreads?.loadHandler ?? loadHandler;
  const s3Events = new S3EventRouter(pipelines.triggers, loadWorker, region);
  s3Events.attach(emulators.s3Events);
  const queues = new QueuePoller(sqsClient(), pipelines.queues, queueUrls, loadWorker, region, parseQueueConcurrency(config().LOCAL_QUEUE_CONCURRENCY));
  queues.start();
  // This process is the store's only opener, so whatever an earlier process left in flight is orphaned: its
  // series leases are taken over on sight, and the upload reconciler (a `runAtStart` row) re-drives at start
  // every upload left queued or processing before now, whatever its age, then runs on its schedule.
  holdStoreLeasesAlone();
  const schedules = new ScheduleRunner(pipelines.schedules, loadWorker);
  schedules.start();
  // An edge node keeps its id, settings and sync queue beside its data, so it needs a data directory of its own.
  const edge = options.edge ? new EdgeNode(options.dataDir ?? scratch!) : undefined;
  registerEdgeNode(edge);
  edge?.start(emulators.s3Events);

  const routes = (options.routes ?? ROUTES).filter((r) => options.edge || !r.edgeOnly);
  const server: Server = createGateway({ routes, loadHandler });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  if (options.dataDir) publishEndpoints(options.dataDir, { dynamo: emulators.dynamoEndpoint, s3: emulators.s3Endpoint, sqs: emulators.sqsEndpoint });

  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    emulators,
    s3Events,
    queues,
    queueUrls,
    workerThreads,
    schedules,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await queues.stop();
      await schedules.stop();
      await edge?.close();
      registerEdgeNode(undefined);
      await s3Events.idle();
      await workerThreads?.close();
      await flushRequestStats(true);
      resetClients();
      await emulators.close();
      if (options.dataDir) withdrawEndpoints(options.dataDir);
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/**
 * Heavy work off the request path (issue 20 item 3): the local runtime runs queue consumers, bucket triggers
 * and scheduled workers in worker threads (local/worker-threads.ts), with a configured number of
 * batches per queue, and the API's loop stays free while a training computes.
 */
import type { SQSEvent } from 'aws-lambda';
import { isMainThread } from 'node:worker_threads';
import { call, enterpriseKey, useRuntime } from '../helpers/runtime';
import { form, postForm, settled, solarCsv } from '../helpers/uploads';
import { enqueue } from '../../shared/events/queues';
import { config, resetConfig } from '../../shared/config';
import { parseQueueConcurrency } from '../../local/queue-poller';
import { laneOf, ThreadedHandlerError } from '../../local/worker-threads';
import { lambdaContext } from '../../local/lambda-context';
import { listModelsOfSite } from '../../shared/store/models-repo';
import { nearestRank } from '../../bench/scale/api-latency';
import type { Pipelines } from '../../shared/pipelines';
import { until } from '../helpers/poll';

const uid = () => Math.random().toString(36).slice(2, 10);

describe('worker-thread settings', () => {
  afterEach(() => {
    delete process.env.LOCAL_QUEUE_CONCURRENCY;
    resetConfig();
  });

  it('reads the batches per queue from queue=n pairs, a queue not named taking 1', () => {
    expect(parseQueueConcurrency('training=1,webhooks=4')).toEqual({ training: 1, webhooks: 4 });
    expect(parseQueueConcurrency('')).toEqual({});
  });

  it('refuses a concurrency of 0 or a malformed setting at start', () => {
    process.env.LOCAL_QUEUE_CONCURRENCY = 'training=0';
    resetConfig();
    expect(() => config()).toThrow();
    process.env.LOCAL_QUEUE_CONCURRENCY = 'training:2';
    resetConfig();
    expect(() => config()).toThrow();
  });

  it('runs the upload reconciler beside process-upload, since both take the series leases', () => {
    expect(laneOf('workers/reconcile-uploads')).toBe('workers/process-upload');
    expect(laneOf('workers/train-model')).toBe('workers/train-model');
  });
});

describe('queue concurrency', () => {
  // Fixture handlers are functions of this thread, so this runtime runs them on its loop (runtime.ts).
  let inFlight = 0;
  let mostAtOnce = 0;
  const handled: string[] = [];
  const pipelines: Pipelines = {
    queues: [{ id: 'slow', purpose: 'test', consumer: 'slow-consumer', visibilityTimeoutSeconds: 30, maxReceiveCount: 2, batchSize: 1 }],
    rules: [],
    triggers: [],
    schedules: [],
  };
  const slowConsumer = async (event: SQSEvent) => {
    inFlight++;
    mostAtOnce = Math.max(mostAtOnce, inFlight);
    await new Promise((r) => setTimeout(r, 400));
    handled.push(...event.Records.map((r) => r.body));
    inFlight--;
  };
  useRuntime({ pipelines, loadHandler: async () => slowConsumer, env: { LOCAL_QUEUE_CONCURRENCY: 'slow=3' } });
  afterAll(() => {
    process.env.LOCAL_QUEUE_CONCURRENCY = '';
    resetConfig();
  });

  it('handles as many batches of a queue at once as configured', async () => {
    for (let n = 0; n < 6; n++) await enqueue('slow', { n });
    await until(() => handled.length === 6, { ms: 20_000, every: 50 });
    expect(mostAtOnce).toBe(3);
  });
});

describe('workers in threads', () => {
  const runtime = useRuntime({ env: { LOCAL_WORKER_THREADS: '1', LOCAL_QUEUE_CONCURRENCY: '' } });
  let key: string;
  beforeAll(async () => {
    key = await enterpriseKey(runtime());
  });

  it('runs a handler in its lane thread and brings its error back by name', async () => {
    const handler = await runtime().workerThreads!.loadHandler('workers/process-upload');
    // An event with no records: the worker's loop over them throws a TypeError in the thread.
    const error = await handler({}, lambdaContext('workers/process-upload')).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ThreadedHandlerError);
    expect((error as Error).name).toBe('TypeError');
    expect((error as Error).message).toMatch(/not iterable|undefined/);
    expect(isMainThread).toBe(true);
    expect(runtime().workerThreads!.lanesUsed).toContain('workers/process-upload');
  });

  it('keeps GET /api/usage answering while an automatic training computes in its thread', async () => {
    const f = { customer_id: `cust-${uid()}`, site_id: `site-${uid()}`, region: 'eu-central-1', location: 'Berlin' };
    const up = await postForm(runtime(), '/upload_train', key, form(f, solarCsv(190 * 24)));
    expect(up.status).toBe(200);
    expect(await settled(runtime(), key, up.body.upload_id)).toMatchObject({ status: 'processed' });

    const latencies: number[] = [];
    let trained = false;
    const watch = until(async () => (trained = (await listModelsOfSite(f.customer_id, f.site_id)).length > 0), { ms: 120_000, every: 50 });
    while (!trained) {
      const started = performance.now();
      const usage = await call(runtime(), 'GET', '/api/usage', { key });
      latencies.push(performance.now() - started);
      expect(usage.status).toBe(200);
    }
    await watch;
    expect(runtime().workerThreads!.lanesUsed).toEqual(expect.arrayContaining(['workers/process-upload', 'workers/train-model']));
    // In the API's loop a training held requests for seconds (issue 20: 18-20 s); the 100 ms target is the
    // bench's (bench/scale/api-latency.ts). Here a bound that two busy cores shared by other test files keep.
    expect(latencies.length).toBeGreaterThanOrEqual(5);
    expect(nearestRank([...latencies].sort((a, b) => a - b), 0.99)).toBeLessThan(1000);
  }, 150_000);
});

/**
 * Inside one worker thread of the local runtime (worker-threads.ts): runs the queue consumers, bucket triggers
 * or scheduled workers of its lane, each job as Lambda would invoke it, and answers with the handler's result or
 * its error. Several jobs may be in flight at once (the lane's concurrency); they share this thread's loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { resetConfig } from '../shared/config';
import { holdStoreLeasesAlone } from '../shared/store/locks';
import { lambdaContext, loadFunction } from './lambda-context';
import type { JobReply, JobRequest, ThreadData } from './worker-thread-messages';

const port = parentPort!;
const data = workerData as ThreadData;

// The lease names a lane takes are taken by no other lane (worker-threads.ts, LANES), and the runtime is the
// store's only opener, so a lease that is not this thread's was left by a process that died: take it over.
if (data.holdLeasesAlone) holdStoreLeasesAlone();

/** An Error crosses postMessage by structured clone, which drops its name and own fields: send them plainly. */
const describe = (err: unknown): JobReply['error'] =>
  err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : { name: 'Error', message: String(err) };

/** Takes the runtime's environment as it was when the job was sent, and re-reads the config where it changed. */
function adoptEnvironment(env: Record<string, string | undefined>): void {
  let changed = false;
  for (const name of Object.keys(process.env)) {
    if (!(name in env)) {
      delete process.env[name];
      changed = true;
    }
  }
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && process.env[name] !== value) {
      process.env[name] = value;
      changed = true;
    }
  }
  if (changed) resetConfig();
}

port.on('message', (job: JobRequest) => {
  void (async () => {
    try {
      adoptEnvironment(job.env);
      const handler = await loadFunction(job.handler);
      const result: unknown = await handler(job.event, lambdaContext(job.handler));
      port.postMessage({ id: job.id, result } satisfies JobReply);
    } catch (err) {
      port.postMessage({ id: job.id, error: describe(err) } satisfies JobReply);
    }
  })();
});
port.postMessage({ ready: true });

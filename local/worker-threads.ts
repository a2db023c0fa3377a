/**
 * Worker threads for the local runtime's heavy work (issue 20): queue consumers, bucket triggers and scheduled
 * workers run in threads of their own, so the API's event loop only serves requests (an automatic training is
 * CPU-bound for seconds). A thread per lane, started on its first job and restarted after a crash; the poller,
 * router and schedule runner stay on the main thread, so a message is still deleted only after its handler
 * succeeded in the thread. Threads inherit this process's environment when they start (the stand-ins'
 * endpoints, QUEUE_URLS, credentials), so they reach the same stores with the same configuration.
 */
import { Worker } from 'node:worker_threads';
import path from 'node:path';
import { log } from '../shared/logger';
import type { AnyHandler } from './lambda-context';
import type { JobReply, JobRequest, ThreadData } from './worker-thread-messages';

/** Resolved from the working directory, as emulators.ts does: npm scripts and tests run from the repository root. */
const BOOTSTRAP = path.resolve('local/worker-thread.mjs');

/**
 * Each handler runs in the lane named after its module, except these, which share another's thread: the upload
 * reconciler re-drives uploads under the same series leases as process-upload. A lease is taken over on sight
 * when another process id holds it (shared/store/locks.ts), and each thread has its own id, so every lease name
 * must be taken in one lane only: today `series#` (process-upload, reconcile-uploads) and `models#` (train-model).
 */
const SHARED_LANES: Record<string, string> = { 'workers/reconcile-uploads': 'workers/process-upload' };

export const laneOf = (handler: string): string => SHARED_LANES[handler] ?? handler;

/** An error thrown in a thread, rebuilt with its name and message on this side. */
export class ThreadedHandlerError extends Error {
  constructor(name: string, message: string, stack?: string) {
    super(message);
    this.name = name;
    if (stack) this.stack = stack;
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

class Lane {
  private worker: Worker | undefined;
  private pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(private readonly name: string) {}

  private start(): Worker {
    // The environment is passed as it is now, not left to the default: under jest `process.env` is a per-file
    // copy that the runtime has written its endpoints into, while a thread would inherit the real one.
    const worker = new Worker(BOOTSTRAP, { workerData: { lane: this.name, holdLeasesAlone: true } satisfies ThreadData, env: { ...process.env }, execArgv: [] });
    worker.on('message', (m: JobReply | { ready: true }) => {
      if (!('id' in m)) return;
      const job = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.error) job?.reject(new ThreadedHandlerError(m.error.name, m.error.message, m.error.stack));
      else job?.resolve(m.result);
    });
    // A thread that dies takes its jobs with it: they fail (their messages reappear after the visibility
    // time-out, as after a Lambda crash), and the next job starts a new thread.
    const lost = (reason: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (this.pending.size) log.error('worker thread lost with jobs in flight', { lane: this.name, jobs: this.pending.size, reason });
      for (const job of this.pending.values()) job.reject(new Error(`worker thread ${this.name} ${reason}`));
      this.pending.clear();
    };
    worker.on('error', (err) => lost(`failed: ${err.message}`));
    worker.on('exit', (code) => lost(`exited with code ${code}`));
    this.worker = worker;
    return worker;
  }

  run(handler: string, event: unknown): Promise<unknown> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, handler, event, env: { ...process.env } } satisfies JobRequest);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}

export class WorkerThreads {
  private lanes = new Map<string, Lane>();

  /** A `loadHandler` whose handlers run in their lane's thread (the context is made there). */
  readonly loadHandler = async (name: string): Promise<AnyHandler> => {
    const laneName = laneOf(name);
    return (event: unknown) => {
      let lane = this.lanes.get(laneName);
      if (!lane) this.lanes.set(laneName, (lane = new Lane(laneName)));
      return lane.run(name, event);
    };
  };

  /** The lanes that have run a job (each has, or had, its thread). */
  get lanesUsed(): string[] {
    return [...this.lanes.keys()];
  }

  /** Stops every thread; call once nothing more is sent to them. */
  async close(): Promise<void> {
    await Promise.all([...this.lanes.values()].map((lane) => lane.close()));
    this.lanes.clear();
  }
}

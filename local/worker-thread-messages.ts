/** What the local runtime and its worker threads (worker-threads.ts, worker-thread-handlers.ts) send each other. */

export interface ThreadData {
  lane: string;
  /** True when the lease names this lane takes are taken by no other thread (worker-thread-handlers.ts). */
  holdLeasesAlone: boolean;
}

/** One invocation: a module of functions/ and its Lambda event. */
export interface JobRequest {
  id: number;
  handler: string;
  event: unknown;
  /** The runtime's environment when the job was sent: a thread follows it (tests change settings between jobs). */
  env: Record<string, string | undefined>;
}

export type JobReply = { id: number; result?: unknown; error?: { name: string; message: string; stack?: string } };

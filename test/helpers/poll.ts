/** Waiting in tests for what happens elsewhere (a worker, a queue, a restarted server), with a deadline. */

export interface PollOptions {
  /** What is awaited, for the error when the deadline passes. @default 'condition' */
  what?: string;
  /** @default 15_000 */
  ms?: number;
  /** Pause between probes, ms. @default 100 */
  every?: number;
}

/** Probes until it answers a value other than undefined, and resolves with it; throws once `ms` have passed. */
export async function pollFor<T>(probe: () => T | undefined | Promise<T | undefined>, { what = 'condition', ms = 15_000, every = 100 }: PollOptions = {}): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** Waits until `condition` holds; throws once `ms` have passed. */
export async function until(condition: () => boolean | Promise<boolean>, options?: PollOptions): Promise<void> {
  await pollFor(async () => ((await condition()) ? true : undefined), options);
}

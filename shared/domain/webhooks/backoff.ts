/**
 * When a failed webhook delivery is tried again: exponential backoff, the delay doubling after each failed
 * attempt from `baseDelaySeconds`, capped at `maxDelaySeconds`, for at most `maxAttempts` attempts in all.
 * The schedule is the ceiling of each wait; `withJitter` spreads the actual wait over its upper half
 * ("equal jitter", Brooker 2015, AWS Architecture Blog "Exponential Backoff And Jitter"), so receivers that
 * failed together are not retried together.
 */

export interface RetryPolicy {
  /** Attempts in all, the first included; at least 1. */
  maxAttempts: number;
  /** Delay before the second attempt, in seconds; 0 retries at once (tests). */
  baseDelaySeconds: number;
  /** Ceiling of any one delay (SQS DelaySeconds allows at most 900). */
  maxDelaySeconds: number;
}

/** Seconds to wait after failed attempt `attempt` (1 is the first) before the next, or undefined when it was the last. */
export function retryDelaySeconds(attempt: number, policy: RetryPolicy): number | undefined {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be a positive integer, got ${attempt}`);
  if (attempt >= policy.maxAttempts) return undefined;
  return Math.min(policy.maxDelaySeconds, policy.baseDelaySeconds * 2 ** (attempt - 1));
}

/** Every delay of the policy, in order: what a delivery that always fails waits in all. */
export function retrySchedule(policy: RetryPolicy): number[] {
  const delays: number[] = [];
  for (let attempt = 1; attempt < policy.maxAttempts; attempt++) delays.push(retryDelaySeconds(attempt, policy)!);
  return delays;
}

/** A wait between half the ceiling and the ceiling, whole seconds (SQS delays are integers). */
export function withJitter(ceilingSeconds: number, random: () => number = Math.random): number {
  const half = ceilingSeconds / 2;
  return Math.round(half + random() * half);
}

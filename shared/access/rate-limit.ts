/** Fixed one-minute windows per key or client address (ARCHITECTURE 3). */
import { config } from '../config';
import { countRequest } from '../store/rate-windows-repo';
import type { Tier } from '../domain/accounts/tiers';

export const WINDOW_SECONDS = 60;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix epoch seconds at which the window ends. */
  reset: number;
  /** Events counted in this window so far, this one included. */
  used: number;
}

export function limitFor(tier: Tier | 'anonymous'): number {
  const c = config();
  return { free: c.RATE_LIMIT_FREE, professional: c.RATE_LIMIT_PROFESSIONAL, enterprise: c.RATE_LIMIT_ENTERPRISE, anonymous: c.RATE_LIMIT_ANONYMOUS }[tier];
}

export const takeRequest = (subject: string, tier: Tier | 'anonymous', now = Date.now()): Promise<RateDecision> => takeAllowance(subject, limitFor(tier), WINDOW_SECONDS, now);

export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  return { 'x-ratelimit-limit': String(d.limit), 'x-ratelimit-remaining': String(d.remaining), 'x-ratelimit-reset': String(d.reset) };
}

const DAY_SECONDS = 86_400;

/**
 * Counts one event against `limit` per fixed window of `windowSeconds` (aligned to the epoch, so daily windows
 * are UTC days). Every call counts, allowed or not.
 */
export async function takeAllowance(subject: string, limit: number, windowSeconds: number, now = Date.now()): Promise<RateDecision> {
  const windowStart = Math.floor(now / 1000 / windowSeconds) * windowSeconds;
  const count = await countRequest(subject, windowStart, windowSeconds);
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), reset: windowStart + windowSeconds, used: count };
}

/** A daily allowance per subject (UTC days), e.g. freemium forecasts per e-mail address. */
export const takeDailyAllowance = (subject: string, perDay: number, now = Date.now()): Promise<RateDecision> => takeAllowance(subject, perDay, DAY_SECONDS, now);

/** Whole seconds until a decision's window ends, at least 1: the Retry-After of a refusal. */
export const secondsUntilReset = (decision: RateDecision, now = Date.now()): number => Math.max(1, decision.reset - Math.floor(now / 1000));

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
}

export function limitFor(tier: Tier | 'anonymous'): number {
  const c = config();
  return { free: c.RATE_LIMIT_FREE, professional: c.RATE_LIMIT_PROFESSIONAL, enterprise: c.RATE_LIMIT_ENTERPRISE, anonymous: c.RATE_LIMIT_ANONYMOUS }[tier];
}

export async function takeRequest(subject: string, tier: Tier | 'anonymous', now = Date.now()): Promise<RateDecision> {
  const windowStart = Math.floor(now / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS;
  const limit = limitFor(tier);
  const count = await countRequest(subject, windowStart);
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), reset: windowStart + WINDOW_SECONDS };
}

export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  return { 'x-ratelimit-limit': String(d.limit), 'x-ratelimit-remaining': String(d.remaining), 'x-ratelimit-reset': String(d.reset) };
}

const DAY_SECONDS = 86_400;

/** A daily allowance per subject (UTC days), e.g. freemium forecasts per e-mail address. */
export async function takeDailyAllowance(subject: string, perDay: number, now = Date.now()): Promise<RateDecision> {
  const windowStart = Math.floor(now / 1000 / DAY_SECONDS) * DAY_SECONDS;
  const count = await countRequest(subject, windowStart, DAY_SECONDS);
  return { allowed: count <= perDay, limit: perDay, remaining: Math.max(0, perDay - count), reset: windowStart + DAY_SECONDS };
}

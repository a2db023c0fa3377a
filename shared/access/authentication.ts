/**
 * Resolves an API key to its caller. Resolved keys are kept in memory for KEY_CACHE_SECONDS so the hot
 * path costs no store read; a revoked key or a tier change is therefore seen within that time.
 *
 * Failed keys are counted per client address (AUTH_FAILURES_PER_ADDRESS_PER_MINUTE, one-minute windows in
 * the store, so every Lambda instance sees the same count). Past the limit a failed key answers 429 with
 * Retry-After instead of 401, until the window ends. A valid key is always checked first and always passes:
 * an office NAT shares its address with whoever is guessing behind it, and keys carry 256 random bits, so
 * the limit is back-pressure and a signal (logged once per window), not what keeps keys secret.
 */
import { config } from '../config';
import { RateLimited, Unauthorized } from '../errors';
import { MAX_KEY_LENGTH, hashApiKey } from '../domain/accounts/api-key';
import { addressScope } from '../domain/accounts/client-address';
import { log } from '../logger';
import { findKey } from '../store/accounts-repo';
import type { Tier } from '../domain/accounts/tiers';
import { secondsUntilReset, takeAllowance, WINDOW_SECONDS } from './rate-limit';

export interface Caller {
  accountId: string;
  email: string;
  tier: Tier;
  /** SHA-256 of the key: the rate-limit subject (never the key itself). */
  keyHash: string;
}

const CACHE_MAX_ENTRIES = 10_000;
const cache = new Map<string, { caller: Caller; until: number }>();
export const keyCacheStats = { hits: 0, misses: 0 };

/** Where a request came from: its client address as the gateway saw it. */
export interface RequestOrigin {
  address: string;
}

/**
 * The caller a key belongs to; 401 when there is none. With `origin`, a presented key that fails counts
 * against its address, and past the limit fails with 429 instead (a missing key is not counted: nothing
 * was tried).
 */
export async function authenticate(presentedKey: string | undefined, origin?: RequestOrigin): Promise<Caller> {
  if (!presentedKey) throw new Unauthorized();
  try {
    return await resolveKey(presentedKey);
  } catch (err) {
    if (err instanceof Unauthorized && origin) await countFailure(origin.address);
    throw err;
  }
}

async function countFailure(address: string): Promise<void> {
  const scope = addressScope(address);
  const failures = await takeAllowance(`auth-failures:${scope}`, config().AUTH_FAILURES_PER_ADDRESS_PER_MINUTE, WINDOW_SECONDS);
  if (failures.allowed) return;
  // Only the first refusal of a window is logged (the address, never a key): one line per burst, not one per guess.
  if (failures.used === failures.limit + 1) {
    log.warn('failed authentications over the limit', { address: scope, limit: failures.limit, window_ends: new Date(failures.reset * 1000).toISOString() });
  }
  throw new RateLimited(secondsUntilReset(failures), 'Too many failed authentications from this address');
}

async function resolveKey(presentedKey: string): Promise<Caller> {
  if (presentedKey.length > MAX_KEY_LENGTH) throw new Unauthorized();
  const keyHash = hashApiKey(presentedKey);
  const now = Date.now();
  const cached = cache.get(keyHash);
  if (cached && cached.until > now) {
    keyCacheStats.hits++;
    return cached.caller;
  }
  keyCacheStats.misses++;
  const record = await findKey(keyHash);
  if (!record) throw new Unauthorized();
  const caller: Caller = { accountId: record.account_id, email: record.email, tier: record.tier, keyHash };
  if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(keyHash, { caller, until: now + config().KEY_CACHE_SECONDS * 1000 });
  return caller;
}

/** The presented key from `x-api-key` or `Authorization: Bearer` (both accepted everywhere; ARCHITECTURE 3). */
export function presentedKey(headers: Record<string, string | undefined>): string | undefined {
  const header = headers['x-api-key']?.trim();
  if (header) return header;
  const authorization = headers.authorization?.trim();
  if (!authorization) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(authorization);
  return match ? match[1] : undefined;
}

export function forgetCachedKeys(): void {
  cache.clear();
}

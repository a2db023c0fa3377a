/**
 * Resolves an API key to its caller. Resolved keys are kept in memory for KEY_CACHE_SECONDS so the hot
 * path costs no store read; a revoked key or a tier change is therefore seen within that time.
 */
import { config } from '../config';
import { Unauthorized } from '../errors';
import { MAX_KEY_LENGTH, hashApiKey } from '../domain/accounts/api-key';
import { findKey } from '../store/accounts-repo';
import type { Tier } from '../domain/accounts/tiers';

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

export async function authenticate(presentedKey: string | undefined): Promise<Caller> {
  if (!presentedKey || presentedKey.length > MAX_KEY_LENGTH) throw new Unauthorized();
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

/** API keys: random, shown once, stored only as a SHA-256 hash (ARCHITECTURE 3). */
import { createHash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'eo_live_';
const KEY_BYTES = 32;

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(KEY_BYTES).toString('base64url');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The part of a key that may be shown to an operator or logged: the readable prefix and four characters. */
export function keyHint(key: string): string {
  return `${key.slice(0, KEY_PREFIX.length + 4)}…`;
}

/** Anything longer is not one of our keys; refused before hashing. */
export const MAX_KEY_LENGTH = 256;

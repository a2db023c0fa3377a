/**
 * Standard Webhooks signing (standardwebhooks.com, v1): `webhook-signature` is `v1,` and the base64
 * HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`; the timestamp is integer Unix seconds.
 * The key of a `whsec_` secret is the base64 after the prefix (the standard's form); any other secret is
 * used as its UTF-8 bytes.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

const STANDARD_PREFIX = 'whsec_';

/** A secret in the standard's form: `whsec_` and base64 of 12 to 128 bytes. */
export const STANDARD_SECRET = /^whsec_[A-Za-z0-9+/]{16,172}={0,2}$/;

/** A new secret for a receiver that gave none: `whsec_` and 24 random bytes in base64. */
export const newWebhookSecret = (): string => `${STANDARD_PREFIX}${randomBytes(24).toString('base64')}`;

export type SignedHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/**
 * The library's signer for a secret. Throws for a `whsec_` secret whose remainder is not base64 of at least
 * one byte. A raw secret is handed over as UTF-8 bytes: the library's own raw mode keeps only the low byte of
 * each UTF-16 unit, which would sign a non-ASCII secret with some other key.
 */
export function webhookSigner(secret: string): Webhook {
  if (secret.startsWith(STANDARD_PREFIX)) return new Webhook(secret);
  return new Webhook(new Uint8Array(new TextEncoder().encode(secret)), { format: 'raw' });
}

/** Whether deliveries can be signed with this secret (see webhookSigner). */
export function isUsableSecret(secret: string): boolean {
  try {
    webhookSigner(secret);
    return true;
  } catch {
    return false;
  }
}

/** The three Standard Webhooks headers for one attempt to send `body` (signed exactly as it is sent). */
export function signedHeaders(secret: string, messageId: string, at: Date, body: string): SignedHeaders {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': webhookSigner(secret).sign(messageId, at, body),
  };
}

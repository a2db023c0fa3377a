/** Fixed request windows per subject (a key hash, a client address, an e-mail address). */
import { addToCounters } from './dynamo';
import { keys } from './keys';

/** Windows are kept a little past their end so that TTL clean-up never races a late request. */
const WINDOW_RETENTION_SECONDS = 120;

/** Counts one request in the window starting at `windowStart` (epoch seconds); returns the count so far. */
export async function countRequest(subject: string, windowStart: number, windowSeconds = 60): Promise<number> {
  const counted = await addToCounters('accounts', keys.rateWindow(subject, windowStart), { requests: 1 }, windowStart + windowSeconds + WINDOW_RETENTION_SECONDS);
  return Number(counted.requests ?? 1);
}

/**
 * One delivery attempt as a webhook registration (GET /api/webhooks) or an order-tracking subscription
 * (POST /terminal/track `list`) shows it in `recent_deliveries`: what happened, never what was sent or signed.
 */

/** Attempts each registration or subscription keeps, newest first: a receiver's recent health, small enough to rewrite on every attempt. */
export const RECENT_DELIVERIES = 10;

export interface DeliveryOutcome {
  event_id: string;
  event_type: string;
  /** 1 for the first attempt of the event to this receiver, then one more per retry. */
  attempt: number;
  /** When the attempt started (ISO 8601, UTC). */
  at: string;
  outcome: 'delivered' | 'failed';
  /** The receiver's HTTP status; null when no answer came (refused, network error, time-out). */
  status_code: number | null;
  /** Why the attempt failed (`HTTP 503`, `timed out after 10000 ms`, ...); null when delivered. */
  reason: string | null;
}

/**
 * Delivery of domain events to webhook receivers (ARCHITECTURE 5, flow 4). The `webhooks` queue carries two
 * kinds of message: a domain event, as the event rule puts it there, and a retry of one event to one
 * recipient. An event goes to every recipient its type's resolver names (RECIPIENT_RESOLVERS); each POST is
 * signed (Standard Webhooks). A failed attempt (network error, time-out, status other than 2xx) is sent
 * again later as a retry message with an SQS delay that doubles each time; after the last attempt the
 * delivery is parked: recorded in the store with every failure, and copied to the queue's DLQ. Every attempt's
 * outcome is also listed on the registration or subscription it went to (`recent_deliveries`).
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { config } from '../../config';
import { addressProblem, callbackUrlProblem } from '../../domain/webhooks/callback-url';
import { retryDelaySeconds, withJitter, type RetryPolicy } from '../../domain/webhooks/backoff';
import { webhookPayload } from '../../domain/webhooks/events';
import { signedHeaders } from '../../domain/webhooks/signing';
import type { DeliveryOutcome } from '../../domain/webhooks/delivery-outcome';
import type { DomainEvent } from '../../events/event-bus';
import { enqueue, MAX_DELAY_SECONDS, sendToDeadLetterQueue } from '../../events/queues';
import { log } from '../../logger';
import type { DeliveryAttempt, DeliveryRetry, WebhookQueueMessage } from '../../schemas/webhooks';
import { getBatch } from '../../store/batches-repo';
import { deactivateSubscription, listSubscriptions, recordSubscriptionDelivery } from '../../store/operations-repo';
import { recordWebhookDelivery, saveParkedDelivery, type ParkedDelivery } from '../../store/webhooks-repo';
import { registrationsFor } from './webhooks';

/** The queue of shared/pipelines.ts that event rules feed and retries return to. */
export const WEBHOOKS_QUEUE = 'webhooks';

/** Where one delivery goes and the secret that signs it. */
export interface WebhookRecipient {
  /** Stable for the same event and receiver: a retry finds its recipient again by this id. */
  id: string;
  url: string;
  secret: string;
  /**
   * What the POST carries: the `{type, id, created_at, data}` envelope (registrations, ARCHITECTURE 9), or
   * the event's data alone (order-tracking subscriptions: the spec's order_id, status, updated_at,
   * completion_notes). @default 'envelope'
   */
  body?: 'envelope' | 'data';
  /** Called when the receiver answers 410 Gone: the subscription ends and no retry follows. */
  onGone?: () => Promise<void>;
  /** Lists each attempt's outcome where its owner sees it (the registration or subscription); none for batch callbacks. */
  record?: (outcome: DeliveryOutcome) => Promise<unknown>;
}

/** The recipients of one event. Resolved again on every retry, so a removed receiver stops receiving. */
export type RecipientResolver = (event: DomainEvent) => Promise<WebhookRecipient[]>;

/** The caller's registrations (POST /api/webhooks) subscribed to the event's type. */
export const registeredRecipients: RecipientResolver = async (event) =>
  (await registrationsFor(event.account_id, event.type)).map((w) => ({ id: w.webhook_id, url: w.webhook_url, secret: w.secret, record: (o: DeliveryOutcome) => recordWebhookDelivery(w.account_id, w.webhook_id, o) }));

/**
 * Who receives each event type: the extension point of webhook delivery. A capability that sends another
 * event adds its type here with a resolver of its own, and nothing else changes:
 * - `order.status_changed` (asset operations): the order's active tracking subscriptions, each with its own
 *   callback_url and secret (subscription id as recipient id);
 * - `batch.completed` (batch processing): the callback_url of the batch named in the event's data.
 * An event type without a resolver, or with no recipients, is acknowledged and dropped.
 */
/** The order's active tracking subscriptions (POST /terminal/track), each signed with its own secret. */
export const orderSubscribers: RecipientResolver = async (event) => {
  const orderId = (event.data as { order_id?: string } | undefined)?.order_id;
  if (!orderId) return [];
  return (await listSubscriptions(event.account_id, orderId))
    .filter((s) => s.status === 'active')
    .map((s) => ({
      id: s.subscription_id,
      url: s.callback_url,
      secret: s.secret,
      body: 'data' as const,
      onGone: () => deactivateSubscription(s, 'the callback answered 410 Gone').then(() => undefined),
      record: (o: DeliveryOutcome) => recordSubscriptionDelivery(s, o),
    }));
};

/** The callback_url of the batch (POST /api/batch-process), signed with the batch's own secret (batch id as recipient id). */
export const batchCallback: RecipientResolver = async (event) => {
  const batchId = (event.data as { batch_id?: string } | undefined)?.batch_id;
  const batch = batchId ? await getBatch(event.account_id, batchId) : undefined;
  return batch?.callback_url && batch.callback_secret ? [{ id: batch.batch_id, url: batch.callback_url, secret: batch.callback_secret }] : [];
};

export const RECIPIENT_RESOLVERS: Readonly<Record<string, RecipientResolver>> = {
  'order.status_changed': orderSubscribers,
  'batch.completed': batchCallback,
  training_completed: registeredRecipients,
  forecast_ready: registeredRecipients,
  dispatch_executed: registeredRecipients,
};

export interface DeliveryOptions {
  policy: RetryPolicy;
  /** Time-out of one POST, ms. */
  timeoutMs: number;
}

/** The configured policy (shared/config.ts); the delay cap is SQS's. */
export function deliveryOptions(): DeliveryOptions {
  const c = config();
  return {
    policy: { maxAttempts: c.WEBHOOK_MAX_ATTEMPTS, baseDelaySeconds: c.WEBHOOK_RETRY_BASE_SECONDS, maxDelaySeconds: MAX_DELAY_SECONDS },
    timeoutMs: c.WEBHOOK_TIMEOUT_MS,
  };
}

interface Job {
  event: DomainEvent;
  attempt: number;
  /** A retry is for this recipient only. */
  recipientId?: string;
  failures: DeliveryAttempt[];
}

/**
 * Handles one message of the webhooks queue, as the worker validated it: delivers, schedules retries, parks.
 * Throws only when a retry or park could not be recorded; SQS then sends the message again (and parks it in
 * the DLQ after the queue's maxReceiveCount).
 */
export async function handleWebhookMessage(message: WebhookQueueMessage, options: DeliveryOptions = deliveryOptions()): Promise<void> {
  const job: Job =
    'kind' in message
      ? { event: toEvent(message.event), attempt: message.attempt, recipientId: message.recipient_id, failures: message.failures }
      : { event: toEvent(message), attempt: 1, failures: [] };
  const { event } = job;
  const about = { event_id: event.id, event_type: event.type, attempt: job.attempt };

  const resolve = Object.hasOwn(RECIPIENT_RESOLVERS, event.type) ? RECIPIENT_RESOLVERS[event.type] : undefined;
  if (!resolve) {
    log.debug('webhook event dropped: no recipient resolver for its type', about);
    return;
  }
  const recipients = (await resolve(event)).filter((r) => job.recipientId === undefined || r.id === job.recipientId);
  if (!recipients.length) {
    log.debug(job.recipientId ? 'webhook retry dropped: the recipient no longer receives this event' : 'webhook event dropped: no recipients', { ...about, recipient_id: job.recipientId });
    return;
  }
  const outcomes = await Promise.allSettled(recipients.map((r) => deliverTo(job, r, options)));
  const failed = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
  if (failed.length) {
    const first = failed[0] instanceof Error ? failed[0].message : String(failed[0]);
    throw new AggregateError(failed, `${failed.length} of ${recipients.length} deliveries of event ${event.id} could not be retried or parked: ${first}`);
  }
}

const toEvent = (m: { id: string; type: string; created_at: string; account_id: string; data?: unknown }): DomainEvent => ({ ...m, data: m.data });

async function deliverTo(job: Job, recipient: WebhookRecipient, options: DeliveryOptions): Promise<void> {
  const { event, attempt } = job;
  const about = { event_id: event.id, event_type: event.type, recipient_id: recipient.id, attempt };
  const at = new Date();
  const body = JSON.stringify(recipient.body === 'data' ? event.data : webhookPayload(event));
  // The event id is the message id of every attempt and every recipient: receivers deduplicate by it.
  const outcome = await postSigned(recipient.url, signedHeaders(recipient.secret, event.id, at, body), body, options.timeoutMs);
  await recordOutcome(recipient, {
    event_id: event.id,
    event_type: event.type,
    attempt,
    at: at.toISOString(),
    outcome: outcome.ok ? 'delivered' : 'failed',
    status_code: outcome.status ?? null,
    reason: outcome.ok ? null : outcome.reason,
  });
  if (outcome.ok) {
    log.info('webhook delivered', { ...about, status: outcome.status });
    return;
  }
  if (outcome.status === 410 && recipient.onGone) {
    await recipient.onGone();
    log.info('webhook receiver gone: subscription deactivated', { ...about });
    return;
  }
  const failures = [...job.failures, { attempt, at: at.toISOString(), reason: outcome.reason }];
  const ceiling = retryDelaySeconds(attempt, options.policy);
  if (ceiling === undefined) return park(event, recipient, failures);
  const delay = withJitter(ceiling);
  const retry: DeliveryRetry = { kind: 'webhook.retry', event, recipient_id: recipient.id, attempt: attempt + 1, failures };
  await enqueue(WEBHOOKS_QUEUE, retry, { delaySeconds: delay });
  log.info('webhook delivery failed; retry scheduled', { ...about, reason: outcome.reason, retry_in_seconds: delay });
}

/** Lists the outcome on the recipient; a failure to list it is logged and never fails or repeats the delivery. */
async function recordOutcome(recipient: WebhookRecipient, outcome: DeliveryOutcome): Promise<void> {
  if (!recipient.record) return;
  try {
    await recipient.record(outcome);
  } catch (err) {
    log.warn('webhook delivery outcome not recorded', { event_id: outcome.event_id, recipient_id: recipient.id, attempt: outcome.attempt, err });
  }
}

async function park(event: DomainEvent, recipient: WebhookRecipient, failures: DeliveryAttempt[]): Promise<void> {
  const parked: ParkedDelivery = {
    kind: 'webhook.parked',
    delivery_id: `${event.id}:${recipient.id}`,
    account_id: event.account_id,
    event: webhookPayload(event),
    recipient_id: recipient.id,
    url: recipient.url,
    attempts: failures.length,
    reason: failures[failures.length - 1].reason,
    failures,
    parked_at: new Date().toISOString(),
  };
  await saveParkedDelivery(parked);
  log.warn('webhook delivery parked', { delivery_id: parked.delivery_id, event_type: event.type, attempts: parked.attempts, reason: parked.reason });
  try {
    await sendToDeadLetterQueue(WEBHOOKS_QUEUE, parked);
  } catch (err) {
    // The store record is the park; the DLQ copy is for queue tooling, and its failure must not resend the event.
    log.error('parked webhook delivery not copied to the dead-letter queue', { delivery_id: parked.delivery_id, err });
  }
}

type PostOutcome = { ok: true; status: number } | { ok: false; reason: string; status?: number };

const MAX_REASON_LENGTH = 200;

/**
 * The callback's policy checked again at delivery, now on the addresses its host resolves to: a public name
 * may point into a private network (the registration only saw the name). The POST itself resolves again,
 * so a name that changes between the two is not caught here; egress rules are the second line.
 */
async function deliveryAddressProblem(url: string): Promise<string | null> {
  const policy = config().CALLBACK_HOSTS;
  const written = callbackUrlProblem(url, policy);
  if (written) return written;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host) || host === 'localhost' || host.endsWith('.localhost')) return null;
  const addresses = await lookup(host, { all: true }).catch(() => []);
  for (const { address } of addresses) {
    const problem = addressProblem(address, policy);
    if (problem) return `${host} resolves to ${problem.replace(/^\S+ is /, '')} (${address})`;
  }
  return null;
}

/** One POST; redirects are not followed (a 3xx is a failure), and the receiver's answer is not read. */
async function postSigned(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<PostOutcome> {
  const refused = await deliveryAddressProblem(url);
  if (refused) return { ok: false, reason: `refused: ${refused}` };
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': `energy-ops-webhooks/${config().SERVICE_VERSION}`, ...headers },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body?.cancel().catch(() => undefined);
    return res.status >= 200 && res.status < 300 ? { ok: true, status: res.status } : { ok: false, reason: `HTTP ${res.status}`, status: res.status };
  } catch (err) {
    return { ok: false, reason: failureReason(err, timeoutMs).slice(0, MAX_REASON_LENGTH) };
  }
}

function failureReason(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return `timed out after ${timeoutMs} ms`;
  return `network error: ${e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err)}`;
}

/**
 * Webhook delivery through the embedded stand-ins: the event port enqueues, the local queue poller runs
 * functions/workers/deliver-webhooks, and the POSTs reach a receiver on loopback. Retries start after 1 s
 * and three attempts end in parking, so the whole policy runs in seconds.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { Webhook } from 'standardwebhooks';
import { call, useRuntime } from '../../helpers/runtime';
import { startReceiver, type Hit, type Receiver } from '../../helpers/webhook-receiver';
import { publishEvent } from '../../../shared/events/event-bus';
import { dlqId } from '../../../shared/pipelines';
import { sqsClient } from '../../../shared/store/aws-clients';
import { listParkedDeliveries, type ParkedDelivery } from '../../../shared/store/webhooks-repo';
import { registerAccount } from '../../../shared/services/accounts/accounts';
import { authenticate, type Caller } from '../../../shared/access/authentication';
import { listWebhooksOf, registerWebhook, removeWebhook } from '../../../shared/services/webhooks/webhooks';
import { handleWebhookMessage, RECIPIENT_RESOLVERS, type RecipientResolver } from '../../../shared/services/webhooks/webhook-delivery';
import { RECENT_DELIVERIES } from '../../../shared/domain/webhooks/delivery-outcome';
import { handler as deliverWebhooks } from '../../../functions/workers/deliver-webhooks';
import { pollFor } from '../../helpers/poll';

const runtime = useRuntime({ env: { WEBHOOK_RETRY_BASE_SECONDS: '1', WEBHOOK_MAX_ATTEMPTS: '3', WEBHOOK_TIMEOUT_MS: '1000' } });

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const uid = () => randomBytes(4).toString('hex');
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function caller(): Promise<Caller> {
  const { api_key } = await registerAccount({ email: `hooks-${uid()}@example.com` });
  return authenticate(api_key);
}

/** The recent_deliveries GET /api/webhooks shows for a registration, once it lists `count` attempts. */
async function recentOf(who: Caller, webhookId: string, count: number) {
  return pollFor(async () => {
    const listed = (await listWebhooksOf(who)).webhooks.find((w) => w.webhook_id === webhookId);
    return listed && listed.recent_deliveries.length >= count ? listed.recent_deliveries : undefined;
  });
}

async function register(who: Caller, url: string, events: string[] = ['training_completed'], secret = newSecret()) {
  const { webhook_id } = await registerWebhook(who, { webhook_url: url, events: events as ['training_completed'], secret });
  return { webhook_id, secret };
}

const verify = (secret: string, hit: Hit) =>
  new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>);

async function parkedOf(who: Caller, count = 1): Promise<ParkedDelivery[]> {
  return pollFor(async () => {
    const parked = await listParkedDeliveries(who.accountId);
    return parked.length >= count ? parked : undefined;
  });
}

describe('delivery of a published event', () => {
  it('POSTs the signed payload to every registration of the account subscribed to the type, and to no other', async () => {
    // Prepare
    const [a, b] = [await caller(), await caller()];
    const first = receiver.endpoint();
    const second = receiver.endpoint();
    const otherType = receiver.endpoint();
    const otherAccount = receiver.endpoint();
    const standard = await register(a, first.url);
    const raw = await register(a, second.url, ['forecast_ready', 'training_completed'], 'a plain shared secret');
    await register(a, otherType.url, ['forecast_ready']);
    await register(b, otherAccount.url);

    // Act
    const event = await publishEvent('training_completed', a.accountId, { job_id: 'job_1', model_id: 'mdl_1' });

    // Assess
    const [hit] = await receiver.waitFor(first.url, 1);
    const payload = { type: 'training_completed', id: event.id, created_at: event.created_at, data: { job_id: 'job_1', model_id: 'mdl_1' } };
    expect(hit.body).toBe(JSON.stringify(payload));
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['webhook-id']).toBe(event.id);
    expect(Math.abs(Number(hit.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(10);
    expect(verify(standard.secret, hit)).toEqual(payload);

    const [rawHit] = await receiver.waitFor(second.url, 1);
    expect(new Webhook(new Uint8Array(Buffer.from(raw.secret)), { format: 'raw' }).verify(rawHit.body, rawHit.headers as Record<string, string>)).toEqual(payload);
    expect(() => verify(standard.secret, rawHit)).toThrow('No matching signature found');

    await sleep(1500); // time enough for a wrong delivery to arrive
    expect(otherType.hits()).toEqual([]);
    expect(otherAccount.hits()).toEqual([]);
    expect(first.hits()).toHaveLength(1);
  });
});

describe('retries', () => {
  it('tries a failing receiver again after 1 s and then 1-2 s (jittered), and delivers on the third attempt', async () => {
    const a = await caller();
    const flaky = receiver.endpoint((n) => (n <= 2 ? 500 : 200));
    const { secret } = await register(a, flaky.url);

    const event = await publishEvent('training_completed', a.accountId, { job_id: 'job_2' });

    const hits = await receiver.waitFor(flaky.url, 3, 20_000);
    expect(hits.map((h) => h.headers['webhook-id'])).toEqual([event.id, event.id, event.id]);
    // Each attempt is signed afresh, and each signature verifies against its own timestamp.
    for (const hit of hits) expect(verify(secret, hit)).toMatchObject({ id: event.id, data: { job_id: 'job_2' } });
    expect(hits[1].at - hits[0].at).toBeGreaterThanOrEqual(900);
    // The second wait's ceiling is 2 s, jittered over its upper half.
    expect(hits[2].at - hits[1].at).toBeGreaterThanOrEqual(900);
    expect(hits[2].at - hits[1].at).toBeLessThan(2900);
    await sleep(1500);
    expect(flaky.hits()).toHaveLength(3);
    expect(await listParkedDeliveries(a.accountId)).toEqual([]);

    // Each attempt is listed on the registration, newest first: the success, then both failures.
    const recent = await recentOf(a, (await listWebhooksOf(a)).webhooks[0].webhook_id, 3);
    expect(recent.map(({ at: _at, ...r }) => r)).toEqual([3, 2, 1].map((attempt) => ({
      event_id: event.id,
      event_type: 'training_completed',
      attempt,
      outcome: attempt === 3 ? 'delivered' : 'failed',
      status_code: attempt === 3 ? 200 : 500,
      reason: attempt === 3 ? null : 'HTTP 500',
    })));
    expect(recent.map((r) => Date.parse(r.at))).toEqual([...recent.map((r) => Date.parse(r.at))].sort((x, y) => y - x));
    expect(Math.abs(Date.parse(recent[0].at) - hits[2].at)).toBeLessThan(1000);
    expect(JSON.stringify(await listWebhooksOf(a))).not.toContain(secret);
  });

  it('parks a delivery that fails every attempt, with each failure recorded, and copies it to the DLQ', async () => {
    const a = await caller();
    const down = receiver.endpoint(() => 503);
    const { webhook_id } = await register(a, down.url);

    const event = await publishEvent('training_completed', a.accountId, { job_id: 'job_3' });

    await receiver.waitFor(down.url, 3, 20_000);
    const [parked] = await parkedOf(a);
    expect(parked).toMatchObject({
      kind: 'webhook.parked',
      delivery_id: `${event.id}:${webhook_id}`,
      account_id: a.accountId,
      event: { type: 'training_completed', id: event.id, created_at: event.created_at, data: { job_id: 'job_3' } },
      recipient_id: webhook_id,
      url: down.url,
      attempts: 3,
      reason: 'HTTP 503',
    });
    expect(parked.failures.map((f) => [f.attempt, f.reason])).toEqual([[1, 'HTTP 503'], [2, 'HTTP 503'], [3, 'HTTP 503']]);
    expect(JSON.stringify(parked)).not.toContain('whsec_');

    const dlqUrl = runtime().queueUrls[dlqId('webhooks')];
    const copy = await pollFor(async () => {
      const out = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: dlqUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      return out.Messages?.map((m) => JSON.parse(m.Body!) as ParkedDelivery).find((m) => m.delivery_id === parked.delivery_id);
    });
    expect(copy).toEqual(parked);

    await sleep(2500);
    expect(down.hits()).toHaveLength(3); // no fourth attempt
  });

  it('records a time-out and a refused connection as the reasons of their failures', async () => {
    const a = await caller();
    const silent = receiver.endpoint(() => 'hang');
    const closedPort = await freePort();
    const refused = `http://127.0.0.1:${closedPort}/hook`;
    await register(a, silent.url);
    await register(a, refused);

    await publishEvent('training_completed', a.accountId, { job_id: 'job_4' });

    const parked = await parkedOf(a, 2);
    expect(parked.find((p) => p.url === silent.url)).toMatchObject({ attempts: 3, reason: 'timed out after 1000 ms' });
    expect(parked.find((p) => p.url === refused)).toMatchObject({ attempts: 3, reason: 'network error: ECONNREFUSED' });
    expect(silent.hits()).toHaveLength(3);
  });

  it('stops retrying for a registration deleted in the meantime', async () => {
    const a = await caller();
    const down = receiver.endpoint(() => 500);
    const { webhook_id } = await register(a, down.url);

    await publishEvent('training_completed', a.accountId, { job_id: 'job_5' });
    await receiver.waitFor(down.url, 1);
    await removeWebhook(a, webhook_id);

    await sleep(4000); // past both retry delays (1 s, 2 s)
    expect(down.hits()).toHaveLength(1);
    expect(await listParkedDeliveries(a.accountId)).toEqual([]);
  });
});

describe('recent deliveries', () => {
  it(`keeps the last ${RECENT_DELIVERIES} attempts of a registration, newest first`, async () => {
    const a = await caller();
    const hook = receiver.endpoint();
    const { webhook_id } = await register(a, hook.url, ['forecast_ready']);
    const ids = Array.from({ length: RECENT_DELIVERIES + 2 }, (_, i) => `evt-${uid()}-${i}`);

    for (const id of ids) await handleWebhookMessage({ id, type: 'forecast_ready', created_at: new Date().toISOString(), account_id: a.accountId, data: {} });

    const recent = await recentOf(a, webhook_id, RECENT_DELIVERIES);
    expect(recent.map((r) => r.event_id)).toEqual(ids.slice(2).reverse());
    expect(recent.every((r) => r.outcome === 'delivered' && r.status_code === 200 && r.reason === null && r.attempt === 1)).toBe(true);
  });

  it('lists a success and a failure on each order-tracking subscription (POST /terminal/track list), without its secret', async () => {
    // Prepare: a work order with two subscriptions, one whose callback answers and one that is down.
    const { api_key: key } = await registerAccount({ email: `hooks-${uid()}@example.com` });
    const post = async (endpoint: string, json: unknown) => (await call(runtime(), 'POST', `/terminal/${endpoint}`, { key, json })).body;
    const asset_id = `inv-${uid()}`;
    await post('assets', { action: 'add', asset_id, name: 'Roof inverter', type: 'inverter', capacity_kw: 100, location: 'Berlin' });
    const schedule = await post('schedule', { action: 'create', asset_id, maintenance_type: 'preventive', scheduled_date: '2027-03-01T09:00:00Z', priority: 'high', reason: 'Annual inspection' });
    const bom = await post('bom', { action: 'generate', asset_id, maintenance_type: 'preventive', schedule_id: schedule.schedule_id });
    const { order_id } = await post('order', { action: 'create', asset_id, schedule_id: schedule.schedule_id, bom_id: bom.bom_id, assigned_technician: 'A. Tech', estimated_duration_hours: 4, priority: 'high' });
    const up = receiver.endpoint();
    const down = receiver.endpoint(() => 503);
    const good = await post('track', { action: 'subscribe', order_id, callback_url: up.url });
    const bad = await post('track', { action: 'subscribe', order_id, callback_url: down.url });

    // Act
    await post('order', { action: 'update', order_id, status: 'in_progress' });

    // Assess: the first attempt of each, and the down one's retries as they come.
    await receiver.waitFor(up.url, 1);
    await receiver.waitFor(down.url, 3, 20_000);
    const listed = await pollFor(async () => {
      const body = await post('track', { action: 'list', order_id });
      const of = (id: string) => body.subscriptions.find((s: { subscription_id: string }) => s.subscription_id === id);
      return of(good.subscription_id).recent_deliveries.length === 1 && of(bad.subscription_id).recent_deliveries.length === 3 ? { body, of } : undefined;
    });
    expect(listed.of(good.subscription_id).recent_deliveries).toEqual([
      { event_id: expect.any(String), event_type: 'order.status_changed', attempt: 1, at: expect.any(String), outcome: 'delivered', status_code: 200, reason: null },
    ]);
    expect(listed.of(bad.subscription_id).recent_deliveries.map((r: { attempt: number; outcome: string; status_code: number; reason: string }) => [r.attempt, r.outcome, r.status_code, r.reason])).toEqual([
      [3, 'failed', 503, 'HTTP 503'],
      [2, 'failed', 503, 'HTTP 503'],
      [1, 'failed', 503, 'HTTP 503'],
    ]);
    expect(JSON.stringify(listed.body)).not.toMatch(/whsec_|secret|_version/);
  });

  it('delivers, and does not retry, when the outcome cannot be recorded', async () => {
    const hook = receiver.endpoint();
    const resolvers = RECIPIENT_RESOLVERS as Record<string, RecipientResolver>;
    resolvers['test.unrecordable'] = async () => [{ id: 'rcpt-1', url: hook.url, secret: newSecret(), record: () => Promise.reject(new Error('store unavailable')) }];
    try {
      await expect(handleWebhookMessage({ id: `evt-${uid()}`, type: 'test.unrecordable', created_at: new Date().toISOString(), account_id: 'acct-x', data: {} })).resolves.toBeUndefined();
      await sleep(1500);
      expect(hook.hits()).toHaveLength(1);
    } finally {
      delete resolvers['test.unrecordable'];
    }
  });
});

describe('messages nobody receives, and malformed ones', () => {
  const event = (type: string, accountId: string) => ({ id: `evt-${uid()}`, type, created_at: new Date().toISOString(), account_id: accountId, data: {} });

  it('acknowledges an event type without a resolver and an event of an account without registrations', async () => {
    const a = await caller();
    const hook = receiver.endpoint();
    await register(a, hook.url, ['training_completed', 'forecast_ready', 'dispatch_executed']);
    await expect(handleWebhookMessage(event('order.status_changed', a.accountId))).resolves.toBeUndefined();
    await expect(handleWebhookMessage(event('constructor', a.accountId))).resolves.toBeUndefined();
    await expect(handleWebhookMessage(event('forecast_ready', (await caller()).accountId))).resolves.toBeUndefined();
    expect(hook.hits()).toEqual([]);
  });

  it('reports only the malformed record of a batch as failed, so SQS retries and finally parks it', async () => {
    const a = await caller();
    const hook = receiver.endpoint();
    await register(a, hook.url, ['dispatch_executed']);
    const records = [JSON.stringify(event('dispatch_executed', a.accountId)), '{"not":"an event"}', 'not json'].map((body, i) => ({ messageId: `m${i}`, body }));

    const result = await deliverWebhooks({ Records: records } as unknown as SQSEvent);

    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }, { itemIdentifier: 'm2' }]);
    expect(hook.hits()).toHaveLength(1);
  });
});

/** A port that nothing listens on: bound once, then released. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

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
import { useRuntime } from '../../helpers/runtime';
import { startReceiver, type Hit, type Receiver } from '../../helpers/webhook-receiver';
import { publishEvent } from '../../../shared/events/event-bus';
import { dlqId } from '../../../shared/pipelines';
import { sqsClient } from '../../../shared/store/aws-clients';
import { listParkedDeliveries, type ParkedDelivery } from '../../../shared/store/webhooks-repo';
import { registerAccount } from '../../../shared/services/accounts/accounts';
import { authenticate, type Caller } from '../../../shared/access/authentication';
import { registerWebhook, removeWebhook } from '../../../shared/services/webhooks/webhooks';
import { handleWebhookMessage } from '../../../shared/services/webhooks/webhook-delivery';
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

/** Webhook registrations over HTTP against the local runtime, and one delivery driven by its queue poller. */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { call, registerKey, useRuntime } from '../helpers/runtime';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { publishEvent } from '../../shared/events/event-bus';
import { authenticate } from '../../shared/access/authentication';

const runtime = useRuntime();

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

describe('POST, GET and DELETE /api/webhooks', () => {
  it('registers, lists without the secret, deletes, then answers 404 for the deleted id', async () => {
    // Prepare
    const { key } = await registerKey(runtime());
    const secret = newSecret();
    const body = { webhook_url: 'https://hooks.example.com/energy', events: ['training_completed', 'forecast_ready'], secret };

    // Act
    const created = await call(runtime(), 'POST', '/api/webhooks', { key, json: body });

    // Assess
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'success', webhook_url: body.webhook_url, events: body.events });
    const id = created.body.webhook_id as string;
    expect(id).toMatch(/^wh_[0-9a-f-]{36}$/);

    const listed = await call(runtime(), 'GET', '/api/webhooks', { key });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ status: 'success', count: 1, webhooks: [{ webhook_id: id, webhook_url: body.webhook_url, events: body.events, created_at: created.body.created_at, recent_deliveries: [] }] });
    expect(JSON.stringify(listed.body)).not.toContain(secret.slice(6));

    expect(await call(runtime(), 'DELETE', `/api/webhooks/${id}`, { key })).toMatchObject({ status: 200, body: { status: 'success', webhook_id: id } });
    expect((await call(runtime(), 'GET', '/api/webhooks', { key })).body).toEqual({ status: 'success', count: 0, webhooks: [] });
    expect(await call(runtime(), 'DELETE', `/api/webhooks/${id}`, { key })).toMatchObject({ status: 404, body: { status: 'error', error: 'Webhook not found' } });
  });

  it('hides another account\'s registration: it is neither listed nor deletable', async () => {
    const [a, b] = [await registerKey(runtime()), await registerKey(runtime())];
    const created = await call(runtime(), 'POST', '/api/webhooks', { key: a.key, json: { webhook_url: 'https://a.example.com/h', events: ['dispatch_executed'], secret: newSecret() } });
    expect((await call(runtime(), 'GET', '/api/webhooks', { key: b.key })).body).toMatchObject({ count: 0, webhooks: [] });
    expect(await call(runtime(), 'DELETE', `/api/webhooks/${created.body.webhook_id}`, { key: b.key })).toMatchObject({ status: 404, body: { error: 'Webhook not found' } });
    expect((await call(runtime(), 'GET', '/api/webhooks', { key: a.key })).body.count).toBe(1);
  });

  it('answers 400 for an invalid URL, an unknown event and a missing secret', async () => {
    const { key } = await registerKey(runtime());
    const post = (json: unknown) => call(runtime(), 'POST', '/api/webhooks', { key, json });
    expect(await post({ webhook_url: 'not a url', events: ['training_completed'], secret: newSecret() })).toMatchObject({
      status: 400,
      body: { status: 'error', error: 'Invalid webhook URL' },
    });
    expect(await post({ webhook_url: 'https://x.example.com/h', events: ['order_shipped'], secret: newSecret() })).toMatchObject({
      status: 400,
      body: { status: 'error', error: 'Invalid request: events.0 must be one of "training_completed", "forecast_ready", "dispatch_executed"' },
    });
    expect(await post({ webhook_url: 'https://x.example.com/h', events: ['training_completed'] })).toMatchObject({
      status: 400,
      body: { status: 'error', error: 'Invalid request: secret is required' },
    });
    expect((await call(runtime(), 'GET', '/api/webhooks', { key })).body.count).toBe(0);
  });

  it('needs a key', async () => {
    expect(await call(runtime(), 'GET', '/api/webhooks')).toMatchObject({ status: 401, body: { status: 'error', error: 'Unauthorized' } });
  });
});

describe('delivery', () => {
  it('POSTs a signed training_completed event to the registered URL within seconds of its publication', async () => {
    const { key } = await registerKey(runtime());
    const hook = receiver.endpoint();
    const secret = newSecret();
    const created = await call(runtime(), 'POST', '/api/webhooks', { key, json: { webhook_url: hook.url, events: ['training_completed'], secret } });
    expect(created.status).toBe(201);
    const { accountId } = await authenticate(key);

    const event = await publishEvent('training_completed', accountId, { job_id: 'job_e2e', status: 'completed' });

    const [hit] = await receiver.waitFor(hook.url, 1, 5_000);
    expect(new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>)).toEqual({
      type: 'training_completed',
      id: event.id,
      created_at: event.created_at,
      data: { job_id: 'job_e2e', status: 'completed' },
    });
    expect(hit.headers['webhook-id']).toBe(event.id);
    expect(hit.headers['webhook-timestamp']).toMatch(/^\d+$/);
  });
});

/** The registration request and the delivery payload: validation messages and shapes. */
import { ServiceError } from '../../../shared/errors';
import { parseWith } from '../../../shared/validation';
import { callbackUrlProblem } from '../../../shared/domain/webhooks/callback-url';
import { webhookPayload } from '../../../shared/domain/webhooks/events';
import { CreateWebhookRequest, WebhookQueueMessage } from '../../../shared/schemas/webhooks';

const valid = { webhook_url: 'https://hooks.example.com/energy', events: ['training_completed'], secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' };

function rejection(body: unknown): { status: number; message: string } {
  try {
    parseWith(CreateWebhookRequest, body, 'body');
  } catch (err) {
    return { status: (err as ServiceError).status, message: (err as ServiceError).message };
  }
  throw new Error('accepted');
}

describe('callbackUrlProblem', () => {
  it('accepts public https URLs under either policy', () => {
    for (const url of ['https://hooks.example.com/a?b=c', 'https://93.184.216.34/x', 'https://[2606:4700::1111]/x']) {
      expect(callbackUrlProblem(url, 'public')).toBeNull();
      expect(callbackUrlProblem(url, 'loopback')).toBeNull();
    }
  });

  it('refuses loopback, private, link-local and unspecified addresses, and http, in the cloud', () => {
    expect(callbackUrlProblem('http://hooks.example.com/x', 'public')).toBe('https is required');
    expect(callbackUrlProblem('https://127.0.0.1:8080/hook', 'public')).toBe('127.0.0.1 is a loopback address');
    expect(callbackUrlProblem('https://[::1]:9/x', 'public')).toBe('::1 is a loopback address');
    expect(callbackUrlProblem('https://localhost/x', 'public')).toBe('localhost is a loopback host');
    expect(callbackUrlProblem('https://10.0.0.5/x', 'public')).toBe('10.0.0.5 is a private address');
    expect(callbackUrlProblem('https://192.168.1.1/x', 'public')).toBe('192.168.1.1 is a private address');
    expect(callbackUrlProblem('https://169.254.169.254/latest/meta-data', 'public')).toBe('169.254.169.254 is a linkLocal address');
    expect(callbackUrlProblem('https://[::ffff:10.1.2.3]/x', 'public')).toBe('10.1.2.3 is a private address');
    expect(callbackUrlProblem('https://0.0.0.0/x', 'public')).toBe('0.0.0.0 is a unspecified address');
  });

  it('allows loopback over http for development, but still no private network', () => {
    expect(callbackUrlProblem('http://127.0.0.1:8080/hook', 'loopback')).toBeNull();
    expect(callbackUrlProblem('http://localhost:3000/hook', 'loopback')).toBeNull();
    expect(callbackUrlProblem('http://10.0.0.5/x', 'loopback')).toBe('https is required');
    expect(callbackUrlProblem('https://10.0.0.5/x', 'loopback')).toBe('10.0.0.5 is a private address');
  });

  it('refuses other schemes, relative paths, text and credentials', () => {
    for (const url of ['not a url', '/hook', '']) expect(callbackUrlProblem(url, 'loopback')).toBe('not an absolute URL');
    for (const url of ['ftp://example.com/x', 'javascript:alert(1)', 'file:///etc/passwd']) expect(callbackUrlProblem(url, 'loopback')).toMatch(/is not https$/);
    expect(callbackUrlProblem('https://user:pw@hooks.example.com/x', 'public')).toBe('credentials in the URL are not accepted');
  });
});

describe('CreateWebhookRequest', () => {
  it('keeps a valid registration and drops repeated event names', () => {
    expect(parseWith(CreateWebhookRequest, { ...valid, events: ['forecast_ready', 'forecast_ready', 'dispatch_executed'] }, 'body')).toEqual({
      ...valid,
      events: ['forecast_ready', 'dispatch_executed'],
    });
  });

  it('answers 400 "Invalid webhook URL" for a URL that is not absolute http(s)', () => {
    expect(rejection({ ...valid, webhook_url: 'not a url' })).toEqual({ status: 400, message: 'Invalid webhook URL' });
    expect(rejection({ ...valid, webhook_url: 'ftp://example.com/hook' })).toEqual({ status: 400, message: 'Invalid webhook URL' });
  });

  it('names the allowed events when one is unknown', () => {
    expect(rejection({ ...valid, events: ['training_completed', 'order.status_changed'] })).toEqual({
      status: 400,
      message: 'Invalid request: events.1 must be one of "training_completed", "forecast_ready", "dispatch_executed"',
    });
    expect(rejection({ ...valid, events: [] }).message).toBe('Invalid request: events must have at least 1 item(s)');
  });

  it('names a missing field', () => {
    expect(rejection({ events: valid.events, secret: valid.secret }).message).toBe('Invalid request: webhook_url is required');
    expect(rejection({ webhook_url: valid.webhook_url, secret: valid.secret }).message).toBe('Invalid request: events is required');
    expect(rejection({ webhook_url: valid.webhook_url, events: valid.events }).message).toBe('Invalid request: secret is required');
  });

  it('refuses a whsec_ secret that is not base64', () => {
    expect(rejection({ ...valid, secret: 'whsec_***' }).message).toMatch(/^Invalid request: secret must be "whsec_" followed by base64/);
  });
});

describe('webhook payload and queue messages', () => {
  it('sends {type, id, created_at, data} without the account', () => {
    const event = { id: 'evt-1', type: 'forecast_ready', created_at: '2026-03-01T10:00:00.000Z', account_id: 'acct-1', data: { forecast_id: 'f1' } };
    expect(JSON.stringify(webhookPayload(event))).toBe('{"type":"forecast_ready","id":"evt-1","created_at":"2026-03-01T10:00:00.000Z","data":{"forecast_id":"f1"}}');
  });

  it('reads a domain event and a retry, and refuses anything else', () => {
    const event = { id: 'evt-1', type: 'forecast_ready', created_at: '2026-03-01T10:00:00.000Z', account_id: 'acct-1', data: {} };
    expect(WebhookQueueMessage.parse(event)).toEqual(event);
    const retry = { kind: 'webhook.retry', event, recipient_id: 'wh_1', attempt: 2, failures: [{ attempt: 1, at: event.created_at, reason: 'HTTP 500' }] };
    expect(WebhookQueueMessage.parse(retry)).toEqual(retry);
    expect(WebhookQueueMessage.safeParse({ kind: 'webhook.retry', event, recipient_id: 'wh_1', attempt: 1, failures: [] }).success).toBe(false);
    expect(WebhookQueueMessage.safeParse({ hello: 'world' }).success).toBe(false);
  });
});

/** Standard Webhooks signing, checked with the library's own verifier and with a hand-computed HMAC. */
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { isUsableSecret, signedHeaders } from '../../../shared/domain/webhooks/signing';

const body = JSON.stringify({ type: 'training_completed', id: 'evt-1', created_at: '2026-03-01T10:00:00.000Z', data: { job_id: 'job_1' } });
const hmac = (key: Buffer, id: string, ts: string) => createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64');

describe('signedHeaders', () => {
  it('signs with a whsec_ secret so that the standard verifier accepts the body', () => {
    // Prepare
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const at = new Date();
    // Act
    const headers = signedHeaders(secret, 'evt-1', at, body);
    // Assess
    expect(headers['webhook-id']).toBe('evt-1');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(at.getTime() / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('keys a whsec_ secret by the base64 after the prefix', () => {
    const key = randomBytes(32);
    const at = new Date('2026-03-01T10:00:00.900Z');
    const headers = signedHeaders(`whsec_${key.toString('base64')}`, 'evt-1', at, body);
    expect(headers['webhook-timestamp']).toBe('1772359200');
    expect(headers['webhook-signature']).toBe(`v1,${hmac(key, 'evt-1', '1772359200')}`);
  });

  it('keys any other secret by its UTF-8 bytes, non-ASCII included, and the raw verifier accepts it', () => {
    const secret = 'passwörd-ünïcode-€';
    const headers = signedHeaders(secret, 'evt-2', new Date(), body);
    expect(headers['webhook-signature']).toBe(`v1,${hmac(Buffer.from(secret, 'utf8'), 'evt-2', headers['webhook-timestamp'])}`);
    const verifier = new Webhook(new Uint8Array(Buffer.from(secret, 'utf8')), { format: 'raw' });
    expect(verifier.verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('fails verification for a changed body, another secret or another message id', () => {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const headers = signedHeaders(secret, 'evt-3', new Date(), body);
    const verifier = new Webhook(secret);
    expect(() => verifier.verify(body.replace('job_1', 'job_2'), headers)).toThrow('No matching signature found');
    expect(() => new Webhook(`whsec_${randomBytes(24).toString('base64')}`).verify(body, headers)).toThrow('No matching signature found');
    expect(() => verifier.verify(body, { ...headers, 'webhook-id': 'evt-4' })).toThrow('No matching signature found');
  });
});

describe('isUsableSecret', () => {
  it('accepts whsec_ with base64 and any plain non-empty string', () => {
    expect(isUsableSecret(`whsec_${randomBytes(24).toString('base64')}`)).toBe(true);
    expect(isUsableSecret(`whsec_${'ab'.repeat(24)}`)).toBe(true);
    expect(isUsableSecret('my shared secret')).toBe(true);
  });

  it('refuses whsec_ followed by nothing or by text that is not base64, and the empty string', () => {
    expect(isUsableSecret('whsec_')).toBe(false);
    expect(isUsableSecret('whsec_not base64!')).toBe(false);
    expect(isUsableSecret('')).toBe(false);
  });
});

import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { BadRequest, PayloadTooLarge, RateLimited, TierLimitExceeded } from '../../shared/errors';
import { MAX_BODY_BYTES, checkBodySize, readBody } from '../../shared/http/request-body';
import { errorResponse } from '../../shared/http/responses';

const event = (body: string | undefined, contentType?: string, isBase64Encoded = false) =>
  ({ body, isBase64Encoded, headers: contentType ? { 'content-type': contentType } : {} }) as unknown as APIGatewayProxyEventV2;

describe('reading a JSON body', () => {
  it('parses an object', () => {
    expect(readBody(event('{"a":1}', 'application/json'), 'json')).toEqual({ kind: 'json', value: { a: 1 } });
  });

  it('treats an empty body as an empty object', () => {
    expect(readBody(event(undefined), 'json')).toEqual({ kind: 'json', value: {} });
  });

  it.each([
    ['{"a":', 'Request body is not valid JSON'],
    ['[]', 'Request body must be a JSON object'],
    ['"str"', 'Request body must be a JSON object'],
    ['null', 'Request body must be a JSON object'],
  ])('refuses %s with a 400', (body, message) => {
    expect(() => readBody(event(body, 'application/json'), 'json')).toThrow(new BadRequest(message));
  });

  it('refuses another content type', () => {
    expect(() => readBody(event('{"a":1}', 'text/plain'), 'json')).toThrow('Content-Type must be application/json');
  });

  it('decodes a base64 body', () => {
    expect(readBody(event(Buffer.from('{"b":2}').toString('base64'), 'application/json', true), 'json')).toEqual({ kind: 'json', value: { b: 2 } });
  });

  it('leaves multipart to the upload handler and parses JSON on upload routes', () => {
    expect(readBody(event('AAAA', 'multipart/form-data; boundary=x', true), 'upload').kind).toBe('multipart');
    expect(readBody(event('{"s3_path":"x"}', 'application/json'), 'upload')).toEqual({ kind: 'json', value: { s3_path: 'x' } });
    expect(() => readBody(event('a,b', 'text/csv'), 'upload')).toThrow(BadRequest);
  });
});

describe('the 6 MB limit', () => {
  it('passes a body at the limit and refuses one over it', () => {
    expect(() => checkBodySize(event('x'.repeat(MAX_BODY_BYTES)))).not.toThrow();
    expect(() => checkBodySize(event('x'.repeat(MAX_BODY_BYTES + 1)))).toThrow(PayloadTooLarge);
  });

  it('measures a base64 body by its decoded size', () => {
    const encoded = Buffer.alloc(MAX_BODY_BYTES + 3).toString('base64');
    expect(() => checkBodySize(event(encoded, 'application/octet-stream', true))).toThrow(PayloadTooLarge);
  });
});

describe('error envelopes', () => {
  const body = (r: { body?: string }) => JSON.parse(r.body!);

  it('uses {status, error} on the platform group and {success, message} on /terminal', () => {
    expect(body(errorResponse('platform', new BadRequest('Nope'), 'r1'))).toEqual({ status: 'error', error: 'Nope' });
    expect(body(errorResponse('terminal', new BadRequest('Nope'), 'r1'))).toEqual({ success: false, message: 'Nope' });
  });

  it('hides the cause of an unexpected failure and names the request', () => {
    const r = errorResponse('platform', new Error('database password is hunter2'), 'req-9', 'Upload failed');
    expect(r.statusCode).toBe(500);
    expect(body(r)).toEqual({ status: 'error', error: 'Upload failed', request_id: 'req-9' });
  });

  it('gives the structured tier-limit body', () => {
    const r = errorResponse('platform', new TierLimitExceeded('Monthly limit reached', { current_tier: 'free', limit: 5, used: 5 }), 'r');
    expect(r.statusCode).toBe(429);
    expect(body(r)).toEqual({
      status: 'error',
      error: {
        code: 'TIER_LIMIT_EXCEEDED',
        message: 'Monthly limit reached',
        details: { current_tier: 'free', limit: 5, used: 5 },
        upgrade_url: expect.stringMatching(/^https:\/\//),
        support_contact: expect.any(String),
      },
    });
  });

  it('adds Retry-After to the rate-limit answer', () => {
    const r = errorResponse('platform', new RateLimited(17), 'r');
    expect(r.statusCode).toBe(429);
    expect(r.headers['retry-after']).toBe('17');
    expect(body(r)).toEqual({ status: 'error', error: 'Rate limit exceeded' });
  });
});

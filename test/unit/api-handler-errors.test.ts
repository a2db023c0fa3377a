/** Every 5xx is logged with its error and request id, whatever was thrown (issue 17). */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import * as z from 'zod';
import { routeHandler } from '../../shared/http/api-handler';
import type { Route } from '../../shared/routes';
import { captureLogLines } from '../helpers/log-lines';

const route: Route = { id: 'fixture-throws', method: 'POST', path: '/fixture/{thing_id}', handler: 'fixture', auth: 'none', group: 'platform', body: 'json', rate: 'none', summary: 'Fixture', response: z.object({}) };

const event = (rawPath = '/fixture/one', body = '{}'): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: 'POST /fixture/{thing_id}',
    rawPath,
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    pathParameters: { thing_id: 'one' },
    requestContext: { requestId: 'req-123', http: { method: 'POST', path: rawPath, sourceIp: '127.0.0.1' } },
    body,
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

describe('errors of a handler', () => {
  const logged = captureLogLines('stderr', 'error');

  it.each([
    ['a solver error whose status is -1', Object.assign(new Error('HiGHS failed'), { status: -1 }), 'HiGHS failed'],
    ['a string', 'plain string thrown', 'plain string thrown'],
    ['undefined', undefined, 'undefined'],
    ['an object with status 503', { status: 503, detail: 'upstream' }, 'upstream'],
  ])('logs %s with the request id and answers 500', async (_what, thrown, expected) => {
    const handler = routeHandler(route, async () => {
      throw thrown;
    });
    const result = await handler(event(), {} as Context);
    expect(result.statusCode).toBe(500);
    expect(JSON.parse(result.body as string)).toEqual({ status: 'error', error: 'Internal server error', request_id: 'req-123' });
    const line = logged().map((l) => JSON.parse(l)).find((l) => l.msg === 'unhandled error');
    expect(line).toMatchObject({ level: 'error', request_id: 'req-123', route: 'fixture-throws' });
    expect(JSON.stringify(line.err)).toContain(expected);
  });

  it('answers a malformed escape in the raw path with 400 before anything else runs', async () => {
    let ran = false;
    const handler = routeHandler(route, async () => {
      ran = true;
    });
    const result = await handler(event('/fixture/%E0%A4%A'), {} as Context);
    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body as string).error).toBe('Invalid path parameter: thing_id is not valid percent-encoding');
    expect(ran).toBe(false);
  });
});

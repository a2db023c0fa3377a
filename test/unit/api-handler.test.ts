/** The middleware reads everything from the route row: the rows a module serves, and the schemas it validates with. */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import * as z from 'zod';
import { routeHandler, serve, type Run } from '../../shared/http/api-handler';
import { ROUTES, type Route } from '../../shared/routes';
import { FORECASTING_ROUTES } from '../../shared/routes/forecasting';
import { FOUNDATION_ROUTES } from '../../shared/routes/foundation';
import { OPERATIONS_ROUTES } from '../../shared/routes/operations';

const row = (overrides: Partial<Route> = {}): Route => ({
  id: 'fixture-echo',
  method: 'POST',
  path: '/fixture/{thing_id}',
  handler: 'fixture',
  auth: 'none',
  group: 'platform',
  body: 'json',
  rate: 'none',
  summary: 'Echoes its input',
  response: z.object({}).loose(),
  request: { body: z.object({ count: z.number().int() }), query: z.object({ verbose: z.enum(['yes', 'no']).default('no') }), path: z.object({ thing_id: z.string().min(2) }) },
  ...overrides,
});

const event = (body: unknown, query: Record<string, string> = {}, thing = 'one'): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: 'POST /fixture/{thing_id}',
    rawPath: `/fixture/${thing}`,
    rawQueryString: new URLSearchParams(query).toString(),
    headers: { 'content-type': 'application/json' },
    queryStringParameters: query,
    pathParameters: { thing_id: thing },
    requestContext: { requestId: 'req-1', http: { method: 'POST', path: `/fixture/${thing}`, sourceIp: '127.0.0.1' } },
    body: JSON.stringify(body),
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

const echo: Run<Route> = ({ body, query, path }) => ({ body, query, path });
const answer = async (route: Route, e: APIGatewayProxyEventV2) => {
  const result = await routeHandler(route, echo)(e, {} as Context);
  return { status: result.statusCode, body: JSON.parse(result.body as string) };
};

describe('validation from the row', () => {
  it('hands the handler the body, query and path as the row schemas parsed them', async () => {
    expect(await answer(row(), event({ count: 3 }))).toEqual({ status: 200, body: { body: { count: 3 }, query: { verbose: 'no' }, path: { thing_id: 'one' } } });
  });

  it.each([
    ['the body', event({ count: 'three' }), 'Invalid request: count must be a number'],
    ['the query', event({ count: 3 }, { verbose: 'maybe' }), 'Invalid request: verbose must be one of "yes", "no"'],
    ['the path', event({ count: 3 }, {}, 'x'), 'Invalid request: thing_id must be at least 2 character(s)'],
  ])('answers 400 naming the field when %s fails its schema', async (_part, e, message) => {
    const { status, body } = await answer(row(), e);
    expect({ status, error: body.error }).toEqual({ status: 400, error: message });
  });

  it('leaves the JSON forms of an upload row to the service: its body schema documents them', async () => {
    const upload = row({ body: 'upload' });
    expect(await answer(upload, event({ count: 'three' }))).toMatchObject({ status: 200, body: { query: { verbose: 'no' } } });
  });
});

describe('serve', () => {
  const run = () => ({});

  it('refuses a module that leaves one of its rows without a handler', () => {
    expect(() => serve(OPERATIONS_ROUTES, 'webhooks', { 'webhooks-create': run, 'webhooks-list': run } as never)).toThrow('functions/webhooks: rows without a handler [webhooks-delete], handlers without a row []');
  });

  it('refuses a handler for a row of another module', () => {
    expect(() => serve(FOUNDATION_ROUTES, 'get-usage', { usage: run, health: run } as never)).toThrow('handlers without a row [health]');
  });

  it('dispatches a module of several rows on the route key, and refuses a key it does not serve', async () => {
    const handler = serve(FORECASTING_ROUTES, 'generate-forecast', { forecast: run, 'generate-forecast': run });
    await expect(handler({ ...event({}), routeKey: 'GET /nowhere' } as APIGatewayProxyEventV2, {} as Context)).rejects.toThrow('no handler for GET /nowhere');
  });

  it('builds every module in functions/ from its rows (a module and its rows that disagree fail here)', async () => {
    const modules = readdirSync(path.join(__dirname, '../../functions')).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3));
    expect(modules.sort()).toEqual([...new Set(ROUTES.map((r) => r.handler))].sort());
    for (const name of modules) {
      const module = (await import(`../../functions/${name}`)) as { handler?: unknown };
      expect({ name, handler: typeof module.handler }).toEqual({ name, handler: 'function' });
    }
  }, 60_000);
});

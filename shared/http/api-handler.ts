/**
 * Builds the Lambda handler of a module's route rows: middy with one middleware per concern, in this order:
 * envelope (request id, logs, statistics, error shaping) -> body size -> authentication -> rate limit
 * -> tier -> body -> validation by the row's schemas -> the handler, which gets the validated input and
 * its caller.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type * as z from 'zod';
import { randomUUID } from 'node:crypto';
import { BadRequest, RateLimited, TierRequired, Unauthorized } from '../errors';
import { malformedPathMessage, matchPath, meetsTier, routeKey } from '../routes/matching';
import type { Route } from '../routes/route';
import { authenticate, presentedKey, type Caller } from '../access/authentication';
import { rateLimitHeaders, secondsUntilReset, takeRequest, type RateDecision } from '../access/rate-limit';
import { flushRequestStats, recordRequest } from '../access/request-stats';
import { log } from '../logger';
import { checkInputBounds } from './input-bounds';
import type { RequestBody } from '../schemas/request-body';
import { parseMultipart } from './multipart';
import { checkBodySize, readBody } from './request-body';
import { errorResponse, jsonResponse, type ApiResult } from './responses';
import { parseWith } from '../validation';

interface RequestState {
  requestId: string;
  startedAt: number;
  caller?: Caller;
  rate?: RateDecision;
  body?: RequestBody;
}

type ApiContext = Context & { api: RequestState };
type ApiRequest = middy.Request<APIGatewayProxyEventV2, ApiResult, Error, ApiContext>;

/** A reply with a status other than 200. */
export class Reply {
  constructor(readonly status: number, readonly body: unknown, readonly headers: Record<string, string> = {}) {}
}

type Output<R, K extends 'body' | 'query' | 'path'> = R extends { request: { [P in K]: infer S extends z.ZodType } } ? z.output<S> : undefined;

/** The input a handler receives for row `R`: its body, query and path as the row's schemas parsed them. */
export interface HandlerInput<R = Route> {
  /** The parsed JSON body on `json` rows with a body schema; otherwise the body is in `rawBody`. */
  body: R extends { body: 'json' } ? Output<R, 'body'> : undefined;
  query: Output<R, 'query'> extends undefined ? Record<string, string | undefined> : Output<R, 'query'>;
  path: Output<R, 'path'> extends undefined ? Record<string, string | undefined> : Output<R, 'path'>;
  /** The body as read, for multipart and raw CSV routes. */
  rawBody: RequestBody;
  event: APIGatewayProxyEventV2;
  /** The client's address as the gateway saw it (the TCP peer; forwarding headers are not trusted). */
  sourceIp: string;
  requestId: string;
  route: Route;
}

/** A keyed row's handler also gets its caller. */
export type InputOf<R> = R extends { auth: 'none' } ? HandlerInput<R> : HandlerInput<R> & { caller: Caller };

/** What a handler does with its input: the 200 body, or a Reply for another status. */
export type Run<R> = (input: InputOf<R>) => unknown;

const sourceIp = (event: APIGatewayProxyEventV2) => event.requestContext?.http?.sourceIp ?? 'unknown';

function envelope(route: Route): middy.MiddlewareObj<APIGatewayProxyEventV2, ApiResult> {
  const finish = async (request: ApiRequest) => {
    const state = request.context.api;
    const response = request.response!;
    response.headers = { ...response.headers, 'x-request-id': state.requestId, ...(state.rate ? rateLimitHeaders(state.rate) : {}) };
    const ms = Date.now() - state.startedAt;
    const status = response.statusCode ?? 200;
    log.info('request', { request_id: state.requestId, route: route.id, status, duration_ms: ms, account_id: state.caller?.accountId });
    recordRequest(ms, status, request.event.body?.length ?? 0, typeof response.body === 'string' ? response.body.length : 0);
    await flushRequestStats();
  };
  return {
    before: async (request) => {
      const r = request as ApiRequest;
      r.context.api = { requestId: request.event.requestContext?.requestId || randomUUID(), startedAt: Date.now() };
    },
    after: async (request) => finish(request as ApiRequest),
    onError: async (request) => {
      const r = request as ApiRequest;
      r.context.api ??= { requestId: randomUUID(), startedAt: Date.now() };
      request.response = errorResponse(route.group, request.error, r.context.api.requestId, route.internalErrorMessage);
      // Every 5xx is logged, whatever was thrown (a solver's error with its own `status`, a string, undefined).
      if ((request.response.statusCode ?? 500) >= 500) {
        log.error('unhandled error', { request_id: r.context.api.requestId, route: route.id, err: describeThrown(request.error) });
      }
      await finish(r);
    },
  };
}

function access(route: Route): middy.MiddlewareObj<APIGatewayProxyEventV2, ApiResult> {
  return {
    before: async (request) => {
      const r = request as ApiRequest;
      const state = r.context.api;
      // API Gateway passes a bad escape through as it came; the gateway stand-in answers it before this.
      const malformed = request.event.rawPath ? matchPath(route.path, request.event.rawPath)?.malformed : undefined;
      if (malformed) throw new BadRequest(malformedPathMessage(malformed));
      checkBodySize(request.event);
      if (route.auth === 'key') state.caller = await authenticate(presentedKey(lowerCaseHeaders(request.event)), { address: sourceIp(request.event) });
      if (route.rate !== 'none') {
        const subject = state.caller ? `key:${state.caller.keyHash}` : `ip:${sourceIp(request.event)}`;
        state.rate = await takeRequest(subject, state.caller?.tier ?? 'anonymous');
        if (!state.rate.allowed) throw new RateLimited(secondsUntilReset(state.rate));
      }
      if (!meetsTier(state.caller?.tier, route.tier)) {
        const tiers = route.tier === 'enterprise' ? 'the enterprise tier' : `the ${route.tier} or enterprise tier`;
        throw new TierRequired(`This endpoint requires ${tiers}`, { current_tier: state.caller?.tier, required_tier: route.tier });
      }
      const read = readBody(request.event, route.body);
      state.body = read.kind === 'multipart' ? { kind: 'multipart', form: await parseMultipart(read.raw, read.contentType) } : read;
    },
  };
}

/** A thrown value as a log field: errors keep name, message and stack; anything else is shown as it is. */
function describeThrown(thrown: unknown): unknown {
  if (thrown instanceof Error) return thrown;
  if (thrown === null || typeof thrown !== 'object') return { thrown: String(thrown) };
  return { thrown };
}

function lowerCaseHeaders(event: APIGatewayProxyEventV2): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(event.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
}

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<ApiResult>;

interface HandlerOptions {
  /** Middlewares after the row's own, e.g. one that serves a non-JSON answer. */
  use?: middy.MiddlewareObj<APIGatewayProxyEventV2, ApiResult>[];
}

/** The Lambda handler of one row; tests use it with rows of their own. */
export function routeHandler<R extends Route>(route: R, run: Run<R>, options: HandlerOptions = {}) {
  const schemas = route.request ?? {};
  const base = async (event: APIGatewayProxyEventV2, context: Context): Promise<ApiResult> => {
    const state = (context as ApiContext).api;
    const body = state.body ?? { kind: 'none' };
    if (route.auth === 'key' && !state.caller) throw new Unauthorized();
    if (body.kind === 'json') checkInputBounds(body.value, 'body');
    checkInputBounds(event.queryStringParameters ?? {}, 'query');
    checkInputBounds(event.pathParameters ?? {}, 'path');
    const input = {
      // Only JSON bodies are parsed here: the forms of `upload` rows are told apart by the service.
      body: route.body === 'json' && schemas.body ? parseWith(schemas.body, body.kind === 'json' ? body.value : {}, 'body') : undefined,
      query: schemas.query ? parseWith(schemas.query, event.queryStringParameters ?? {}, 'query') : (event.queryStringParameters ?? {}),
      path: schemas.path ? parseWith(schemas.path, event.pathParameters ?? {}, 'path') : (event.pathParameters ?? {}),
      caller: state.caller,
      rawBody: body,
      event,
      sourceIp: sourceIp(event),
      requestId: state.requestId,
      route,
    };
    const result = await run(input as unknown as InputOf<R>);
    return result instanceof Reply ? jsonResponse(result.status, result.body, result.headers) : jsonResponse(200, result);
  };
  let handler = middy<APIGatewayProxyEventV2, ApiResult, Error, Context>(base).use(envelope(route)).use(access(route));
  for (const middleware of options.use ?? []) handler = handler.use(middleware);
  return handler;
}

/**
 * The Lambda handler of a module in functions/: one `run` for each row of its capability's table
 * (shared/routes/<capability>.ts) that names the module, keyed by row id (the types require exactly those
 * rows). A module with several rows dispatches on the event's route key, which API Gateway and the local
 * gateway both set.
 */
export function serve<const Rows extends readonly Route[], M extends Rows[number]['handler']>(
  capability: Rows,
  module: M,
  runs: { [Id in Extract<Rows[number], { handler: M }>['id']]: Run<Extract<Rows[number], { id: Id }>> },
  options: HandlerOptions = {},
): Handler {
  const rows = capability.filter((r) => r.handler === module);
  const byId = runs as Record<string, Run<Route>>;
  const extra = Object.keys(byId).filter((id) => !rows.some((r) => r.id === id));
  const missing = rows.filter((r) => typeof byId[r.id] !== 'function').map((r) => r.id);
  if (!rows.length || extra.length || missing.length) throw new Error(`functions/${module}: rows without a handler [${missing.join(', ')}], handlers without a row [${extra.join(', ')}]`);
  const handlers = rows.map((route) => [routeKey(route), routeHandler(route, byId[route.id], options)] as const);
  if (handlers.length === 1) return handlers[0][1];
  const table = new Map(handlers);
  return async (event, context) => {
    const target = table.get(event.routeKey);
    if (!target) throw new Error(`no handler for ${event.routeKey}`);
    return target(event, context);
  };
}

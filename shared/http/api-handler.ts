/**
 * Builds a Lambda handler for a route row: middy with one middleware per concern, in this order:
 * envelope (request id, logs, statistics, error shaping) -> body size -> authentication -> rate limit
 * -> tier -> body -> the handler, which gets validated input and its caller.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import { randomUUID } from 'node:crypto';
import { BadRequest, RateLimited, TierRequired, Unauthorized } from '../errors';
import { malformedPathMessage, matchPath, meetsTier, routeById, routeKey, type Route } from '../routes';
import { authenticate, presentedKey, type Caller } from '../services/authentication';
import { rateLimitHeaders, secondsUntilReset, takeRequest, type RateDecision } from '../services/rate-limit';
import { flushRequestStats, recordRequest } from '../services/request-stats';
import { log } from './logger';
import { checkInputBounds } from './input-bounds';
import { checkBodySize, readBody, type ParsedBody } from './request-body';
import { errorResponse, jsonResponse, type ApiResult } from './responses';
import { parseWith } from './validation';

interface RequestState {
  requestId: string;
  startedAt: number;
  caller?: Caller;
  rate?: RateDecision;
  body?: ParsedBody;
}

type ApiContext = Context & { api: RequestState };
type ApiRequest = middy.Request<APIGatewayProxyEventV2, ApiResult, Error, ApiContext>;

/** A reply with a status other than 200. */
export class Reply {
  constructor(readonly status: number, readonly body: unknown, readonly headers: Record<string, string> = {}) {}
}

type Schemas = { body?: z.ZodType; query?: z.ZodType; path?: z.ZodType };

export interface HandlerInput<S extends Schemas> {
  body: S['body'] extends z.ZodType ? z.infer<S['body']> : undefined;
  query: S['query'] extends z.ZodType ? z.infer<S['query']> : Record<string, string | undefined>;
  path: S['path'] extends z.ZodType ? z.infer<S['path']> : Record<string, string | undefined>;
  /** The body as read, for multipart and raw CSV routes. */
  rawBody: ParsedBody;
  event: APIGatewayProxyEventV2;
  /** The client's address as the gateway saw it (the TCP peer; forwarding headers are not trusted). */
  sourceIp: string;
  requestId: string;
  route: Route;
}

export type AuthenticatedInput<S extends Schemas> = HandlerInput<S> & { caller: Caller };

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
      state.body = readBody(request.event, route.body);
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

/** A route row, or its id in the route table. */
type RouteRef = string | Route;
const resolve = (ref: RouteRef): Route => (typeof ref === 'string' ? routeById(ref) : ref);

function buildHandler<S extends Schemas>(route: Route, schemas: S, run: (input: AuthenticatedInput<S>) => Promise<unknown>) {
  const base = async (event: APIGatewayProxyEventV2, context: Context): Promise<ApiResult> => {
    const state = (context as ApiContext).api;
    const body = state.body ?? { kind: 'none' };
    if (route.auth === 'key' && !state.caller) throw new Unauthorized();
    if (body.kind === 'json') checkInputBounds(body.value, 'body');
    checkInputBounds(event.queryStringParameters ?? {}, 'query');
    checkInputBounds(event.pathParameters ?? {}, 'path');
    const result = await run({
      body: schemas.body ? parseWith(schemas.body, body.kind === 'json' ? body.value : {}, 'body') : undefined,
      query: schemas.query ? parseWith(schemas.query, event.queryStringParameters ?? {}, 'query') : (event.queryStringParameters ?? {}),
      path: schemas.path ? parseWith(schemas.path, event.pathParameters ?? {}, 'path') : (event.pathParameters ?? {}),
      caller: state.caller!,
      rawBody: body,
      event,
      sourceIp: sourceIp(event),
      requestId: state.requestId,
      route,
    } as AuthenticatedInput<S>);
    return result instanceof Reply ? jsonResponse(result.status, result.body, result.headers) : jsonResponse(200, result);
  };
  return middy<APIGatewayProxyEventV2, ApiResult, Error, Context>(base).use(envelope(route)).use(access(route));
}

/**
 * The Lambda handler of a keyed route. `run` receives validated input and its caller, and returns the
 * 200 body or a Reply for another status; failures are named errors (shared/errors.ts).
 */
export function apiHandler<S extends Schemas>(ref: RouteRef, schemas: S, run: (input: AuthenticatedInput<S>) => Promise<unknown>) {
  const route = resolve(ref);
  if (route.auth !== 'key') throw new Error(`route ${route.id} is open: use publicHandler`);
  return buildHandler(route, schemas, run);
}

/** The Lambda handler of an open route (no key; limited per client address). */
export function publicHandler<S extends Schemas>(ref: RouteRef, schemas: S, run: (input: HandlerInput<S>) => Promise<unknown>) {
  const route = resolve(ref);
  if (route.auth !== 'none') throw new Error(`route ${route.id} needs a key: use apiHandler`);
  return buildHandler(route, schemas, run);
}

/**
 * One Lambda handler for a module that serves several routes (CDK makes one function per module):
 * dispatches on the event's route key, which API Gateway and the local gateway both set.
 */
export function byRoute(handlers: Record<string, ReturnType<typeof buildHandler>>) {
  const table = new Map(Object.entries(handlers).map(([id, h]) => [routeKey(routeById(id)), h]));
  return async (event: APIGatewayProxyEventV2, context: Context) => {
    const target = table.get(event.routeKey);
    if (!target) throw new Error(`no handler for ${event.routeKey}`);
    return target(event, context);
  };
}

/**
 * The local stand-in for API Gateway (HTTP API, payload format 2.0): turns each Node request into the
 * event AWS sends, calls the handler the route table names, and writes the handler's result back.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { MAX_BODY_BYTES } from '../shared/http/request-body';
import { errorResponse, jsonResponse, type ApiResult } from '../shared/http/responses';
import { log } from '../shared/logger';
import { malformedPathMessage, matchRoute, routeKey, type Route } from '../shared/routes';
import { BadRequest, PayloadTooLarge } from '../shared/errors';
import { lambdaContext, type AnyHandler } from './lambda-context';
import { serveConsole } from './console-files';

/** Content types API Gateway passes as text; everything else arrives base64-encoded. */
const TEXT_TYPES = /^(application\/(json|.+\+json|x-www-form-urlencoded|xml)|text\/)/i;

interface Body {
  buffer: Buffer;
  tooLarge: boolean;
}

/** Reads the body, keeping at most the limit but draining the rest so the client gets an answer. */
function readRequestBody(req: http.IncomingMessage): Promise<Body> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve({ buffer: size > MAX_BODY_BYTES ? Buffer.alloc(0) : Buffer.concat(chunks), tooLarge: size > MAX_BODY_BYTES }));
    req.on('error', reject);
  });
}

/** The request target split as API Gateway does: the path as sent (not normalised: `//` stays), and the query. */
interface Target {
  pathname: string;
  search: string;
  searchParams: URLSearchParams;
}

function targetOf(rawUrl: string): Target {
  const q = rawUrl.indexOf('?');
  const pathname = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const search = q < 0 ? '' : rawUrl.slice(q);
  return { pathname: pathname.startsWith('/') ? pathname : `/${pathname}`, search, searchParams: new URLSearchParams(search) };
}

function toEvent(req: http.IncomingMessage, url: Target, route: Route, pathParameters: Record<string, string>, body: Buffer): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(',') : v;
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
  const isText = TEXT_TYPES.test(headers['content-type'] ?? '');
  const now = new Date();
  return {
    version: '2.0',
    routeKey: routeKey(route),
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    queryStringParameters: url.search ? query : undefined,
    pathParameters: Object.keys(pathParameters).length ? pathParameters : undefined,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: { method: req.method!, path: url.pathname, protocol: `HTTP/${req.httpVersion}`, sourceIp: req.socket.remoteAddress ?? 'unknown', userAgent: headers['user-agent'] ?? '' },
      requestId: randomUUID(),
      routeKey: routeKey(route),
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: body.length ? (isText ? body.toString('utf8') : body.toString('base64')) : undefined,
    isBase64Encoded: body.length > 0 && !isText,
  };
}

function send(res: http.ServerResponse, result: ApiResult): void {
  const body = result.body === undefined ? '' : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
  res.writeHead(result.statusCode ?? 200, result.headers);
  res.end(body);
}

export function createGateway(options: { routes: readonly Route[]; loadHandler: (name: string) => Promise<AnyHandler> }): http.Server {
  const server = http.createServer((req, res) => {
    serve(req, res, options).catch((err) => {
      // Nothing a client sends may stop the process: whatever escaped is logged and answered.
      log.error('gateway failed', { request_id: 'none', method: req.method, err });
      if (!res.headersSent) send(res, jsonResponse(500, { status: 'error', error: 'Internal server error' }));
      else res.destroy();
    });
  });
  // A malformed request line or header never reaches the handler above: answer it instead of dropping it.
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    if (!socket.writable) return socket.destroy(err);
    const [status, message] = err.code === 'HPE_HEADER_OVERFLOW' ? ['431 Request Header Fields Too Large', 'Request line and headers are too large'] : ['400 Bad Request', 'Malformed HTTP request'];
    // An answer to HEAD has no body: a client reading one would take it for the next response. The packet that
    // failed to parse starts with the request line (Node hands over the first 64 KB even past the header limit).
    const head = err.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    const body = head ? '' : `{"status":"error","error":"${message}"}`;
    socket.end(`HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`);
  });
  server.keepAliveTimeout = 65_000;
  return server;
}

async function serve(req: http.IncomingMessage, res: http.ServerResponse, options: { routes: readonly Route[]; loadHandler: (name: string) => Promise<AnyHandler> }): Promise<void> {
  const url = targetOf(req.url ?? '/');
  if (await serveConsole(req.method ?? 'GET', url.pathname, res)) return;
  const match = matchRoute(req.method ?? 'GET', url.pathname, options.routes);
  let body: Body;
  try {
    body = await readRequestBody(req);
  } catch {
    res.destroy();
    return;
  }
  if (!match.route) {
    send(res, jsonResponse(match.pathExists ? 405 : 404, { status: 'error', error: match.pathExists ? 'Method not allowed' : 'Not found' }));
    return;
  }
  const route = match.route;
  if (body.tooLarge) {
    // API Gateway would refuse it too; the route's own envelope keeps the answer in its group's shape.
    send(res, errorResponse(route.group, new PayloadTooLarge(), randomUUID()));
    return;
  }
  if (match.malformed) {
    send(res, errorResponse(route.group, new BadRequest(malformedPathMessage(match.malformed)), randomUUID()));
    return;
  }
  try {
    const handler = await options.loadHandler(route.handler);
    const result = (await handler(toEvent(req, url, route, match.pathParameters, body.buffer), lambdaContext(route.handler))) as ApiResult;
    send(res, result);
  } catch (err) {
    const requestId = randomUUID();
    log.error('handler failed outside its middleware', { request_id: requestId, route: route.id, err });
    send(res, errorResponse(route.group, err, requestId, route.internalErrorMessage));
  }
}

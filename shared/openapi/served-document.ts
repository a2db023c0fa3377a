/** GET /openapi.json: the document, built once per process, with the address that served it as the first server. */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { oas31 } from 'zod-openapi';
import type { Route } from '../routes';
import { buildOpenApiDocument } from './document';

let built: oas31.OpenAPIObject | undefined;

/**
 * `https://host/v1` behind API Gateway, `http://127.0.0.1:3000` locally: the stage prefix is whatever the
 * raw path carries before the route's own path.
 */
export function servingAddress(event: APIGatewayProxyEventV2, route: Route): string | undefined {
  const host = event.headers?.host ?? event.requestContext?.domainName;
  if (!host) return undefined;
  const proto = event.headers?.['x-forwarded-proto']?.split(',')[0].trim() || 'http';
  const rawPath = event.rawPath ?? route.path;
  const prefix = rawPath.endsWith(route.path) ? rawPath.slice(0, rawPath.length - route.path.length) : '';
  return `${proto}://${host}${prefix}`;
}

export function servedDocument(event: APIGatewayProxyEventV2, route: Route): oas31.OpenAPIObject {
  built ??= buildOpenApiDocument();
  const here = servingAddress(event, route);
  return here ? { ...built, servers: [{ url: here, description: 'This deployment (the address that served this document)' }, ...(built.servers ?? [])] } : built;
}

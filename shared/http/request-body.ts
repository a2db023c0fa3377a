/** Reading API Gateway v2 bodies: size limit, base64, content types (ARCHITECTURE 4). */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { BadRequest, PayloadTooLarge } from '../errors';
import type { BodyKind } from '../routes';
import type { RequestBody } from '../schemas/request-body';

/** The Lambda payload limit; larger files go to S3 and use upload form B. */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;

export function headerOf(event: APIGatewayProxyEventV2, name: string): string | undefined {
  return event.headers?.[name] ?? Object.entries(event.headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];
}

export function rawBody(event: APIGatewayProxyEventV2): Buffer {
  if (!event.body) return Buffer.alloc(0);
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
}

export function checkBodySize(event: APIGatewayProxyEventV2): void {
  if (!event.body) return;
  const bytes = event.isBase64Encoded ? Math.floor((event.body.length * 3) / 4) : Buffer.byteLength(event.body, 'utf8');
  if (bytes > MAX_BODY_BYTES) throw new PayloadTooLarge();
}

const isJsonType = (ct: string) => /^application\/(.+\+)?json\b/i.test(ct);
const isMultipartType = (ct: string) => /^multipart\/form-data\b/i.test(ct);

/** The body as read; a multipart body is parsed next (multipart.ts), after authentication, into a RequestBody. */
export type ReadBody = Exclude<RequestBody, { kind: 'multipart' }> | { kind: 'multipart'; raw: Buffer; contentType: string };

function parseJsonObject(buffer: Buffer): Record<string, unknown> {
  const text = buffer.toString('utf8').trim();
  if (!text) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadRequest('Request body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new BadRequest('Request body must be a JSON object');
  return value as Record<string, unknown>;
}

/** Reads the body as the route declares; wrong content types and malformed JSON are 400s. */
export function readBody(event: APIGatewayProxyEventV2, kind: BodyKind): ReadBody {
  const contentType = headerOf(event, 'content-type') ?? '';
  const buffer = rawBody(event);
  switch (kind) {
    case 'none':
      return { kind: 'none' };
    case 'csv':
      return { kind: 'text', value: buffer.toString('utf8') };
    case 'json':
      if (buffer.length && !isJsonType(contentType)) throw new BadRequest('Content-Type must be application/json');
      return { kind: 'json', value: parseJsonObject(buffer) };
    case 'multipart':
      if (!isMultipartType(contentType)) throw new BadRequest('Content-Type must be multipart/form-data');
      return { kind: 'multipart', raw: buffer, contentType };
    case 'upload':
      if (isMultipartType(contentType)) return { kind: 'multipart', raw: buffer, contentType };
      if (buffer.length && !isJsonType(contentType)) throw new BadRequest('Content-Type must be multipart/form-data or application/json');
      return { kind: 'json', value: parseJsonObject(buffer) };
  }
}

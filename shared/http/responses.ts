/** Response bodies: success JSON and the two error envelopes of ARCHITECTURE 4. */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { config } from '../config';
import { ServiceError, StructuredError, Unauthorized } from '../errors';
import type { Route } from '../routes';

export type ApiResult = APIGatewayProxyStructuredResultV2 & { headers: Record<string, string> };

export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): ApiResult {
  return { statusCode, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) };
}

const GENERIC_INTERNAL_ERROR = 'Internal server error';

/** The error response for a route's group. Unknown errors become a 500 that names only the request id. */
export function errorResponse(group: Route['group'], err: unknown, requestId: string, internalMessage?: string): ApiResult {
  if (err instanceof StructuredError) {
    const { UPGRADE_URL, SUPPORT_CONTACT } = config();
    return jsonResponse(err.status, {
      status: 'error',
      error: { code: err.code, message: err.message, details: err.details, upgrade_url: UPGRADE_URL, support_contact: SUPPORT_CONTACT },
    });
  }
  const known = err instanceof ServiceError;
  const status = known ? err.status : 500;
  const message = known ? err.message : (internalMessage ?? GENERIC_INTERNAL_ERROR);
  const extra = known ? (err.extra ?? {}) : { request_id: requestId };
  const headers: Record<string, string> = {};
  if (known && 'retryAfterSeconds' in err) headers['retry-after'] = String(err.retryAfterSeconds);
  // SPEC authentication rule 4 and ARCHITECTURE 3 give the simple 401 body on every route, terminal ones included.
  const envelope = err instanceof Unauthorized ? 'platform' : group;
  const body = envelope === 'terminal' ? { success: false, message, ...extra } : { status: 'error', error: message, ...extra };
  return jsonResponse(status, body, headers);
}

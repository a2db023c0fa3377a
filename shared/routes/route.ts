/**
 * What a route row holds (shared/routes/index.ts), and the two ways rows are written: platform rows and the
 * `/terminal/*` actions. Types and builders only, so a capability's rows load without the rest of the table.
 */
import type * as z from 'zod';
import type { QuotaKind } from '../domain/accounts/tiers';

export type { QuotaKind };

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** How a request body is read before the handler runs. */
export type BodyKind =
  | 'none' // no body expected (GET)
  | 'json' // JSON object, Content-Type application/json
  | 'upload' // JSON object, or multipart/form-data left for busboy (upload forms A and B)
  | 'multipart' // multipart/form-data only
  | 'csv'; // raw text body (platform /upload_historical)

/** The request schemas of a row. The middleware validates `query`, `path` and, on `json` rows, `body`. */
export interface RequestSchemas {
  /** The JSON body; on `upload` rows, the JSON forms, which the service tells apart and reads itself. */
  readonly body?: z.ZodType;
  /** Multipart form fields and the file (`upload` and `multipart` rows), read by the service. */
  readonly form?: z.ZodType;
  readonly query?: z.ZodType;
  readonly path?: z.ZodType;
}

/** The success body: one schema (status 200, or `status`), or schemas by status where a route answers two. */
export type ResponseSchemas = z.ZodType | Readonly<Record<number, z.ZodType>>;

export interface Route {
  /** Unique id, the OpenAPI operationId; a handler module names the rows it serves by it. */
  id: string;
  method: Method;
  /** API Gateway path syntax: `{name}` is a path parameter. */
  path: string;
  /** Module in functions/ (without extension) that exports `handler`. Several routes may share one. */
  handler: string;
  /** `key`: x-api-key or Authorization: Bearer; `none`: open (limited per client address). */
  auth: 'key' | 'none';
  /** Error envelope: simple {status, error} or the asset-operations {success, message} (ARCHITECTURE 4). */
  group: 'platform' | 'terminal';
  body: BodyKind;
  /** Minimum tier (free < professional < enterprise); others get 403 TIER_REQUIRED. */
  tier?: 'professional' | 'enterprise';
  /** Rate limiting: per key (by tier) or per client address; health checks are not limited. */
  rate: 'key' | 'address' | 'none';
  /** The spec's message for an unexpected failure of this endpoint, where it names one. */
  internalErrorMessage?: string;
  /** Served only by an edge node (EDGE=1). */
  edgeOnly?: boolean;
  /** One line for the API document. */
  summary: string;
  request?: RequestSchemas;
  /** The 2xx body (shared/schemas/responses); test/e2e/response-schemas.test.ts checks real answers against it. */
  response: ResponseSchemas;
  /** Media type of a success that is not JSON. */
  responseType?: 'text/html';
  /**
   * The monthly quota a request takes one unit of (SPEC "Limits"; 429 TIER_LIMIT_EXCEEDED when used up).
   * The service meters it with `withQuota`, after its own checks and refunded on failure;
   * test/e2e/response-schemas.test.ts checks each row's kind against the usage a request adds.
   */
  quota?: QuotaKind;
}

type RowInput = Omit<Route, 'group' | 'rate' | 'auth'> & Partial<Pick<Route, 'auth' | 'rate'>>;

/** A platform row: key auth and per-key limits unless it says otherwise. */
export const platform = <const R extends RowInput>(row: R) =>
  ({ auth: 'key', rate: row.auth === 'none' ? 'address' : 'key', group: 'platform', ...row }) as R & { auth: R extends { auth: 'none' } ? 'none' : 'key'; rate: Route['rate']; group: 'platform' };

/** A `/terminal/*` action row: POST with a JSON body, the asset-operations envelope. */
export const terminal = <const N extends string, const R extends Pick<Route, 'handler' | 'summary' | 'response'> & { request: RequestSchemas }>(name: N, row: R) =>
  ({
    id: `terminal-${name}`,
    method: 'POST',
    path: `/terminal/${name}`,
    auth: 'key',
    group: 'terminal',
    body: 'json',
    rate: 'key',
    ...(name === 'ml-models' ? { internalErrorMessage: 'Failed to retrieve model registry' } : {}),
    ...row,
  }) as R & { id: `terminal-${N}`; method: 'POST'; path: `/terminal/${N}`; auth: 'key'; group: 'terminal'; body: 'json'; rate: 'key' };

/**
 * The OpenAPI 3.1 document of the service, built from the route rows alone (shared/routes/: the schemas
 * the middleware validates with, the response schemas, quota and summary), with the prose and examples
 * of shared/openapi/route-docs.ts, so it cannot drift from the code.
 */
import * as z from 'zod';
import {
  createDocument,
  type ZodOpenApiContentObject,
  type ZodOpenApiOperationObject,
  type ZodOpenApiOverrideContext,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
  type oas31,
} from 'zod-openapi';
import { config } from '../config';
import cdk from '../../cdk.json';
import { ROUTES, type Route } from '../routes';
import { errorMessages as routeErrorMessages } from './error-examples';
import { ROUTE_DOCS, type RouteDoc } from './route-docs';

/** API stage in the gateway URL (SPEC "Versioning": part of {base_url}), and one stack per region (ARCHITECTURE 2): as deployed. */
const { stage: STAGE, regions: REGIONS } = cdk.context;

// Error bodies (SPEC "Errors"; ARCHITECTURE 4 and 9).
const SimpleError = z
  .object({ status: z.literal('error'), error: z.string(), details: z.array(z.object({ path: z.string(), message: z.string() })).optional(), request_id: z.string().optional() })
  .meta({ id: 'SimpleError', description: 'Error body of the platform endpoints. `details` lists every validation problem; `request_id` names an unexpected failure.' });
const TerminalError = z
  .object({ success: z.literal(false), message: z.string() })
  .meta({ id: 'TerminalError', description: 'Error body of the asset-operations endpoints (/terminal/*).' });
const StructuredError = z
  .object({
    status: z.literal('error'),
    error: z.object({
      code: z.string().meta({ example: 'TIER_LIMIT_EXCEEDED' }),
      message: z.string(),
      details: z.object({ current_tier: z.string(), limit: z.number().int().optional(), used: z.number().int().optional() }).loose(),
      upgrade_url: z.url(),
      support_contact: z.string(),
    }),
  })
  .meta({ id: 'StructuredError', description: 'Structured error: TIER_LIMIT_EXCEEDED (monthly quota, rows per cleaning) and TIER_REQUIRED.' });
/** A body the document does not describe field by field. */
const AnyObject = z.object({}).loose().meta({ id: 'JsonObject', description: 'A JSON object; see the operation description for its fields.' });

const RateLimitHeaders = z.object({
  'X-RateLimit-Limit': z.number().int().meta({ description: 'Requests allowed in the current one-minute window.' }),
  'X-RateLimit-Remaining': z.number().int().meta({ description: 'Requests left in the window.' }),
  'X-RateLimit-Reset': z.number().int().meta({ description: 'End of the window, Unix epoch seconds (ARCHITECTURE 9).' }),
});

const errorMessages: Record<number, string> = {
  400: 'Invalid parameters or request format: a field outside its bounds (ids are 1-128 printable ASCII characters without `/`; every number is 0 or of magnitude 1e-100 to 1e15, physical quantities within their own bounds), a malformed percent-escape in the path, a malformed body',
  401: 'Missing or invalid API key (`Unauthorized`)',
  403: 'The endpoint needs a higher tier than the caller\'s (TIER_REQUIRED)',
  404: 'Not found',
  409: 'Conflict with the current state',
  413: 'Request body too large (6 MB), a record larger than the store allows (400 KB), or more rows than the tier allows (TIER_LIMIT_EXCEEDED)',
  422: 'The solver stopped without an optimum: the inputs span too many orders of magnitude to solve reliably',
  429: 'Rate limit exceeded, or too many failed authentications from this address (with `Retry-After`)',
  500: 'Server-side processing error',
  503: 'A component is down',
};

/** Named examples as OpenAPI wants them: `{name: {value}}`. */
const namedExamples = (examples: Record<string, unknown> | undefined) => (examples ? Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }])) : undefined);

const json = (schema: z.ZodType | oas31.SchemaObject, examples?: Record<string, unknown>): ZodOpenApiContentObject => ({
  'application/json': { schema, ...(examples ? { examples: namedExamples(examples) } : {}) },
});

const EXAMPLE_REQUEST_ID = '3f2b8c1e-5d4a-4c7e-9a61-0c2f7e8d9b10';

/** An error body of the envelope, as the service sends it with `message`. */
function errorBody(envelope: 'platform' | 'terminal', status: number, message: string): unknown {
  if (envelope === 'terminal') return { success: false, message };
  return status === 500 ? { status: 'error', error: message, request_id: EXAMPLE_REQUEST_ID } : { status: 'error', error: message };
}

/** Named examples: each message of the route at this status, in its envelope. */
function messageExamples(envelope: 'platform' | 'terminal', status: number, messages: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(messages.map((m, i) => [i === 0 ? 'example' : `example_${i + 1}`, errorBody(envelope, status, m)]));
}

function structuredExample(route: Route, status: number): Record<string, unknown> {
  const { UPGRADE_URL, SUPPORT_CONTACT } = config();
  const error =
    status === 403
      ? { code: 'TIER_REQUIRED', message: `This endpoint requires ${route.tier === 'enterprise' ? 'the enterprise tier' : `the ${route.tier} or enterprise tier`}`, details: { current_tier: 'free', required_tier: route.tier } }
      : { code: 'TIER_LIMIT_EXCEEDED', message: `Monthly ${route.quota ?? 'usage'} limit reached for the free tier`, details: { current_tier: 'free', limit: 10, used: 10 } };
  return { status: 'error', error: { ...error, upgrade_url: UPGRADE_URL, support_contact: SUPPORT_CONTACT } };
}

function errorResponses(route: Route, doc: RouteDoc | undefined): ZodOpenApiResponsesObject {
  const body = route.group === 'terminal' ? TerminalError : SimpleError;
  const statuses = new Set<number>([400, 413, 500, ...(doc?.errors ?? [])]);
  if (route.auth === 'key') statuses.add(401);
  if (route.rate !== 'none' || route.quota) statuses.add(429);
  if (route.tier) statuses.add(403);
  if (route.body === 'none') statuses.delete(413);
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const status of [...statuses].sort((a, b) => a - b)) {
    const description = route.internalErrorMessage && status === 500 ? `${errorMessages[500]} (\`${route.internalErrorMessage}\`)` : errorMessages[status];
    // SPEC authentication rule 4: the 401 body is the simple one on every route, /terminal/* included.
    const envelope = status === 401 ? 'platform' : route.group;
    const examples = messageExamples(envelope, status, routeErrorMessages(route, status));
    // GET /health answers 503 with its own body, the one it answers 200 with.
    if (status === 503 && route.id === 'health') responses[String(status)] = { description, content: json(route.response as z.ZodType) };
    else if (status === 403) responses[String(status)] = { description, content: json(StructuredError, { example: structuredExample(route, 403) }) };
    else if (status === 429 && route.quota) {
      responses[String(status)] = {
        description: `Rate limit exceeded (${route.group === 'terminal' ? 'TerminalError' : 'SimpleError'}), or the monthly ${route.quota} quota of the tier is used up (TIER_LIMIT_EXCEEDED)`,
        content: json(z.union([StructuredError, body]), { ...examples, quota: structuredExample(route, 429) }),
      };
    } else if (status === 413 && doc?.errors?.includes(413)) responses[String(status)] = { description, content: json(z.union([StructuredError, body]), examples) };
    else responses[String(status)] = { description, content: json(envelope === 'terminal' ? TerminalError : SimpleError, examples) };
  }
  return responses;
}

/** The success responses: each 2xx with the row's response schema. */
function successResponses(route: Route, doc: RouteDoc | undefined): ZodOpenApiResponsesObject {
  const headers = route.rate === 'none' ? undefined : RateLimitHeaders;
  const description = doc?.response ?? 'Success';
  const schemas: Record<number, z.ZodType> = route.response instanceof z.ZodType ? { 200: route.response } : { ...route.response };
  const content = (schema: z.ZodType) => (route.responseType ? { [route.responseType]: { schema } } : json(schema));
  return Object.fromEntries(Object.entries(schemas).map(([code, schema]) => [code, { description, headers, content: content(schema) }]));
}

/** Path parameters: the row's schema, or each `{name}` of the path as a string. */
function pathParameters(route: Route): z.ZodObject | undefined {
  const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  if (!names.length) return undefined;
  if (route.request?.path instanceof z.ZodObject) return route.request.path;
  return z.object(Object.fromEntries(names.map((n) => [n, z.string()])));
}

function requestParams(route: Route): ZodOpenApiOperationObject['requestParams'] {
  const path = pathParameters(route);
  const query = route.request?.query as z.ZodObject | undefined;
  return path || query ? { ...(path ? { path } : {}), ...(query ? { query } : {}) } : undefined;
}

function requestBody(route: Route, doc: RouteDoc | undefined): ZodOpenApiOperationObject['requestBody'] {
  const examples = namedExamples(doc?.examples);
  const csvEncoding = { file: { contentType: 'text/csv' } };
  const { body, form } = route.request ?? {};
  switch (route.body) {
    case 'none':
      return undefined;
    case 'csv':
      return { required: true, content: { 'text/csv': { schema: { type: 'string', description: 'The CSV file content.' } } } };
    case 'multipart':
      return { required: true, content: { 'multipart/form-data': { schema: form ?? AnyObject, encoding: csvEncoding } } };
    case 'upload':
      return {
        required: true,
        content: { 'multipart/form-data': { schema: form ?? AnyObject, encoding: csvEncoding }, 'application/json': { schema: body ?? AnyObject, examples } },
      };
    case 'json':
      return { required: true, content: { 'application/json': { schema: body ?? AnyObject, examples } } };
  }
}

function operation(route: Route): ZodOpenApiOperationObject {
  const doc = ROUTE_DOCS[route.id];
  const notes = [
    route.edgeOnly ? 'Served only by an edge node ({edge_base_url}).' : undefined,
    route.tier ? `Needs the ${route.tier === 'enterprise' ? 'enterprise' : `${route.tier} or enterprise`} tier.` : undefined,
    route.auth === 'none' && route.rate === 'address' ? 'No key; limited per client address.' : undefined,
    doc?.description,
  ].filter(Boolean);
  return {
    operationId: route.id,
    summary: route.summary,
    description: notes.join('\n\n') || undefined,
    tags: [doc?.tag ?? 'Other'],
    security: route.auth === 'key' ? [{ apiKey: [] }, { bearer: [] }] : [],
    requestParams: requestParams(route),
    requestBody: requestBody(route, doc),
    responses: { ...successResponses(route, doc), ...errorResponses(route, doc) },
  };
}

/** The addresses of SPEC "Addresses" as servers; GET /openapi.json puts the serving address first. */
const servers = (): oas31.ServerObject[] => [
  {
    url: `https://{api_id}.execute-api.{region}.amazonaws.com/${STAGE}`,
    description: '{base_url}: regional gateway of the platform endpoints (SPEC 4.1): Sub-Saharan Africa, North America, European Union',
    variables: { api_id: { default: 'api-id', description: 'The stack output ApiUrl names it' }, region: { default: 'eu-central-1', enum: REGIONS } },
  },
  {
    url: `https://{api_id}.execute-api.{region}.amazonaws.com/${STAGE}`,
    description: '{api_url}: upload, terminal, forecast and freemium endpoints (SPEC 4.2-4.4); the same HTTP API as {base_url} (ARCHITECTURE 2)',
    variables: { api_id: { default: 'api-id' }, region: { default: 'eu-central-1', enum: REGIONS } },
  },
  { url: 'http://{edge_host}:{port}', description: '{edge_base_url}: an edge node (npm start with EDGE=1)', variables: { edge_host: { default: '127.0.0.1' }, port: { default: '3000' } } },
];

/** The OpenAPI 3.1.0 document of every route in the table. */
export function buildOpenApiDocument(routes: readonly Route[] = ROUTES): oas31.OpenAPIObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    const item = (paths[route.path] ??= {});
    item[route.method.toLowerCase() as 'get' | 'post' | 'delete'] = operation(route);
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Energy Forecasting and Asset Operations API',
      version: config().SERVICE_VERSION,
      description:
        'Energy analytics and asset operations. Authenticate with `x-api-key: <API_KEY>` or `Authorization: Bearer <API_KEY>`; ' +
        'get a key from POST /api/register. Platform errors are `{status, error}`, asset-operations errors `{success: false, message}`; ' +
        'a missing or invalid key is `{status: "error", error: "Unauthorized"}` on every route.',
    },
    servers: servers(),
    tags: [...new Set(Object.values(ROUTE_DOCS).map((d) => d.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'The API key (platform form).' },
        bearer: { type: 'http', scheme: 'bearer', description: 'The API key as a bearer token (direct form).' },
      },
    },
  }, { override: dropNoise });
}

/**
 * zod writes Number.MAX_SAFE_INTEGER bounds on every integer, and its own regular expression beside every
 * `format: date-time` or `date`; they say nothing to a reader that the format does not.
 */
function dropNoise({ jsonSchema }: ZodOpenApiOverrideContext): void {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  if ((jsonSchema.format === 'date-time' || jsonSchema.format === 'date') && jsonSchema.pattern) delete jsonSchema.pattern;
  // A loose object's `additionalProperties: {}` is JSON Schema's default; written out, Swagger UI invents
  // `additionalProp1..3` in every example it shows.
  const extra = jsonSchema.additionalProperties;
  if (extra && typeof extra === 'object' && Object.keys(extra).length === 0) delete jsonSchema.additionalProperties;
}

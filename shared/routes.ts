/**
 * THE route table (ARCHITECTURE 1): one row per endpoint says everything about it. CDK creates one Lambda
 * per handler module and attaches its routes; the local runtime dispatches by the same rows; the middleware
 * authenticates, limits and validates by the row (shared/http/api-handler.ts); the API document is built
 * from the rows (shared/openapi/document.ts). Adding an endpoint: one row, one file in functions/, its
 * schemas in shared/schemas, its prose in shared/openapi/route-docs.ts, tests.
 */
import type { z } from 'zod';
import { TIERS, type QuotaKind, type Tier } from './domain/accounts/tiers';
import { EdgeSettings } from './edge/edge-settings';
import { CreateClientRequest, CreateCustomerRequest, CreateDeviceRequest, RegisterRequest } from './schemas/accounts';
import { BatchPath, BatchProcessRequest } from './schemas/batch';
import { DispatchOptimizationRequest, RealtimeDispatchRequest } from './schemas/dispatch';
import { DocsQuery } from './schemas/docs';
import { ProjectEconomicsRequest } from './schemas/economics';
import { CustomerForecastQuery } from './schemas/forecast';
import { ForecastRequest, PriceForecastRequest } from './schemas/forecasting';
import { InterpolationRequest } from './schemas/interpolation';
import { PolicyComplianceRequest } from './schemas/policy';
import { EstimatedActualsQuery, PutSiteRequest, PvForecastRequest, SitePath, SiteQuery } from './schemas/pv';
import { RegulatoryUpdatesQuery } from './schemas/regulatory';
import * as r from './schemas/responses';
import {
  AssetsRequest,
  BomRequest,
  DetectRequest,
  DiagnoseRequest,
  OrderRequest,
  ScheduleRequest,
  TerminalCustomerFilter,
  TerminalCustomerRequest,
  TrackRequest,
} from './schemas/terminal';
import { ForecastResultsQuery, ModelPath, TrainingRequest, TrainingStatusPath } from './schemas/training';
import { FreemiumForm, HistoricalQuery, NowcastJsonForms, UploadFormA, UploadFormB, UploadStatusPath } from './schemas/uploads';
import { WeatherDataRequest } from './schemas/weather';
import { CreateWebhookRequest, WebhookPath } from './schemas/webhooks';

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

const platform = <const R extends RowInput>(row: R) =>
  ({ auth: 'key', rate: row.auth === 'none' ? 'address' : 'key', group: 'platform', ...row }) as R & { auth: R extends { auth: 'none' } ? 'none' : 'key'; rate: Route['rate']; group: 'platform' };

const terminal = <const N extends string, const R extends Pick<Route, 'handler' | 'summary' | 'response'> & { request: RequestSchemas }>(name: N, row: R) =>
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

const TABLE = [
  // Foundation: health, accounts, tenancy, system status
  platform({ id: 'health', method: 'GET', path: '/health', handler: 'get-health', auth: 'none', rate: 'none', body: 'none', summary: 'Service health', response: r.HealthResponse }),
  platform({ id: 'register', method: 'POST', path: '/api/register', handler: 'register-account', auth: 'none', body: 'json', summary: 'Register a user and issue an API key', request: { body: RegisterRequest }, response: r.RegisterResponse }),
  platform({ id: 'usage', method: 'GET', path: '/api/usage', handler: 'get-usage', body: 'none', summary: 'Usage and limits of the calling account', response: r.UsageResponse }),
  platform({ id: 'create-client', method: 'POST', path: '/api/create-client', handler: 'create-client', body: 'json', summary: 'Create a client', request: { body: CreateClientRequest }, response: r.CreateClientResponse }),
  platform({ id: 'create-customer', method: 'POST', path: '/api/create-customer', handler: 'create-customer', body: 'json', summary: 'Create a customer of a client', request: { body: CreateCustomerRequest }, response: r.CreateCustomerResponse }),
  platform({ id: 'create-device', method: 'POST', path: '/api/create-device', handler: 'create-device', body: 'json', summary: 'Register a device of a customer', request: { body: CreateDeviceRequest }, response: r.CreateDeviceResponse }),
  platform({ id: 'system-status', method: 'GET', path: '/api/system-status', handler: 'get-system-status', body: 'none', tier: 'enterprise', summary: 'System metrics (enterprise tier)', response: r.SystemStatusResponse }),

  // Ingestion
  platform({ id: 'upload-historical', method: 'POST', path: '/upload_historical', handler: 'upload-data', body: 'csv', internalErrorMessage: 'Upload failed', summary: 'Upload historical data as raw CSV (platform form)', request: { query: HistoricalQuery }, response: r.HistoricalUploadResponse }),
  platform({ id: 'upload-nowcast', method: 'POST', path: '/upload_nowcast', handler: 'upload-data', body: 'upload', internalErrorMessage: 'Upload failed', summary: 'Upload real-time (nowcast) data', request: { body: NowcastJsonForms, form: UploadFormA }, response: r.UploadAcknowledgement }),
  platform({ id: 'upload-train', method: 'POST', path: '/upload_train', handler: 'upload-data', body: 'upload', internalErrorMessage: 'Upload failed', summary: 'Upload historical (training) data', request: { body: UploadFormB, form: UploadFormA }, response: r.UploadAcknowledgement }),
  platform({ id: 'upload-status', method: 'GET', path: '/api/uploads/{upload_id}', handler: 'get-upload-status', body: 'none', summary: 'Processing status of an upload', request: { path: UploadStatusPath }, response: r.UploadStatusResponse }),
  platform({ id: 'site-put', method: 'PUT', path: '/api/sites/{site_id}', handler: 'sites', body: 'json', summary: 'Set the PV system specs of a site', request: { body: PutSiteRequest, path: SitePath }, response: r.SiteResponse }),
  platform({ id: 'site-get', method: 'GET', path: '/api/sites/{site_id}', handler: 'sites', body: 'none', summary: 'A site with its PV specs (set, or inferred from its history with the fit)', request: { query: SiteQuery, path: SitePath }, response: r.SiteResponse }),
  platform({ id: 'weather-data', method: 'POST', path: '/api/weather-data', handler: 'weather-data', body: 'json', summary: 'Weather data for a location and date range', request: { body: WeatherDataRequest }, response: r.WeatherDataResponse }),

  // Forecasting engine
  platform({ id: 'forecast', method: 'POST', path: '/forecast', handler: 'generate-forecast', body: 'json', summary: 'Forecast solar, wind or load from history', request: { body: ForecastRequest }, response: r.ForecastResponse, quota: 'forecasts' }),
  platform({ id: 'generate-forecast', method: 'POST', path: '/api/generate-forecast', handler: 'generate-forecast', body: 'json', summary: 'Forecast solar, wind or load (same as POST /forecast)', request: { body: ForecastRequest }, response: r.ForecastResponse, quota: 'forecasts' }),
  platform({ id: 'price-forecast', method: 'POST', path: '/api/price-forecast', handler: 'price-forecast', body: 'json', summary: 'Electricity price forecast', request: { body: PriceForecastRequest }, response: r.PriceForecastResponse, quota: 'forecasts' }),
  platform({ id: 'pv-forecast', method: 'POST', path: '/api/pv-forecast', handler: 'pv-forecast', body: 'json', summary: 'Physics forecast of a PV system (no history needed)', request: { body: PvForecastRequest }, response: r.PvForecastResponse, quota: 'forecasts' }),
  platform({ id: 'pv-estimated-actuals', method: 'GET', path: '/api/pv-estimated-actuals', handler: 'pv-forecast', body: 'none', summary: 'Modelled PV output of past days from the weather record', request: { query: EstimatedActualsQuery }, response: r.PvEstimatedActualsResponse, quota: 'forecasts' }),
  platform({ id: 'freemium-forecast', method: 'POST', path: '/v1/freemium-forecast', handler: 'freemium-forecast', auth: 'none', body: 'multipart', internalErrorMessage: 'Forecast generation failed', summary: 'Free 24-hour forecast from a CSV (no key)', request: { form: FreemiumForm }, response: r.FreemiumForecastResponse }),
  platform({ id: 'freemium-forecast-api', method: 'POST', path: '/api/v1/freemium-forecast', handler: 'freemium-forecast', auth: 'none', body: 'multipart', internalErrorMessage: 'Forecast generation failed', summary: 'Free 24-hour forecast (second path of /v1/freemium-forecast)', request: { form: FreemiumForm }, response: r.FreemiumForecastResponse }),

  // Training, registry, customer forecasts, stored results
  platform({ id: 'train', method: 'POST', path: '/train', handler: 'train', body: 'json', summary: 'Start training a model', request: { body: TrainingRequest }, response: r.TrainResponse, quota: 'model_training_jobs' }),
  platform({ id: 'training-status', method: 'GET', path: '/api/training-status/{job_id}', handler: 'get-training-status', body: 'none', summary: 'Status of a training job', request: { path: TrainingStatusPath }, response: r.TrainingStatusResponse }),
  platform({ id: 'get-forecast', method: 'GET', path: '/forecast', handler: 'get-customer-forecast', body: 'none', internalErrorMessage: 'Forecast generation failed', summary: 'Forecast of a customer from its trained models', request: { query: CustomerForecastQuery }, response: r.CustomerForecastResponse, quota: 'forecasts' }),
  platform({ id: 'results', method: 'GET', path: '/results', handler: 'get-forecast-results', body: 'none', summary: 'Stored forecast results and their accuracy', request: { query: ForecastResultsQuery }, response: r.ForecastResultsResponse }),
  platform({ id: 'forecast-results', method: 'GET', path: '/api/forecast-results', handler: 'get-forecast-results', body: 'none', summary: 'Stored forecast results (same as GET /results)', request: { query: ForecastResultsQuery }, response: r.ForecastResultsResponse }),
  platform({ id: 'models-marketplace', method: 'GET', path: '/api/models/marketplace', handler: 'get-models-marketplace', body: 'none', summary: 'Models on the marketplace', response: r.MarketplaceResponse }),
  platform({ id: 'model-promote', method: 'POST', path: '/api/models/{model_id}/promote', handler: 'change-model-status', body: 'none', tier: 'professional', summary: 'Promote a challenger (or archived) model to production', request: { path: ModelPath }, response: r.PromoteModelResponse }),
  platform({ id: 'model-rollback', method: 'POST', path: '/api/models/{model_id}/rollback', handler: 'change-model-status', body: 'none', tier: 'professional', summary: 'Roll a production model back to the one it replaced', request: { path: ModelPath }, response: r.RollbackModelResponse }),
  terminal('forecast', { handler: 'terminal-forecast', summary: 'Stored forecast results of a customer', request: { body: TerminalCustomerRequest }, response: r.TerminalForecastResponse }),
  terminal('ml-models', { handler: 'terminal-ml-models', summary: 'Model registry records', request: { body: TerminalCustomerFilter }, response: r.TerminalModelsResponse }),

  // Asset operations (OODA)
  terminal('assets', { handler: 'terminal-assets', summary: 'Add, list or get assets', request: { body: AssetsRequest }, response: r.TerminalAssetsResponse }),
  terminal('schedule', { handler: 'terminal-schedule', summary: 'Create or list maintenance schedules (Decide)', request: { body: ScheduleRequest }, response: r.TerminalScheduleResponse }),
  terminal('bom', { handler: 'terminal-bom', summary: 'Generate or list bills of materials (Decide)', request: { body: BomRequest }, response: r.TerminalBomResponse }),
  terminal('order', { handler: 'terminal-order', summary: 'Create, list or update work orders (Act)', request: { body: OrderRequest }, response: r.TerminalOrderResponse }),
  terminal('track', { handler: 'terminal-track', summary: 'Subscribe to work-order status changes', request: { body: TrackRequest }, response: r.TerminalTrackResponse }),
  terminal('detect', { handler: 'terminal-detect', summary: 'Run or list fault detection (Observe)', request: { body: DetectRequest }, response: r.TerminalDetectResponse }),
  terminal('diagnose', { handler: 'terminal-diagnose', summary: 'Run or list diagnostics (Orient)', request: { body: DiagnoseRequest }, response: r.TerminalDiagnoseResponse }),
  terminal('ooda', { handler: 'terminal-ooda', summary: 'OODA summaries of a customer', request: { body: TerminalCustomerRequest }, response: r.TerminalOodaResponse }),
  platform({ id: 'webhooks-create', method: 'POST', path: '/api/webhooks', handler: 'webhooks', body: 'json', summary: 'Register a webhook', request: { body: CreateWebhookRequest }, response: { 201: r.CreateWebhookResponse } }),
  platform({ id: 'webhooks-list', method: 'GET', path: '/api/webhooks', handler: 'webhooks', body: 'none', summary: 'List webhook registrations', response: r.ListWebhooksResponse }),
  platform({ id: 'webhooks-delete', method: 'DELETE', path: '/api/webhooks/{webhook_id}', handler: 'webhooks', body: 'none', summary: 'Remove a webhook registration', request: { path: WebhookPath }, response: r.DeleteWebhookResponse }),

  // Data cleaning
  platform({ id: 'interpolate', method: 'POST', path: '/interpolate', handler: 'interpolate', body: 'json', summary: 'Fill gaps and clean a series', request: { body: InterpolationRequest }, response: r.InterpolationResponse, quota: 'data_cleaning_operations' }),
  terminal('interpolation', { handler: 'terminal-interpolation', summary: 'Stored interpolation results of a customer', request: { body: TerminalCustomerRequest }, response: r.TerminalInterpolationResponse }),

  // Dispatch
  platform({ id: 'dispatch-optimization', method: 'POST', path: '/api/dispatch-optimization', handler: 'optimize-dispatch', body: 'json', summary: 'Optimise battery, solar and grid dispatch', request: { body: DispatchOptimizationRequest }, response: r.DispatchOptimizationResponse }),
  platform({ id: 'realtime-dispatch', method: 'POST', path: '/api/realtime-dispatch', handler: 'realtime-dispatch', body: 'json', summary: 'Send a real-time control command', request: { body: RealtimeDispatchRequest }, response: r.RealtimeDispatchResponse }),

  // Policy and economics
  platform({ id: 'policy-compliance', method: 'POST', path: '/api/policy-compliance', handler: 'policy-compliance', body: 'json', summary: 'Policy and compliance question answering', request: { body: PolicyComplianceRequest }, response: r.PolicyComplianceResponse, quota: 'policy_queries' }),
  platform({ id: 'policy-compliance-freemium', method: 'POST', path: '/api/policy-compliance-freemium', handler: 'policy-compliance', auth: 'none', body: 'json', summary: 'Policy question answering without a key', request: { body: PolicyComplianceRequest }, response: r.PolicyComplianceResponse }),
  platform({ id: 'regulatory-updates', method: 'GET', path: '/api/regulatory-updates', handler: 'get-regulatory-updates', body: 'none', summary: 'Regulatory updates', request: { query: RegulatoryUpdatesQuery }, response: r.RegulatoryUpdatesResponse }),
  platform({ id: 'project-economics', method: 'POST', path: '/api/project-economics', handler: 'project-economics', body: 'json', summary: 'Project economics (NPV, IRR, payback, LCOE, ROI)', request: { body: ProjectEconomicsRequest }, response: r.ProjectEconomicsResponse }),

  // Batch, edge, OpenAPI
  // A batch takes the quota of each operation it runs (one unit per operation), not one of its own.
  platform({ id: 'batch-process', method: 'POST', path: '/api/batch-process', handler: 'batch-process', body: 'json', summary: 'Run several operations in one request', request: { body: BatchProcessRequest }, response: { 200: r.BatchResultsResponse, 202: r.BatchAcceptedResponse } }),
  platform({ id: 'batch-status', method: 'GET', path: '/api/batch/{batch_id}', handler: 'batch-process', body: 'none', summary: 'Status of a batch', request: { path: BatchPath }, response: r.BatchStatusResponse }),
  platform({ id: 'edge-configure', method: 'POST', path: '/api/edge/configure', handler: 'edge', body: 'json', edgeOnly: true, summary: 'Configure the edge node (edge only)', request: { body: EdgeSettings.partial() }, response: r.EdgeConfigureResponse }),
  platform({ id: 'edge-status', method: 'GET', path: '/api/edge/status', handler: 'edge', body: 'none', edgeOnly: true, summary: 'Status of the edge node (edge only)', response: r.EdgeStatusResponse }),
  platform({ id: 'openapi', method: 'GET', path: '/openapi.json', handler: 'get-openapi', auth: 'none', body: 'none', summary: 'This API document (OpenAPI 3.1)', response: r.OpenApiDocument }),
  platform({ id: 'docs', method: 'GET', path: '/docs', handler: 'get-docs', auth: 'none', body: 'none', summary: 'API reference page', request: { query: DocsQuery }, response: r.DocsPage, responseType: 'text/html' }),
] as const;

/** The rows, in the order the document lists them. */
export const ROUTES: readonly Route[] = TABLE;

/** A row as declared, its schemas' own types kept (the handlers' input types come from them). */
export type Row = (typeof TABLE)[number];
export type RouteId = Row['id'];
export type RowOf<Id extends RouteId> = Extract<Row, { id: Id }>;
/** The handler modules of the table, and the rows each serves. */
export type HandlerModule = Row['handler'];
export type RouteIdOf<M extends HandlerModule> = Extract<Row, { handler: M }>['id'];

/** Whether a caller's tier reaches a row's minimum tier (TIERS runs from the lowest to the highest). */
export const meetsTier = (tier: Tier | undefined, minimum: Route['tier']): boolean => !minimum || (tier !== undefined && TIERS.indexOf(tier) >= TIERS.indexOf(minimum));

export function routeById(id: string): Route {
  const route = ROUTES.find((r) => r.id === id);
  if (!route) throw new Error(`no route with id ${id}`);
  return route;
}

/** The handler modules, each once (CDK makes one function per module). */
export const handlerModules = (routes: readonly Route[] = ROUTES): string[] => [...new Set(routes.map((r) => r.handler))];

/** A row matched to a request path; `malformed` names a path parameter whose percent-escapes do not decode. */
export type RouteMatch =
  | { route: Route; pathParameters: Record<string, string>; malformed?: string }
  | { route: undefined; pathExists: boolean };

/** Matches a method and a path to a row; path parameters are returned by name, decoded. */
export function matchRoute(method: string, path: string, routes: readonly Route[] = ROUTES): RouteMatch {
  let pathExists = false;
  for (const route of routes) {
    const params = matchPath(route.path, path);
    if (!params) continue;
    pathExists = true;
    if (route.method === method) return { route, ...params };
  }
  return { route: undefined, pathExists };
}

/** decodeURIComponent without the throw: a malformed escape (`%ZZ`, a cut UTF-8 sequence) is undefined. */
export function decodePathSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * The path parameters of `path` under a row's pattern, or undefined when the path is another row's. A
 * segment that does not decode is kept raw and named in `malformed`: the caller answers 400, never throws.
 */
export function matchPath(pattern: string, path: string): { pathParameters: Record<string, string>; malformed?: string } | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const pathParameters: Record<string, string> = {};
  let malformed: string | undefined;
  for (let i = 0; i < want.length; i++) {
    const w = want[i];
    if (w.startsWith('{') && w.endsWith('}')) {
      if (!got[i]) return undefined;
      const name = w.slice(1, -1);
      const decoded = decodePathSegment(got[i]);
      if (decoded === undefined) malformed ??= name;
      pathParameters[name] = decoded ?? got[i];
    } else if (w !== got[i]) return undefined;
  }
  return malformed ? { pathParameters, malformed } : { pathParameters };
}

/** The 400 message of a path parameter whose percent-escapes do not decode. */
export const malformedPathMessage = (parameter: string): string => `Invalid path parameter: ${parameter} is not valid percent-encoding`;

/** API Gateway's route key ("POST /api/register"), also set by the local runtime on every event. */
export const routeKey = (route: Pick<Route, 'method' | 'path'>): string => `${route.method} ${route.path}`;

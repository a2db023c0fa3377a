/**
 * THE route table (ARCHITECTURE 1). CDK creates one Lambda per handler module and attaches its routes;
 * the local runtime dispatches by the same rows. Adding an endpoint: one row, one file in functions/,
 * one schema, tests.
 */

import { TIERS, type Tier } from './domain/accounts/tiers';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** How a request body is read before the handler runs. */
export type BodyKind =
  | 'none' // no body expected (GET)
  | 'json' // JSON object, Content-Type application/json
  | 'upload' // JSON object, or multipart/form-data left for busboy (upload forms A and B)
  | 'multipart' // multipart/form-data only
  | 'csv'; // raw text body (platform /upload_historical)

export interface Route {
  /** Unique id; handler files look their row up by it. */
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
}

const platform = (r: Omit<Route, 'group' | 'rate' | 'auth'> & Partial<Pick<Route, 'auth' | 'rate'>>): Route => ({
  auth: 'key',
  rate: r.auth === 'none' ? 'address' : 'key',
  group: 'platform',
  ...r,
});

const terminal = (name: string, handler: string): Route => ({
  id: `terminal-${name}`,
  method: 'POST',
  path: `/terminal/${name}`,
  handler,
  auth: 'key',
  group: 'terminal',
  body: 'json',
  rate: 'key',
  ...(name === 'ml-models' ? { internalErrorMessage: 'Failed to retrieve model registry' } : {}),
});


export const ROUTES: readonly Route[] = [
  // Foundation: health, accounts, tenancy, system status
  platform({ id: 'health', method: 'GET', path: '/health', handler: 'get-health', auth: 'none', rate: 'none', body: 'none' }),
  platform({ id: 'register', method: 'POST', path: '/api/register', handler: 'register-account', auth: 'none', body: 'json' }),
  platform({ id: 'usage', method: 'GET', path: '/api/usage', handler: 'get-usage', body: 'none' }),
  platform({ id: 'create-client', method: 'POST', path: '/api/create-client', handler: 'create-client', body: 'json' }),
  platform({ id: 'create-customer', method: 'POST', path: '/api/create-customer', handler: 'create-customer', body: 'json' }),
  platform({ id: 'create-device', method: 'POST', path: '/api/create-device', handler: 'create-device', body: 'json' }),
  platform({ id: 'system-status', method: 'GET', path: '/api/system-status', handler: 'get-system-status', body: 'none', tier: 'enterprise' }),

  // Ingestion
  platform({ id: 'upload-historical', method: 'POST', path: '/upload_historical', handler: 'upload-data', body: 'csv', internalErrorMessage: 'Upload failed' }),
  platform({ id: 'upload-nowcast', method: 'POST', path: '/upload_nowcast', handler: 'upload-data', body: 'upload', internalErrorMessage: 'Upload failed' }),
  platform({ id: 'upload-train', method: 'POST', path: '/upload_train', handler: 'upload-data', body: 'upload', internalErrorMessage: 'Upload failed' }),
  platform({ id: 'upload-status', method: 'GET', path: '/api/uploads/{upload_id}', handler: 'get-upload-status', body: 'none' }),
  platform({ id: 'site-put', method: 'PUT', path: '/api/sites/{site_id}', handler: 'sites', body: 'json' }),
  platform({ id: 'site-get', method: 'GET', path: '/api/sites/{site_id}', handler: 'sites', body: 'none' }),
  platform({ id: 'weather-data', method: 'POST', path: '/api/weather-data', handler: 'weather-data', body: 'json' }),

  // Forecasting engine
  platform({ id: 'forecast', method: 'POST', path: '/forecast', handler: 'generate-forecast', body: 'json' }),
  platform({ id: 'generate-forecast', method: 'POST', path: '/api/generate-forecast', handler: 'generate-forecast', body: 'json' }),
  platform({ id: 'price-forecast', method: 'POST', path: '/api/price-forecast', handler: 'price-forecast', body: 'json' }),
  platform({ id: 'pv-forecast', method: 'POST', path: '/api/pv-forecast', handler: 'pv-forecast', body: 'json' }),
  platform({ id: 'pv-estimated-actuals', method: 'GET', path: '/api/pv-estimated-actuals', handler: 'pv-forecast', body: 'none' }),
  platform({ id: 'freemium-forecast', method: 'POST', path: '/v1/freemium-forecast', handler: 'freemium-forecast', auth: 'none', body: 'multipart', internalErrorMessage: 'Forecast generation failed' }),
  platform({ id: 'freemium-forecast-api', method: 'POST', path: '/api/v1/freemium-forecast', handler: 'freemium-forecast', auth: 'none', body: 'multipart', internalErrorMessage: 'Forecast generation failed' }),

  // Training, registry, customer forecasts, stored results
  platform({ id: 'train', method: 'POST', path: '/train', handler: 'train', body: 'json' }),
  platform({ id: 'training-status', method: 'GET', path: '/api/training-status/{job_id}', handler: 'get-training-status', body: 'none' }),
  platform({ id: 'get-forecast', method: 'GET', path: '/forecast', handler: 'get-customer-forecast', body: 'none', internalErrorMessage: 'Forecast generation failed' }),
  platform({ id: 'results', method: 'GET', path: '/results', handler: 'get-forecast-results', body: 'none' }),
  platform({ id: 'forecast-results', method: 'GET', path: '/api/forecast-results', handler: 'get-forecast-results', body: 'none' }),
  platform({ id: 'models-marketplace', method: 'GET', path: '/api/models/marketplace', handler: 'get-models-marketplace', body: 'none' }),
  platform({ id: 'model-promote', method: 'POST', path: '/api/models/{model_id}/promote', handler: 'change-model-status', body: 'none', tier: 'professional' }),
  platform({ id: 'model-rollback', method: 'POST', path: '/api/models/{model_id}/rollback', handler: 'change-model-status', body: 'none', tier: 'professional' }),
  terminal('forecast', 'terminal-forecast'),
  terminal('ml-models', 'terminal-ml-models'),

  // Asset operations (OODA)
  terminal('assets', 'terminal-assets'),
  terminal('schedule', 'terminal-schedule'),
  terminal('bom', 'terminal-bom'),
  terminal('order', 'terminal-order'),
  terminal('track', 'terminal-track'),
  terminal('detect', 'terminal-detect'),
  terminal('diagnose', 'terminal-diagnose'),
  terminal('ooda', 'terminal-ooda'),
  platform({ id: 'webhooks-create', method: 'POST', path: '/api/webhooks', handler: 'webhooks', body: 'json' }),
  platform({ id: 'webhooks-list', method: 'GET', path: '/api/webhooks', handler: 'webhooks', body: 'none' }),
  platform({ id: 'webhooks-delete', method: 'DELETE', path: '/api/webhooks/{webhook_id}', handler: 'webhooks', body: 'none' }),

  // Data cleaning
  platform({ id: 'interpolate', method: 'POST', path: '/interpolate', handler: 'interpolate', body: 'json' }),
  terminal('interpolation', 'terminal-interpolation'),

  // Dispatch
  platform({ id: 'dispatch-optimization', method: 'POST', path: '/api/dispatch-optimization', handler: 'optimize-dispatch', body: 'json' }),
  platform({ id: 'realtime-dispatch', method: 'POST', path: '/api/realtime-dispatch', handler: 'realtime-dispatch', body: 'json' }),

  // Policy and economics
  platform({ id: 'policy-compliance', method: 'POST', path: '/api/policy-compliance', handler: 'policy-compliance', body: 'json' }),
  platform({ id: 'policy-compliance-freemium', method: 'POST', path: '/api/policy-compliance-freemium', handler: 'policy-compliance', auth: 'none', body: 'json' }),
  platform({ id: 'regulatory-updates', method: 'GET', path: '/api/regulatory-updates', handler: 'get-regulatory-updates', body: 'none' }),
  platform({ id: 'project-economics', method: 'POST', path: '/api/project-economics', handler: 'project-economics', body: 'json' }),

  // Batch, edge, OpenAPI
  platform({ id: 'batch-process', method: 'POST', path: '/api/batch-process', handler: 'batch-process', body: 'json' }),
  platform({ id: 'batch-status', method: 'GET', path: '/api/batch/{batch_id}', handler: 'batch-process', body: 'none' }),
  platform({ id: 'edge-configure', method: 'POST', path: '/api/edge/configure', handler: 'edge', body: 'json', edgeOnly: true }),
  platform({ id: 'edge-status', method: 'GET', path: '/api/edge/status', handler: 'edge', body: 'none', edgeOnly: true }),
  platform({ id: 'openapi', method: 'GET', path: '/openapi.json', handler: 'get-openapi', auth: 'none', body: 'none' }),
  platform({ id: 'docs', method: 'GET', path: '/docs', handler: 'get-docs', auth: 'none', body: 'none' }),
];

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

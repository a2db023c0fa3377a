/**
 * THE route table (ARCHITECTURE 1): one row per endpoint says everything about it. CDK creates one Lambda
 * per handler module and attaches its routes; the local runtime dispatches by the same rows; the middleware
 * authenticates, limits and validates by the row (shared/http/api-handler.ts); the API document is built
 * from the rows (shared/openapi/document.ts). The rows are written per capability (./foundation.ts, ...), and
 * a handler serves its capability's rows: its bundle then builds only those rows' schemas, where the whole
 * table's cost every function about 60 ms of start-up. This file joins them, in the document's order.
 * Adding an endpoint: one row in its capability's file, one file in functions/, its schemas in shared/schemas,
 * its prose in shared/openapi/route-docs.ts, tests.
 */
import { BATCH_EDGE_ROUTES } from './batch-edge';
import { DISPATCH_ROUTES } from './dispatch';
import { FORECASTING_ROUTES } from './forecasting';
import { FOUNDATION_ROUTES } from './foundation';
import { INGESTION_ROUTES } from './ingestion';
import { INTERPOLATION_ROUTES } from './interpolation';
import { matchPath } from './matching';
import { OPERATIONS_ROUTES } from './operations';
import { POLICY_ROUTES } from './policy';
import type { Route } from './route';
import { TRAINING_ROUTES } from './training';

export * from './route';
export * from './matching';

const TABLE = [
  ...FOUNDATION_ROUTES,
  ...INGESTION_ROUTES,
  ...FORECASTING_ROUTES,
  ...TRAINING_ROUTES,
  ...OPERATIONS_ROUTES,
  ...INTERPOLATION_ROUTES,
  ...DISPATCH_ROUTES,
  ...POLICY_ROUTES,
  ...BATCH_EDGE_ROUTES,
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

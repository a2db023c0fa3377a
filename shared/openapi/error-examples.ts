/**
 * The error messages each route answers, as examples of its error responses: the spec's own (SPEC "Error
 * messages per endpoint"), the service's named errors of that route, and for a 400 without one the message
 * the route's own schema gives an empty request. Every route's 401 is `Unauthorized`.
 */
import * as z from 'zod';
import { ServiceError } from '../errors';
import { parseWith } from '../validation';
import type { Route } from '../routes';

type Messages = Partial<Record<number, readonly string[]>>;

const ASSET_NOT_FOUND = { 404: ['Asset not found'] };

/** Messages by route id and status, word for word as the service answers them. */
const ROUTE_ERRORS: Readonly<Record<string, Messages>> = {
  register: { 409: ['An account with this email already exists'] },
  'create-client': { 409: ['Client client-001 already exists'] },
  'create-customer': { 404: ['Client not found'], 409: ['Customer customer-001 already exists'] },
  'create-device': { 404: ['Customer not found'], 409: ['A Example Storage device with serial number BAT-2025-0001 already exists'] },
  'upload-historical': { 400: ['CSV file is required', 'Invalid CSV format'], 500: ['Upload failed'] },
  'upload-nowcast': { 400: ['CSV file is required', 'Invalid CSV format', 'Missing required parameter: customer_id'], 404: ['File not found at s3_path'], 500: ['Upload failed'] },
  'upload-train': { 400: ['CSV file is required', 'Invalid CSV format', 'Missing required parameter: site_id'], 404: ['File not found at s3_path'], 500: ['Upload failed'] },
  'upload-status': { 404: ['Upload not found'] },
  'site-put': { 404: ['Site site-berlin-1 not found for customer customer-001'] },
  'site-get': { 404: ['Site site-berlin-1 not found for customer customer-001'] },
  'site-series': { 400: ['Invalid request: start must be a valid datetime', 'Invalid request: start must not be after end'], 404: ['Site site-berlin-1 not found for customer customer-001', 'No stored data for site site-berlin-1: upload a series first'] },
  'pv-forecast': { 404: ['Site site-berlin-1 not found for customer customer-001'] },
  'pv-estimated-actuals': { 404: ['Site site-berlin-1 not found for customer customer-001'] },
  'freemium-forecast': { 400: ['CSV file is required', 'Invalid email address format', 'Invalid CSV Format'], 500: ['Forecast generation failed'] },
  'freemium-forecast-api': { 400: ['CSV file is required', 'Invalid email address format', 'Invalid CSV Format'], 500: ['Forecast generation failed'] },
  'training-status': { 404: ['Training job not found'] },
  'get-forecast': { 400: ['Missing required parameter: customer_id'], 404: ['No model found for customer', 'Site not found'], 500: ['Forecast generation failed'] },
  'model-promote': { 404: ['Model not found'], 409: ['Model v2 is already the production model of site site-berlin-1'] },
  'model-rollback': { 404: ['Model not found'], 409: ['Model v1 is not in production (status archived): only the production model can be rolled back'] },
  'terminal-forecast': { 400: ['Missing required field: customer_id'], 404: ['No forecast results found'] },
  'terminal-interpolation': { 400: ['Missing required field: customer_id'], 404: ['No interpolation results found'] },
  'terminal-ooda': { 400: ['Missing required field: customer_id'], 404: ['No OODA summaries found'] },
  'terminal-ml-models': { 500: ['Failed to retrieve model registry'] },
  'terminal-assets': { 400: ['Missing required field: asset_id', 'Invalid action'], ...ASSET_NOT_FOUND, 409: ['Asset inverter-001 already exists'] },
  'terminal-order': { 400: ['Invalid action', 'Missing required field: bom_id'], 404: ['Asset not found', 'Schedule not found', 'BOM not found', 'Order not found'], 409: ['Invalid status transition'] },
  'terminal-schedule': { 400: ['Invalid action', 'Missing required field: maintenance_type'], ...ASSET_NOT_FOUND },
  'terminal-bom': { 400: ['Invalid action', 'Missing required field: maintenance_type'], 404: ['Asset not found', 'Schedule not found'] },
  'terminal-diagnose': { 400: ['Invalid action'], ...ASSET_NOT_FOUND },
  'terminal-detect': { 400: ['Invalid action'], ...ASSET_NOT_FOUND },
  'terminal-track': { 400: ['Invalid action', 'Invalid callback URL'], 404: ['Order not found'] },
  'webhooks-delete': { 404: ['Webhook not found'] },
  'realtime-dispatch': { 404: ['Device not found'] },
  'batch-status': { 404: ['Batch not found'] },
  docs: { 404: ['Not found'] },
};

/** Messages every route of a kind can answer. */
const COMMON: Messages = {
  401: ['Unauthorized'],
  413: ['Request body too large'],
  422: ['The solver stopped without an optimum: the inputs may span too many orders of magnitude (capacity, power and prices) to solve reliably'],
  429: ['Rate limit exceeded', 'Too many failed authentications from this address'],
};

/** The 400 the route's own schema gives a request without its required input, if any. */
function emptyRequestMessage(route: Route): string | undefined {
  const attempts: [z.ZodType | undefined, string][] = [
    [route.body === 'json' ? route.request?.body : undefined, 'body'],
    [route.request?.query, 'query'],
  ];
  for (const [schema, root] of attempts) {
    if (!schema) continue;
    try {
      parseWith(schema, {}, root);
    } catch (err) {
      if (err instanceof ServiceError) return err.message;
    }
  }
  return undefined;
}

/** The example messages of one status of a route, most specific first. */
export function errorMessages(route: Route, status: number): string[] {
  const own = [...(ROUTE_ERRORS[route.id]?.[status] ?? [])];
  if (status === 400) {
    const empty = emptyRequestMessage(route);
    if (empty && !own.includes(empty)) own.push(empty);
    if (route.body === 'json') own.push('Request body is not valid JSON');
  }
  if (status === 500) return own.length ? own : ['Internal server error'];
  if (status === 404 && !own.length) return ['Not found'];
  return [...own, ...(COMMON[status] ?? [])];
}

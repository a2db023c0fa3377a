/** The route rows of batch, edge, OpenAPI (shared/routes/index.ts: the table and what a row holds). */
import { platform } from './route';
import { EdgeSettings } from '../edge-node/edge-settings';
import { BatchPath, BatchProcessRequest } from '../schemas/batch';
import { DocsQuery } from '../schemas/docs';
import { BatchAcceptedResponse, BatchResultsResponse, BatchStatusResponse, EdgeConfigureResponse, EdgeStatusResponse } from '../schemas/responses/batch-edge';
import { DocsPage, OpenApiDocument } from '../schemas/responses/foundation';

export const BATCH_EDGE_ROUTES = [
  // A batch takes the quota of each operation it runs (one unit per operation), not one of its own.
  platform({ id: 'batch-process', method: 'POST', path: '/api/batch-process', handler: 'batch-process', body: 'json', summary: 'Run several operations in one request', request: { body: BatchProcessRequest }, response: { 200: BatchResultsResponse, 202: BatchAcceptedResponse } }),
  platform({ id: 'batch-status', method: 'GET', path: '/api/batch/{batch_id}', handler: 'batch-process', body: 'none', summary: 'Status of a batch', request: { path: BatchPath }, response: BatchStatusResponse }),
  platform({ id: 'edge-configure', method: 'POST', path: '/api/edge/configure', handler: 'edge', body: 'json', edgeOnly: true, summary: 'Configure the edge node (edge only)', request: { body: EdgeSettings.partial() }, response: EdgeConfigureResponse }),
  platform({ id: 'edge-status', method: 'GET', path: '/api/edge/status', handler: 'edge', body: 'none', edgeOnly: true, summary: 'Status of the edge node (edge only)', response: EdgeStatusResponse }),
  platform({ id: 'openapi', method: 'GET', path: '/openapi.json', handler: 'get-openapi', auth: 'none', body: 'none', summary: 'This API document (OpenAPI 3.1)', response: OpenApiDocument }),
  platform({ id: 'docs', method: 'GET', path: '/docs', handler: 'get-docs', auth: 'none', body: 'none', summary: 'API reference page', request: { query: DocsQuery }, response: DocsPage, responseType: 'text/html' }),
] as const;

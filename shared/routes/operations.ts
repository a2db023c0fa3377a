/** The route rows of asset operations (OODA) (shared/routes/index.ts: the table and what a row holds). */
import { platform, terminal } from './route';
import { TerminalAssetsResponse, TerminalBomResponse, TerminalDetectResponse, TerminalDiagnoseResponse, TerminalOodaResponse, TerminalOrderResponse, TerminalScheduleResponse, TerminalTrackResponse } from '../schemas/responses/operations';
import { CreateWebhookResponse, DeleteWebhookResponse, ListWebhooksResponse } from '../schemas/responses/webhooks';
import { AssetsRequest, BomRequest, DetectRequest, DiagnoseRequest, OrderRequest, ScheduleRequest, TerminalCustomerRequest, TrackRequest } from '../schemas/terminal';
import { CreateWebhookRequest, WebhookPath } from '../schemas/webhooks';

export const OPERATIONS_ROUTES = [
  terminal('assets', { handler: 'terminal-assets', summary: 'Add, list or get assets', request: { body: AssetsRequest }, response: TerminalAssetsResponse }),
  terminal('schedule', { handler: 'terminal-schedule', summary: 'Create or list maintenance schedules (Decide)', request: { body: ScheduleRequest }, response: TerminalScheduleResponse }),
  terminal('bom', { handler: 'terminal-bom', summary: 'Generate or list bills of materials (Decide)', request: { body: BomRequest }, response: TerminalBomResponse }),
  terminal('order', { handler: 'terminal-order', summary: 'Create, list or update work orders (Act)', request: { body: OrderRequest }, response: TerminalOrderResponse }),
  terminal('track', { handler: 'terminal-track', summary: 'Subscribe to work-order status changes', request: { body: TrackRequest }, response: TerminalTrackResponse }),
  terminal('detect', { handler: 'terminal-detect', summary: 'Run or list fault detection (Observe)', request: { body: DetectRequest }, response: TerminalDetectResponse }),
  terminal('diagnose', { handler: 'terminal-diagnose', summary: 'Run or list diagnostics (Orient)', request: { body: DiagnoseRequest }, response: TerminalDiagnoseResponse }),
  terminal('ooda', { handler: 'terminal-ooda', summary: 'OODA summaries of a customer', request: { body: TerminalCustomerRequest }, response: TerminalOodaResponse }),
  platform({ id: 'webhooks-create', method: 'POST', path: '/api/webhooks', handler: 'webhooks', body: 'json', summary: 'Register a webhook', request: { body: CreateWebhookRequest }, response: { 201: CreateWebhookResponse } }),
  platform({ id: 'webhooks-list', method: 'GET', path: '/api/webhooks', handler: 'webhooks', body: 'none', summary: 'List webhook registrations', response: ListWebhooksResponse }),
  platform({ id: 'webhooks-delete', method: 'DELETE', path: '/api/webhooks/{webhook_id}', handler: 'webhooks', body: 'none', summary: 'Remove a webhook registration', request: { path: WebhookPath }, response: DeleteWebhookResponse }),
] as const;

/** The route rows of dispatch (shared/routes/index.ts: the table and what a row holds). */
import { platform } from './route';
import { DispatchOptimizationRequest, RealtimeDispatchRequest } from '../schemas/dispatch';
import { DispatchOptimizationResponse, RealtimeDispatchResponse } from '../schemas/responses/dispatch';

export const DISPATCH_ROUTES = [
  platform({ id: 'dispatch-optimization', method: 'POST', path: '/api/dispatch-optimization', handler: 'optimize-dispatch', body: 'json', summary: 'Optimise battery, solar and grid dispatch', request: { body: DispatchOptimizationRequest }, response: DispatchOptimizationResponse }),
  platform({ id: 'realtime-dispatch', method: 'POST', path: '/api/realtime-dispatch', handler: 'realtime-dispatch', body: 'json', summary: 'Send a real-time control command', request: { body: RealtimeDispatchRequest }, response: RealtimeDispatchResponse }),
] as const;

/** The route rows of dispatch (shared/routes/index.ts: the table and what a row holds). */
import { platform } from './route';
import { DispatchOptimizationRequest, MpcPlanPath, MpcRequest, RealtimeDispatchRequest } from '../schemas/dispatch';
import { DispatchOptimizationResponse, MpcPlanResponse, MpcResponse, RealtimeDispatchResponse } from '../schemas/responses/dispatch';
import { BatterySizingRequest } from '../schemas/battery-sizing';
import { BatterySizingResponse } from '../schemas/responses/battery-sizing';

export const DISPATCH_ROUTES = [
  platform({ id: 'dispatch-optimization', method: 'POST', path: '/api/dispatch-optimization', handler: 'optimize-dispatch', body: 'json', summary: 'Optimise battery, solar and grid dispatch', request: { body: DispatchOptimizationRequest }, response: DispatchOptimizationResponse }),
  platform({ id: 'dispatch-mpc', method: 'POST', path: '/api/dispatch/mpc', handler: 'dispatch-mpc', body: 'json', summary: 'Plan from the measured state of charge and return the next set-point (receding horizon)', request: { body: MpcRequest }, response: MpcResponse }),
  platform({ id: 'dispatch-mpc-plan', method: 'GET', path: '/api/dispatch/mpc/{device_id}', handler: 'dispatch-mpc', body: 'none', summary: "A device's latest MPC plan and its measured SOC against the plans", request: { path: MpcPlanPath }, response: MpcPlanResponse }),
  platform({ id: 'battery-sizing', method: 'POST', path: '/api/battery-sizing', handler: 'battery-sizing', body: 'json', summary: 'Size a battery for the highest NPV over a year', request: { body: BatterySizingRequest }, response: BatterySizingResponse }),
  platform({ id: 'realtime-dispatch', method: 'POST', path: '/api/realtime-dispatch', handler: 'realtime-dispatch', body: 'json', summary: 'Send a real-time control command', request: { body: RealtimeDispatchRequest }, response: RealtimeDispatchResponse }),
] as const;

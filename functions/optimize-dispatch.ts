import { apiHandler } from '../shared/http/api-handler';
import { DispatchOptimizationRequest } from '../shared/schemas/dispatch';
import { optimizeDispatch } from '../shared/services/dispatch';

export const handler = apiHandler('dispatch-optimization', { body: DispatchOptimizationRequest }, ({ body }) => optimizeDispatch(body));

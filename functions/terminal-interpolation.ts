import { serve } from '../shared/http/api-handler';
import { INTERPOLATION_ROUTES } from '../shared/routes/interpolation';
import { listInterpolationResults } from '../shared/services/interpolation/interpolation';

export const handler = serve(INTERPOLATION_ROUTES, 'terminal-interpolation', { 'terminal-interpolation': ({ caller, body }) => listInterpolationResults(caller, body.customer_id) });

import { serve } from '../shared/http/api-handler';
import { listInterpolationResults } from '../shared/services/interpolation';

export const handler = serve('terminal-interpolation', { 'terminal-interpolation': ({ caller, body }) => listInterpolationResults(caller, body.customer_id) });

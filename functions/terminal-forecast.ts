import { serve } from '../shared/http/api-handler';
import { terminalForecasts } from '../shared/services/forecast-results';

export const handler = serve('terminal-forecast', { 'terminal-forecast': ({ caller, body }) => terminalForecasts(caller, body.customer_id) });

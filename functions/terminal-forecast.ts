import { serve } from '../shared/http/api-handler';
import { TRAINING_ROUTES } from '../shared/routes/training';
import { terminalForecasts } from '../shared/services/forecasting/forecast-results';

export const handler = serve(TRAINING_ROUTES, 'terminal-forecast', { 'terminal-forecast': ({ caller, body }) => terminalForecasts(caller, body.customer_id) });

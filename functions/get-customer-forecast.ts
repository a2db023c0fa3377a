import { serve } from '../shared/http/api-handler';
import { TRAINING_ROUTES } from '../shared/routes/training';
import { customerForecast } from '../shared/services/forecasting/customer-forecast';

export const handler = serve(TRAINING_ROUTES, 'get-customer-forecast', { 'get-forecast': ({ caller, query }) => customerForecast(caller, query) });

/** POST /api/pv-forecast and GET /api/pv-estimated-actuals (ARCHITECTURE 9: physics forecasts). */
import { serve } from '../shared/http/api-handler';
import { FORECASTING_ROUTES } from '../shared/routes/forecasting';
import { pvEstimatedActuals, pvForecast } from '../shared/services/pv/pv-forecast';

export const handler = serve(FORECASTING_ROUTES, 'pv-forecast', {
  'pv-forecast': ({ caller, body }) => pvForecast(caller, body),
  'pv-estimated-actuals': ({ caller, query }) => pvEstimatedActuals(caller, query),
});

import { serve } from '../shared/http/api-handler';
import { FORECASTING_ROUTES } from '../shared/routes/forecasting';
import { generateForecast } from '../shared/services/forecasting/forecasting';

// SPEC 4.1: POST /forecast and POST /api/generate-forecast are the same operation.
export const handler = serve(FORECASTING_ROUTES, 'generate-forecast', {
  forecast: ({ caller, body }) => generateForecast(caller, body),
  'generate-forecast': ({ caller, body }) => generateForecast(caller, body),
});

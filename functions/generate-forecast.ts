import { serve } from '../shared/http/api-handler';
import { generateForecast } from '../shared/services/forecasting';

// SPEC 4.1: POST /forecast and POST /api/generate-forecast are the same operation.
export const handler = serve('generate-forecast', {
  forecast: ({ caller, body }) => generateForecast(caller, body),
  'generate-forecast': ({ caller, body }) => generateForecast(caller, body),
});

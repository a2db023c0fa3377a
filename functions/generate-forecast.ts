import { apiHandler, byRoute } from '../shared/http/api-handler';
import { ForecastRequest } from '../shared/schemas/forecasting';
import { generateForecast } from '../shared/services/forecasting';

// SPEC 4.1: POST /forecast and POST /api/generate-forecast are the same operation.
export const handler = byRoute({
  forecast: apiHandler('forecast', { body: ForecastRequest }, ({ caller, body }) => generateForecast(caller, body)),
  'generate-forecast': apiHandler('generate-forecast', { body: ForecastRequest }, ({ caller, body }) => generateForecast(caller, body)),
});

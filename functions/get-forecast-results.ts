import { apiHandler, byRoute } from '../shared/http/api-handler';
import { ForecastResultsQuery } from '../shared/schemas/training';
import { forecastResults } from '../shared/services/forecast-results';

// SPEC 4.1: GET /results and GET /api/forecast-results are the same operation.
export const handler = byRoute({
  results: apiHandler('results', { query: ForecastResultsQuery }, ({ caller, query }) => forecastResults(caller, query)),
  'forecast-results': apiHandler('forecast-results', { query: ForecastResultsQuery }, ({ caller, query }) => forecastResults(caller, query)),
});

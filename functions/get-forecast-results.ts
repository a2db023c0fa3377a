import { serve } from '../shared/http/api-handler';
import { forecastResults } from '../shared/services/forecast-results';

// SPEC 4.1: GET /results and GET /api/forecast-results are the same operation.
export const handler = serve('get-forecast-results', {
  results: ({ caller, query }) => forecastResults(caller, query),
  'forecast-results': ({ caller, query }) => forecastResults(caller, query),
});

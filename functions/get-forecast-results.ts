import { serve } from '../shared/http/api-handler';
import { TRAINING_ROUTES } from '../shared/routes/training';
import { forecastResults } from '../shared/services/forecasting/forecast-results';

// SPEC 4.1: GET /results and GET /api/forecast-results are the same operation.
export const handler = serve(TRAINING_ROUTES, 'get-forecast-results', {
  results: ({ caller, query }) => forecastResults(caller, query),
  'forecast-results': ({ caller, query }) => forecastResults(caller, query),
});

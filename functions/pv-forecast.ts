/** POST /api/pv-forecast and GET /api/pv-estimated-actuals (ARCHITECTURE 9: physics forecasts). */
import { apiHandler, byRoute } from '../shared/http/api-handler';
import { EstimatedActualsQuery, PvForecastRequest } from '../shared/schemas/pv';
import { pvEstimatedActuals, pvForecast } from '../shared/services/pv-forecast';

export const handler = byRoute({
  'pv-forecast': apiHandler('pv-forecast', { body: PvForecastRequest }, ({ caller, body }) => pvForecast(caller, body)),
  'pv-estimated-actuals': apiHandler('pv-estimated-actuals', { query: EstimatedActualsQuery }, ({ caller, query }) => pvEstimatedActuals(caller, query)),
});

import { apiHandler } from '../shared/http/api-handler';
import { CustomerForecastQuery } from '../shared/schemas/forecast';
import { customerForecast } from '../shared/services/customer-forecast';

export const handler = apiHandler('get-forecast', { query: CustomerForecastQuery }, ({ caller, query }) => customerForecast(caller, query));

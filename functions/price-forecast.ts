import { apiHandler } from '../shared/http/api-handler';
import { PriceForecastRequest } from '../shared/schemas/forecasting';
import { priceForecast } from '../shared/services/forecasting';

export const handler = apiHandler('price-forecast', { body: PriceForecastRequest }, ({ caller, body }) => priceForecast(caller, body));

import { serve } from '../shared/http/api-handler';
import { priceForecast } from '../shared/services/forecasting';

export const handler = serve('price-forecast', { 'price-forecast': ({ caller, body }) => priceForecast(caller, body) });

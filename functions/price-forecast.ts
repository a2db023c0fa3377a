import { serve } from '../shared/http/api-handler';
import { FORECASTING_ROUTES } from '../shared/routes/forecasting';
import { priceForecast } from '../shared/services/forecasting/forecasting';

export const handler = serve(FORECASTING_ROUTES, 'price-forecast', { 'price-forecast': ({ caller, body }) => priceForecast(caller, body) });

import { serve } from '../shared/http/api-handler';
import { customerForecast } from '../shared/services/customer-forecast';

export const handler = serve('get-customer-forecast', { 'get-forecast': ({ caller, query }) => customerForecast(caller, query) });

import { serve } from '../shared/http/api-handler';
import { INGESTION_ROUTES } from '../shared/routes/ingestion';
import { weatherData } from '../shared/services/weather/weather-data';

export const handler = serve(INGESTION_ROUTES, 'weather-data', { 'weather-data': ({ body }) => weatherData(body) });

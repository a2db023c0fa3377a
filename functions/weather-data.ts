import { serve } from '../shared/http/api-handler';
import { weatherData } from '../shared/services/weather-data';

export const handler = serve('weather-data', { 'weather-data': ({ body }) => weatherData(body) });

import { apiHandler } from '../shared/http/api-handler';
import { WeatherDataRequest } from '../shared/schemas/weather';
import { weatherData } from '../shared/services/weather-data';

export const handler = apiHandler('weather-data', { body: WeatherDataRequest }, ({ body }) => weatherData(body));

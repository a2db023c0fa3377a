/** The route rows of forecasting engine (shared/routes/index.ts: the table and what a row holds). */
import { platform } from './route';
import { ForecastRequest, PriceForecastRequest } from '../schemas/forecasting';
import { EstimatedActualsQuery, PvForecastRequest } from '../schemas/pv';
import { ForecastResponse, FreemiumForecastResponse, PriceForecastResponse, PvEstimatedActualsResponse, PvForecastResponse } from '../schemas/responses/forecasting';
import { FreemiumForm } from '../schemas/uploads';

export const FORECASTING_ROUTES = [
  platform({ id: 'forecast', method: 'POST', path: '/forecast', handler: 'generate-forecast', body: 'json', summary: 'Forecast solar, wind or load from history', request: { body: ForecastRequest }, response: ForecastResponse, quota: 'forecasts' }),
  platform({ id: 'generate-forecast', method: 'POST', path: '/api/generate-forecast', handler: 'generate-forecast', body: 'json', summary: 'Forecast solar, wind or load (same as POST /forecast)', request: { body: ForecastRequest }, response: ForecastResponse, quota: 'forecasts' }),
  platform({ id: 'price-forecast', method: 'POST', path: '/api/price-forecast', handler: 'price-forecast', body: 'json', summary: 'Electricity price forecast', request: { body: PriceForecastRequest }, response: PriceForecastResponse, quota: 'forecasts' }),
  platform({ id: 'pv-forecast', method: 'POST', path: '/api/pv-forecast', handler: 'pv-forecast', body: 'json', summary: 'Physics forecast of a PV system (no history needed)', request: { body: PvForecastRequest }, response: PvForecastResponse, quota: 'forecasts' }),
  platform({ id: 'pv-estimated-actuals', method: 'GET', path: '/api/pv-estimated-actuals', handler: 'pv-forecast', body: 'none', summary: 'Modelled PV output of past days from the weather record', request: { query: EstimatedActualsQuery }, response: PvEstimatedActualsResponse, quota: 'forecasts' }),
  platform({ id: 'freemium-forecast', method: 'POST', path: '/v1/freemium-forecast', handler: 'freemium-forecast', auth: 'none', body: 'multipart', internalErrorMessage: 'Forecast generation failed', summary: 'Free 24-hour forecast from a CSV (no key)', request: { form: FreemiumForm }, response: FreemiumForecastResponse }),
  platform({ id: 'freemium-forecast-api', method: 'POST', path: '/api/v1/freemium-forecast', handler: 'freemium-forecast', auth: 'none', body: 'multipart', internalErrorMessage: 'Forecast generation failed', summary: 'Free 24-hour forecast (second path of /v1/freemium-forecast)', request: { form: FreemiumForm }, response: FreemiumForecastResponse }),
] as const;

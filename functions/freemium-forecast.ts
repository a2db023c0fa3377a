import { serve, type HandlerInput } from '../shared/http/api-handler';
import { FORECASTING_ROUTES } from '../shared/routes/forecasting';
import { freemiumForecast } from '../shared/services/forecasting/forecasting';

const run = async ({ rawBody }: HandlerInput) => freemiumForecast(rawBody.kind === 'multipart' ? rawBody.form : { fields: {}, files: [] });

// SPEC 4.4: /v1/freemium-forecast, also named /api/v1/freemium-forecast; no key, limited per address and e-mail.
export const handler = serve(FORECASTING_ROUTES, 'freemium-forecast', { 'freemium-forecast': run, 'freemium-forecast-api': run });

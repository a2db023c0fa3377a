/** The route rows of training, registry, customer forecasts, stored results (shared/routes/index.ts: the table and what a row holds). */
import { platform, terminal } from './route';
import { CustomerForecastQuery } from '../schemas/forecast';
import { CustomerForecastResponse } from '../schemas/responses/forecasting';
import { ForecastResultsResponse, MarketplaceResponse, PromoteModelResponse, RollbackModelResponse, TerminalForecastResponse, TerminalModelsResponse, TrainResponse, TrainingStatusResponse } from '../schemas/responses/training';
import { TerminalCustomerFilter, TerminalCustomerRequest } from '../schemas/terminal';
import { ForecastResultsQuery, ModelPath, TrainingRequest, TrainingStatusPath } from '../schemas/training';

export const TRAINING_ROUTES = [
  platform({ id: 'train', method: 'POST', path: '/train', handler: 'train', body: 'json', summary: 'Start training a model', request: { body: TrainingRequest }, response: TrainResponse, quota: 'model_training_jobs' }),
  platform({ id: 'training-status', method: 'GET', path: '/api/training-status/{job_id}', handler: 'get-training-status', body: 'none', summary: 'Status of a training job', request: { path: TrainingStatusPath }, response: TrainingStatusResponse }),
  platform({ id: 'get-forecast', method: 'GET', path: '/forecast', handler: 'get-customer-forecast', body: 'none', internalErrorMessage: 'Forecast generation failed', summary: 'Forecast of a customer from its trained models', request: { query: CustomerForecastQuery }, response: CustomerForecastResponse, quota: 'forecasts' }),
  platform({ id: 'results', method: 'GET', path: '/results', handler: 'get-forecast-results', body: 'none', summary: 'Stored forecast results and their accuracy', request: { query: ForecastResultsQuery }, response: ForecastResultsResponse }),
  platform({ id: 'forecast-results', method: 'GET', path: '/api/forecast-results', handler: 'get-forecast-results', body: 'none', summary: 'Stored forecast results (same as GET /results)', request: { query: ForecastResultsQuery }, response: ForecastResultsResponse }),
  platform({ id: 'models-marketplace', method: 'GET', path: '/api/models/marketplace', handler: 'get-models-marketplace', body: 'none', summary: 'Models on the marketplace', response: MarketplaceResponse }),
  platform({ id: 'model-promote', method: 'POST', path: '/api/models/{model_id}/promote', handler: 'change-model-status', body: 'none', tier: 'professional', summary: 'Promote a challenger (or archived) model to production', request: { path: ModelPath }, response: PromoteModelResponse }),
  platform({ id: 'model-rollback', method: 'POST', path: '/api/models/{model_id}/rollback', handler: 'change-model-status', body: 'none', tier: 'professional', summary: 'Roll a production model back to the one it replaced', request: { path: ModelPath }, response: RollbackModelResponse }),
  terminal('forecast', { handler: 'terminal-forecast', summary: 'Stored forecast results of a customer', request: { body: TerminalCustomerRequest }, response: TerminalForecastResponse }),
  terminal('ml-models', { handler: 'terminal-ml-models', summary: 'Model registry records', request: { body: TerminalCustomerFilter }, response: TerminalModelsResponse }),
] as const;

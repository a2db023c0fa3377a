/** The route rows of data cleaning (shared/routes/index.ts: the table and what a row holds). */
import { platform, terminal } from './route';
import { InterpolationRequest } from '../schemas/interpolation';
import { InterpolationResponse } from '../schemas/responses/interpolation';
import { TerminalInterpolationResponse } from '../schemas/responses/operations';
import { TerminalCustomerRequest } from '../schemas/terminal';

export const INTERPOLATION_ROUTES = [
  platform({ id: 'interpolate', method: 'POST', path: '/interpolate', handler: 'interpolate', body: 'json', summary: 'Fill gaps and clean a series', request: { body: InterpolationRequest }, response: InterpolationResponse, quota: 'data_cleaning_operations' }),
  terminal('interpolation', { handler: 'terminal-interpolation', summary: 'Stored interpolation results of a customer', request: { body: TerminalCustomerRequest }, response: TerminalInterpolationResponse }),
] as const;

/**
 * GET /forecast preconditions (SPEC 4.4): the customer's site must exist and the customer must have a
 * trained model. Serving the forecast itself arrives with the training capability; until then a
 * customer with a model gets an explicit 501, never an invented forecast.
 */
import { NotFound, NotImplementedYet } from '../errors';
import { listModelsOfCustomer } from '../store/models-repo';
import { getSite } from '../store/sites-repo';
import type { Caller } from './authentication';
import { findOwnedCustomer } from './tenants';

export async function customerForecast(caller: Caller, query: { customer_id: string; site_id?: string; horizon_hours: number }) {
  const customer = await findOwnedCustomer(caller, query.customer_id);
  if (query.site_id && (!customer || !(await getSite(query.customer_id, query.site_id)))) throw new NotFound('Site not found');
  const models = customer ? await listModelsOfCustomer(query.customer_id) : [];
  const production = models.filter((m) => m.status === 'production' && (!query.site_id || m.site_id === query.site_id));
  if (!production.length) throw new NotFound('No model found for customer');
  throw new NotImplementedYet('Serving customer forecasts arrives with the training capability');
}

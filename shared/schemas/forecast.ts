/** GET /forecast query (SPEC 4.4). */
import * as z from 'zod';
import { identifier } from './bounds';
import { exact } from '../validation';

/** ARCHITECTURE 9: at most 168 hours. */
export const MAX_HORIZON_HOURS = 168;

export const CustomerForecastQuery = z.object({
  customer_id: z.string({ error: exact('Missing required parameter: customer_id') }).trim().min(1, { error: exact('Missing required parameter: customer_id') }),
  site_id: identifier().optional(),
  horizon_hours: z.coerce.number().int().min(1).max(MAX_HORIZON_HOURS, { error: `must be at most ${MAX_HORIZON_HOURS}` }).default(48),
});

/** Success body of POST /api/battery-sizing (ARCHITECTURE 9; issue 24). */
import * as z from 'zod';
import { success } from './common';

const ComparedSize = z.looseObject({
  role: z.enum(['no_battery', 'smaller', 'chosen', 'larger']),
  energy_capacity_kwh: z.number(),
  power_capacity_kw: z.number(),
  npv: z.number(),
  annual_savings: z.number(),
});

export const BatterySizingResponse = success({
  energy_capacity_kwh: z.number().min(0),
  power_capacity_kw: z.number().min(0),
  npv: z.number(),
  irr: z.number().nullable(),
  zero_reason: z.string().optional().meta({ description: 'Why the answer is no battery.' }),
  compared_sizes: z.array(ComparedSize),
  dispatch_summary: z.looseObject({ net_benefit: z.number(), net_cost: z.number() }).nullable(),
  dispatch_schedule: z.array(z.looseObject({ timestamp: z.string(), battery_power: z.number(), soc: z.number() })).optional(),
  economics: z.looseObject({ financial_metrics: z.looseObject({ npv: z.number(), irr: z.number().nullable() }) }).nullable(),
  method: z.string(),
  solve_ms: z.number(),
}).meta({ id: 'BatterySizingResponse' });

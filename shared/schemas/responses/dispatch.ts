/** Success bodies of the dispatch endpoints (SPEC 4.1). Battery power is positive when discharging. */
import * as z from 'zod';
import { success, timestamp } from './common';

export const DispatchOptimizationResponse = z
  .looseObject({
    optimization_result: z.looseObject({
      dispatch_schedule: z.array(
        z.looseObject({ timestamp: timestamp(), battery_power: z.number(), grid_power: z.number(), load_served: z.number(), soc: z.number(), action: z.string() }),
      ),
      economic_summary: z.looseObject({
        total_revenue: z.number(),
        electricity_cost: z.number(),
        net_benefit: z.number(),
        peak_shaving_savings: z.number(),
        demand_charge_basis: z.enum(['none', 'per_horizon', 'monthly_prorated']).optional().meta({ description: 'How demand charges were priced (README: Dispatch).' }),
        demand_charge_note: z.string().optional(),
      }),
      operational_insights: z.array(z.string()),
    }),
  })
  .meta({ id: 'DispatchOptimizationResponse' });

/** The spec shows no response; ARCHITECTURE 9: the command with each safety check's result. */
export const RealtimeDispatchResponse = success({
  accepted: z.boolean(),
  command_id: z.string(),
  device_id: z.string(),
  command: z.looseObject({ action: z.string(), power_kw: z.number(), duration_minutes: z.number(), priority: z.string() }),
  command_status: z.string(),
  checks: z.array(z.looseObject({ check: z.string(), passed: z.boolean(), detail: z.string() })),
  failed_checks: z.array(z.string()),
  issued_at: timestamp(),
}).meta({ id: 'RealtimeDispatchResponse' });

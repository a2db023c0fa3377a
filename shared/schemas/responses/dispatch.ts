/** Success bodies of the dispatch endpoints (SPEC 4.1). Battery power is positive when discharging. */
import * as z from 'zod';
import { success, timestamp } from './common';

const OptimizationResult = z.looseObject({
  dispatch_schedule: z.array(
    z.looseObject({ timestamp: timestamp(), battery_power: z.number(), grid_power: z.number(), load_served: z.number(), soc: z.number(), action: z.string() }),
  ),
  economic_summary: z.looseObject({
    total_revenue: z.number(),
    electricity_cost: z.number(),
    net_benefit: z.number(),
    peak_shaving_savings: z.number(),
    demand_charge_basis: z.enum(['none', 'per_horizon', 'monthly_prorated', 'tariff']).optional().meta({ description: 'How demand charges were priced (README: Dispatch).' }),
    demand_charge_note: z.string().optional(),
  }),
  operational_insights: z.array(z.string()),
});

export const DispatchOptimizationResponse = z.looseObject({ optimization_result: OptimizationResult }).meta({ id: 'DispatchOptimizationResponse' });

/** ARCHITECTURE 9: the plan (a schedule as dispatch-optimization's) and the set-point of its first interval. */
export const MpcResponse = success({
  plan_id: z.string(),
  device_id: z.string().optional(),
  current_soc: z.number(),
  soc_source: z.enum(['request', 'device_state']),
  terminal_value_per_kwh: z.number().nullable(),
  warm_start: z.boolean(),
  next_setpoint: z.looseObject({ timestamp: timestamp(), valid_until: timestamp(), battery_power_kw: z.number(), grid_power_kw: z.number(), soc_target: z.number(), action: z.string() }),
  plan: OptimizationResult,
}).meta({ id: 'MpcResponse' });

export const MpcPlanResponse = success({
  device_id: z.string(),
  plan_id: z.string(),
  created_at: timestamp(),
  interval_minutes: z.number(),
  plan: z.array(z.looseObject({ timestamp: timestamp(), battery_power_kw: z.number(), grid_power_kw: z.number(), soc: z.number() })),
  tracking: z.array(z.looseObject({ timestamp: timestamp(), measured_soc: z.number(), planned_soc: z.number().nullable(), plan_id: z.string().nullable() })),
}).meta({ id: 'MpcPlanResponse' });

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

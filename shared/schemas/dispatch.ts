/** POST /api/dispatch-optimization and POST /api/realtime-dispatch (SPEC 4.1). */
import * as z from 'zod';
import { MAX_DISPATCH_INTERVALS } from '../domain/dispatch/problem';
import { COMMAND_ACTIONS, COMMAND_PRIORITIES } from '../domain/dispatch/command-checks';
import { idSchema } from './accounts';
import { MAX_ABS_PRICE, MAX_POWER_KW, MIN_ROUNDTRIP_EFFICIENCY } from '../domain/physical-bounds';
import { energyKwh, powerKw, price } from './bounds';

/** Forecast series: powers in kW (never negative: the domain names a negative value), prices per kWh. */
const series = (value: z.ZodNumber) => z.array(value).min(1).max(MAX_DISPATCH_INTERVALS);
const powerSeries = series(z.number().max(MAX_POWER_KW));
const priceSeries = series(price());
const fraction = z.number().min(0).max(1);

/** Defaults of the battery fields the spec leaves optional (README: dispatch). */
export const BATTERY_DEFAULTS = { battery_min_soc: 0.1, battery_max_soc: 0.9, initial_soc: 0.5, roundtrip_efficiency: 0.9 } as const;
/**
 * Currency per kW of a calendar month's peak import, the monthly tariff used when `demand_charges` is on and
 * no rate is given; a horizon shorter than the month takes its prorated share (shared/domain/dispatch/billing.ts).
 */
export const DEFAULT_MONTHLY_DEMAND_CHARGE_PER_KW = 15;

export const DispatchOptimizationRequest = z.object({
  forecasts: z.object({
    solar_forecast: powerSeries,
    load_forecast: powerSeries,
    price_forecast: priceSeries,
    /** Not in the spec: what an exported kWh earns where it differs from the import price. */
    export_price_forecast: priceSeries.optional(),
  }),
  system_config: z.object({
    battery_capacity_kwh: energyKwh().positive(),
    battery_power_kw: powerKw().positive(),
    battery_min_soc: fraction.default(BATTERY_DEFAULTS.battery_min_soc),
    battery_max_soc: fraction.default(BATTERY_DEFAULTS.battery_max_soc),
    initial_soc: fraction.default(BATTERY_DEFAULTS.initial_soc),
    roundtrip_efficiency: z.number().min(MIN_ROUNDTRIP_EFFICIENCY).max(1).default(BATTERY_DEFAULTS.roundtrip_efficiency),
  }),
  optimization_config: z
    .object({
      objective: z.enum(['revenue', 'cost']).default('cost'),
      /** Hours; when given it must match the forecasts' length at interval_minutes. */
      time_horizon: z.number().positive().max(24 * 366).optional(),
      interval_minutes: z.number().int().min(1).max(1440).default(60),
      /** kW; no limit when absent. */
      grid_export_limit: powerKw().optional(),
      /** Not in the spec: kW, no limit when absent. */
      grid_import_limit: powerKw().optional(),
      demand_charges: z.boolean().default(false),
      /** Not in the spec: currency per kW of the horizon's peak import, for this horizon as it is (no proration). */
      demand_charge_per_kw: z.number().min(0).max(MAX_ABS_PRICE).optional(),
      /** Not in the spec: currency per kW of each calendar month's peak import, prorated to the part of the month the horizon covers. */
      monthly_demand_charge_per_kw: z.number().min(0).max(MAX_ABS_PRICE).optional(),
      /** Not in the spec: where the battery must end (default: at least where it started). */
      terminal_soc: z.union([z.enum(['at_least_initial', 'free']), fraction]).default('at_least_initial'),
      /** Not in the spec: the first interval's start (default: the next interval boundary from now). */
      start_time: z.iso.datetime({ offset: true }).optional(),
    })
    .refine((o) => o.demand_charge_per_kw === undefined || o.monthly_demand_charge_per_kw === undefined, {
      path: ['demand_charge_per_kw'],
      error: 'and monthly_demand_charge_per_kw are alternatives: give the charge for this horizon or the monthly tariff, not both',
    })
    .refine((o) => o.demand_charges || (o.demand_charge_per_kw === undefined && o.monthly_demand_charge_per_kw === undefined), {
      path: ['demand_charges'],
      error: 'must be true when a demand charge rate is given',
    })
    .default({ objective: 'cost', interval_minutes: 60, demand_charges: false, terminal_soc: 'at_least_initial' }),
});
export type DispatchOptimizationRequest = z.infer<typeof DispatchOptimizationRequest>;

/** The battery's state as the operator last measured it (not in the spec). */
export const DeviceState = z.object({
  soc: fraction.optional(),
  temperature_c: z.number().min(-60).max(120).optional(),
  measured_at: z.iso.datetime({ offset: true }).optional(),
});

const SAFETY_CHECK_DEFAULTS = { soc_limits: true, temperature_check: true, grid_constraints: true };

export const RealtimeDispatchRequest = z.object({
  device_id: idSchema(),
  command: z.object({
    action: z.enum(COMMAND_ACTIONS),
    power_kw: powerKw(),
    duration_minutes: z.number().positive().max(1440),
    priority: z.enum(COMMAND_PRIORITIES).default('normal'),
  }),
  safety_checks: z
    .object({
      soc_limits: z.boolean().default(true),
      temperature_check: z.boolean().default(true),
      grid_constraints: z.boolean().default(true),
    })
    .default(SAFETY_CHECK_DEFAULTS),
  device_state: DeviceState.optional(),
});
export type RealtimeDispatchRequest = z.infer<typeof RealtimeDispatchRequest>;

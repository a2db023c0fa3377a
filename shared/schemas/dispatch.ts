/** POST /api/dispatch-optimization and POST /api/realtime-dispatch (SPEC 4.1). */
import * as z from 'zod';
import { MAX_DISPATCH_INTERVALS, MAX_SOLAR_SCENARIOS } from '../domain/dispatch/problem';
import { COMMAND_ACTIONS, COMMAND_PRIORITIES } from '../domain/dispatch/command-checks';
import { idSchema } from './accounts';
import { MAX_ABS_PRICE, MAX_POWER_KW, MIN_ROUNDTRIP_EFFICIENCY } from '../domain/physical-bounds';
import { energyKwh, powerKw, price } from './bounds';
import type { Tariff } from '../domain/dispatch/tariff';

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

const instant = () => z.iso.datetime({ offset: true });
const listOf = <T extends z.ZodType>(item: T, max: number) => z.array(item).max(max);

/** Months, ISO weekdays and local hours a tariff period covers (absent: all). */
const tariffWindow = {
  name: z.string().trim().min(1).max(64).optional(),
  months: listOf(z.number().int().min(1).max(12), 12).optional(),
  weekdays: listOf(z.number().int().min(1).max(7), 7).optional(),
  hours: listOf(z.number().int().min(0).max(23), 24).optional(),
};

/** Not in the spec (ARCHITECTURE 9): a retail tariff instead of, or beside, a price series. */
export const TariffSchema = z.object({
  currency: z.string().trim().min(1).max(8).optional(),
  /** IANA zone of the periods' clock (default UTC). */
  timezone: z.string().trim().min(1).max(64).optional(),
  import_price: price().optional(),
  export_price: price().optional(),
  periods: listOf(z.object({ ...tariffWindow, import_price: price(), export_price: price().optional() }), 100).optional(),
  monthly_demand_charge_per_kw: z.number().min(0).max(MAX_ABS_PRICE).optional(),
  tou_demand_charges: listOf(z.object({ ...tariffWindow, charge_per_kw: z.number().min(0).max(MAX_ABS_PRICE) }), 24).optional(),
});
export type TariffBody = z.infer<typeof TariffSchema>;

/** Whether a tariff sets energy prices (not only demand charges). */
export const tariffPricesEnergy = (t: TariffBody | undefined): boolean => !!t && (t.import_price !== undefined || !!t.periods?.length);

export const tariffOf = (t: TariffBody): Tariff => ({
  currency: t.currency,
  timezone: t.timezone,
  importPrice: t.import_price,
  exportPrice: t.export_price,
  periods: t.periods?.map((p) => ({ name: p.name, months: p.months, weekdays: p.weekdays, hours: p.hours, importPrice: p.import_price, exportPrice: p.export_price })),
  monthlyDemandChargePerKw: t.monthly_demand_charge_per_kw,
  touDemandCharges: t.tou_demand_charges?.map((c) => ({ name: c.name, months: c.months, weekdays: c.weekdays, hours: c.hours, chargePerKw: c.charge_per_kw })),
});

/** At most this many deferrable and thermal loads in one request. */
export const MAX_DEFERRABLE_LOADS = 20;
export const MAX_THERMAL_LOADS = 5;

const window = <T extends z.ZodRawShape>(shape: T, from: string, to: string) =>
  z.object(shape).refine((o) => Date.parse(o[to as keyof typeof o] as string) > Date.parse(o[from as keyof typeof o] as string), { path: [to], error: `must be after ${from}` });

/** ARCHITECTURE 9: flexible loads, each scheduled by the optimisation and reported as its own series. */
export const FlexibleLoadsSchema = {
  ev: window({ arrival: instant(), departure: instant(), energy_kwh: energyKwh(), charger_kw: powerKw().positive() }, 'arrival', 'departure').optional(),
  deferrable_loads: listOf(
    window(
      {
        id: idSchema(),
        energy_kwh: energyKwh(),
        power_kw: powerKw().positive(),
        window_start: instant(),
        window_end: instant(),
        single_block: z.boolean().default(false),
        min_run_minutes: z.number().int().min(0).max(7 * 1440).optional(),
        /** Not in ARCHITECTURE 9: the lowest level it runs at when on (default power_kw: on/off at fixed power; 0: any level). */
        min_power_kw: powerKw().optional(),
      },
      'window_start',
      'window_end',
    ),
    MAX_DEFERRABLE_LOADS,
  ).optional(),
  thermal_loads: listOf(
    z.object({
      id: idSchema(),
      ua_kw_per_k: z.number().min(0).max(1e5),
      /** At least a litre of water's (0.00116 kWh/K). */
      capacity_kwh_per_k: z.number().min(1e-3).max(1e7),
      /** One value, or one per interval. */
      cop: z.union([z.number().min(0.1).max(20), z.array(z.number().min(0.1).max(20)).min(1).max(MAX_DISPATCH_INTERVALS)]),
      /** Not in ARCHITECTURE 9: the heat pump's electrical rating (default: twice what holds t_max_c at the coldest outdoor temperature). */
      max_power_kw: powerKw().positive().optional(),
      t_min_c: z.number().min(-60).max(150),
      t_max_c: z.number().min(-60).max(150),
      t_initial_c: z.number().min(-60).max(150),
      outdoor_temp_c: z.array(z.number().min(-90).max(70)).min(1).max(MAX_DISPATCH_INTERVALS),
    }),
    MAX_THERMAL_LOADS,
  ).optional(),
};

const SystemConfig = z.object({
  battery_capacity_kwh: energyKwh().positive(),
  battery_power_kw: powerKw().positive(),
  battery_min_soc: fraction.default(BATTERY_DEFAULTS.battery_min_soc),
  battery_max_soc: fraction.default(BATTERY_DEFAULTS.battery_max_soc),
  initial_soc: fraction.default(BATTERY_DEFAULTS.initial_soc),
  roundtrip_efficiency: z.number().min(MIN_ROUNDTRIP_EFFICIENCY).max(1).default(BATTERY_DEFAULTS.roundtrip_efficiency),
  /** Not in the spec: currency per kWh discharged, the battery's wear (README: Dispatch). */
  degradation_cost_per_kwh: z.number().min(0).max(MAX_ABS_PRICE).optional(),
});

/** `terminal`: where the battery must end by default (a day's plan keeps its start; a receding horizon values what is left instead). */
const optimizationConfig = (terminal: 'at_least_initial' | 'free') =>
  z
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
      terminal_soc: z.union([z.enum(['at_least_initial', 'free']), fraction]).default(terminal),
      /** Not in the spec: the first interval's start (default: the next interval boundary from now). */
      start_time: z.iso.datetime({ offset: true }).optional(),
      /** Not in the spec: currency per kWh left in the battery at the horizon's end. */
      terminal_value_per_kwh: price().optional(),
    })
    .refine((o) => o.demand_charge_per_kw === undefined || o.monthly_demand_charge_per_kw === undefined, {
      path: ['demand_charge_per_kw'],
      error: 'and monthly_demand_charge_per_kw are alternatives: give the charge for this horizon or the monthly tariff, not both',
    })
    .refine((o) => o.demand_charges || (o.demand_charge_per_kw === undefined && o.monthly_demand_charge_per_kw === undefined), {
      path: ['demand_charges'],
      error: 'must be true when a demand charge rate is given',
    })
    .default({ objective: 'cost', interval_minutes: 60, demand_charges: false, terminal_soc: terminal });

export const DispatchOptimizationRequest = z.object({
  forecasts: z.object({
    solar_forecast: powerSeries,
    load_forecast: powerSeries,
    /** Required unless a `tariff` gives the energy prices. */
    price_forecast: priceSeries.optional(),
    /** Not in the spec: what an exported kWh earns where it differs from the import price. */
    export_price_forecast: priceSeries.optional(),
  }),
  system_config: SystemConfig,
  tariff: TariffSchema.optional(),
  ...FlexibleLoadsSchema,
  optimization_config: optimizationConfig('at_least_initial'),
});
export type DispatchOptimizationRequest = z.infer<typeof DispatchOptimizationRequest>;

/** At most this many SOC targets in one MPC request. */
export const MAX_SOC_TARGETS = 200;

/**
 * POST /api/dispatch/mpc (ARCHITECTURE 9): the dispatch body from now to the horizon, with the measured SOC
 * (or the device's last state) and optional SOC targets; system_config may come from the device.
 */
export const MpcRequest = DispatchOptimizationRequest.extend({
  forecasts: DispatchOptimizationRequest.shape.forecasts.extend({
    /**
     * Not in ARCHITECTURE 9: other solar outlooks as likely as solar_forecast (ensemble members, or the forecast
     * scaled as recent days varied); the first interval's grid power must suit them all.
     */
    solar_forecast_scenarios: listOf(powerSeries, MAX_SOLAR_SCENARIOS).optional(),
  }),
  system_config: SystemConfig.optional(),
  current_soc: fraction.optional(),
  device_id: idSchema().optional(),
  soc_targets: listOf(z.object({ timestamp: instant(), soc: fraction, comparison: z.enum(['at_least', 'exactly', 'at_most']).default('at_least') }), MAX_SOC_TARGETS).optional(),
  optimization_config: optimizationConfig('free'),
});
export type MpcRequest = z.infer<typeof MpcRequest>;

export const MpcPlanPath = z.object({ device_id: idSchema() });

/** The battery's state as the operator last measured it (not in the spec). */
export const DeviceState = z.object({
  soc: fraction.optional(),
  temperature_c: z.number().min(-60).max(120).optional(),
  measured_at: z.iso.datetime({ offset: true }).optional(),
});

const SAFETY_CHECK_DEFAULTS = { soc_limits: true, temperature_check: true, grid_constraints: true };

export const RealtimeDispatchRequest = z.object({
  device_id: idSchema(),
  /** Required unless use_mpc_setpoint takes the command from the device's MPC plan. */
  command: z
    .object({
      action: z.enum(COMMAND_ACTIONS),
      power_kw: powerKw(),
      duration_minutes: z.number().positive().max(1440),
      priority: z.enum(COMMAND_PRIORITIES).default('normal'),
    })
    .optional(),
  /** Not in the spec: send the set-point of the device's latest MPC plan for the current interval. */
  use_mpc_setpoint: z.boolean().default(false),
  /**
   * With use_mpc_setpoint: the site's load and solar measured now, so the command holds the meter at the plan's
   * grid power and the battery takes the interval's forecast error.
   */
  measured_site: z.object({ load_kw: powerKw(), solar_kw: powerKw() }).optional(),
  safety_checks: z
    .object({
      soc_limits: z.boolean().default(true),
      temperature_check: z.boolean().default(true),
      grid_constraints: z.boolean().default(true),
    })
    .default(SAFETY_CHECK_DEFAULTS),
  device_state: DeviceState.optional(),
})
  .refine((b) => (b.command === undefined) === b.use_mpc_setpoint, {
    path: ['command'],
    error: 'give a command, or use_mpc_setpoint: true to send the device\'s MPC set-point (not both)',
  })
  .refine((b) => b.measured_site === undefined || b.use_mpc_setpoint, {
    path: ['measured_site'],
    error: 'measured_site is read only with use_mpc_setpoint: true',
  });
export type RealtimeDispatchRequest = z.infer<typeof RealtimeDispatchRequest>;

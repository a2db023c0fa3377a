/** POST /api/battery-sizing (ARCHITECTURE 9, "Receding-horizon dispatch and sizing"; issue 24). */
import * as z from 'zod';
import { MAX_DISPATCH_INTERVALS } from '../domain/dispatch/problem';
import { MAX_ABS_PRICE, MAX_AMOUNT, MAX_POWER_KW, MIN_ROUNDTRIP_EFFICIENCY } from '../domain/physical-bounds';
import { energyKwh, powerKw } from './bounds';
import { BATTERY_DEFAULTS, TariffSchema } from './dispatch';
import { ProjectEconomicsRequest } from './economics';
import { PvSystemInput } from './pv';

const fraction = z.number().min(0).max(1);
/**
 * Clear-sky PV output x this is the year's PV when a `pv_system` stands in for measured `pv_kw`: a typical
 * ratio of annual measured to clear-sky irradiation at mid latitudes (about 0.65 in cloudy climates to 0.85 in
 * deserts). A uniform derate keeps the day's shape, so a cloudy day's intermittency is not modelled.
 */
export const DEFAULT_CLEAR_SKY_DERATE = 0.75;

const amount = z.number().min(0).max(MAX_AMOUNT);
const powerSeries = z.array(z.number().min(0).max(MAX_POWER_KW)).min(1).max(MAX_DISPATCH_INTERVALS);

/** The project-economics inputs that do not depend on the size (capital cost and revenue come from it). */
const SizingProjectConfig = ProjectEconomicsRequest.shape.project_config.omit({ capital_cost: true, annual_revenue: true, annual_energy_kwh: true });

export const BatterySizingRequest = z
  .object({
    load_kw: powerSeries,
    /** Measured or modelled PV output per interval; absent with `pv_system` (modelled) or for a site without PV. */
    pv_kw: powerSeries.optional(),
    pv_system: PvSystemInput.optional(),
    /** With `pv_system`: the share of clear-sky output taken as the year's (default DEFAULT_CLEAR_SKY_DERATE). */
    pv_clear_sky_derate: fraction.optional(),
    start_time: z.iso.datetime({ offset: true }),
    interval_minutes: z.int().min(1).max(1440).default(60),
    /** The dispatch endpoints' tariff, its currency required: the answer's amounts are in it. */
    tariff: TariffSchema.extend({ currency: z.string().trim().min(1).max(8) }),
    /** Currency per kWh of energy capacity. */
    battery_cost_per_kwh: amount.positive(),
    /** Currency per kW of power capacity (inverter and connection). */
    battery_cost_per_kw: amount.default(0),
    project_config: SizingProjectConfig,
    /** The grant is a fixed amount: it does not change the best size, so it is not taken here. */
    incentives: z.object({ tax_credit: fraction.optional(), depreciation_schedule: ProjectEconomicsRequest.shape.incentives.unwrap().shape.depreciation_schedule }).optional(),
    system_config: z
      .object({
        battery_min_soc: fraction.default(BATTERY_DEFAULTS.battery_min_soc),
        battery_max_soc: fraction.default(BATTERY_DEFAULTS.battery_max_soc),
        initial_soc: fraction.default(BATTERY_DEFAULTS.initial_soc),
        roundtrip_efficiency: z.number().min(MIN_ROUNDTRIP_EFFICIENCY).max(1).default(BATTERY_DEFAULTS.roundtrip_efficiency),
        /** Currency per kWh discharged, the battery's wear (as on the dispatch endpoints). */
        degradation_cost_per_kwh: z.number().min(0).max(MAX_ABS_PRICE).optional(),
      })
      .default({ ...BATTERY_DEFAULTS }),
    /** Upper bounds of the search; defaults in the service (shared/services/dispatch/battery-sizing.ts). */
    max_energy_kwh: energyKwh().positive().optional(),
    max_power_kw: powerKw().positive().optional(),
    /** Whether to answer the chosen size's schedule (a row per interval). */
    include_schedule: z.boolean().default(false),
  })
  .refine((b) => !(b.pv_kw && b.pv_system), { path: ['pv_system'], error: 'and pv_kw are alternatives: send the measured output or the system to model it from, not both' })
  .refine((b) => b.pv_clear_sky_derate === undefined || b.pv_system !== undefined, { path: ['pv_clear_sky_derate'], error: 'applies only to a pv_system' });
export type BatterySizingRequest = z.infer<typeof BatterySizingRequest>;

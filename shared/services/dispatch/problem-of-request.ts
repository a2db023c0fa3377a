/**
 * A dispatch request (POST /api/dispatch-optimization, POST /api/dispatch/mpc) as the domain's problem: the
 * price series or the tariff, demand charges, SOC targets and the flexible loads, with their windows laid
 * on the horizon's intervals.
 */
import { monthlyDemandPeriods } from '../../domain/dispatch/billing';
import { DispatchInputError, type DispatchProblem, type FlexibleLoads, type SocTarget } from '../../domain/dispatch/problem';
import { resolveTariff, type TariffSeries } from '../../domain/dispatch/tariff';
import { intervalEndingAt, windowShares } from '../../domain/dispatch/windows';
import { DEFAULT_MONTHLY_DEMAND_CHARGE_PER_KW, tariffOf, tariffPricesEnergy, type DispatchOptimizationRequest } from '../../schemas/dispatch';

/** How the demand charge was priced, as the answer states it. */
export type DemandChargeBasis = 'none' | 'per_horizon' | 'monthly_prorated' | 'tariff';

export interface DemandChargeTerms {
  basis: DemandChargeBasis;
  note: string;
  problem: Pick<DispatchProblem, 'demandChargePerKw' | 'demandPeriods' | 'windowDemandCharges'>;
}

/** SOC targets as the request gives them (the MPC's body). */
export interface SocTargetBody {
  timestamp: string;
  soc: number;
  comparison?: SocTarget['comparison'];
}

/**
 * The demand charge of a request: a tariff's (monthly and TOU, per local month), the caller's charge for this
 * horizon (`demand_charge_per_kw`), or a monthly tariff (`monthly_demand_charge_per_kw`, default
 * DEFAULT_MONTHLY_DEMAND_CHARGE_PER_KW) per calendar month of the horizon, prorated to the share of the month it covers.
 */
export function demandChargeOf(body: DispatchOptimizationRequest, intervals: number, startMs: number, tariff?: TariffSeries): DemandChargeTerms {
  const opt = body.optimization_config;
  const fromTariff = !!body.tariff && (body.tariff.monthly_demand_charge_per_kw !== undefined || !!body.tariff.tou_demand_charges?.length);
  if (fromTariff && (opt.demand_charge_per_kw !== undefined || opt.monthly_demand_charge_per_kw !== undefined)) {
    throw new DispatchInputError('tariff carries demand charges: leave out optimization_config.demand_charge_per_kw and monthly_demand_charge_per_kw');
  }
  if (fromTariff && tariff) {
    return {
      basis: 'tariff',
      note: `the tariff's demand charges, each on its calendar month's peak import (${body.tariff?.timezone ?? 'UTC'} clock), prorated to the share of the month the horizon covers`,
      problem: { demandChargePerKw: 0, demandPeriods: tariff.demandPeriods, windowDemandCharges: tariff.windowDemandCharges },
    };
  }
  if (!opt.demand_charges) return { basis: 'none', note: 'no demand charge (demand_charges is false)', problem: { demandChargePerKw: 0 } };
  if (opt.demand_charge_per_kw !== undefined) {
    return { basis: 'per_horizon', note: `demand_charge_per_kw ${opt.demand_charge_per_kw} as given, charged once on the horizon's peak import`, problem: { demandChargePerKw: opt.demand_charge_per_kw } };
  }
  const monthly = opt.monthly_demand_charge_per_kw ?? DEFAULT_MONTHLY_DEMAND_CHARGE_PER_KW;
  return {
    basis: 'monthly_prorated',
    note:
      `a monthly tariff of ${monthly} per kW of each calendar month's (UTC) peak import${opt.monthly_demand_charge_per_kw === undefined ? ' (the default: give monthly_demand_charge_per_kw)' : ''}, ` +
      "prorated to the share of the month the horizon covers; give demand_charge_per_kw to charge the horizon's peak at your own rate instead",
    problem: { demandChargePerKw: 0, demandPeriods: monthlyDemandPeriods(startMs, opt.interval_minutes, intervals, monthly) },
  };
}

function flexibleLoads(body: DispatchOptimizationRequest, startMs: number, intervals: number): FlexibleLoads | undefined {
  const minutes = body.optimization_config.interval_minutes;
  const endMs = startMs + intervals * minutes * 60_000;
  const shares = (from: string, to: string) => windowShares(startMs, minutes, intervals, Date.parse(from), Date.parse(to));
  const ev = body.ev && {
    share: shares(body.ev.arrival, body.ev.departure),
    energyKwh: body.ev.energy_kwh,
    chargerKw: body.ev.charger_kw,
    deliverableAfterKwh: (body.ev.charger_kw * Math.max(0, Date.parse(body.ev.departure) - Math.max(endMs, Date.parse(body.ev.arrival)))) / 3_600_000,
  };
  const deferrable = body.deferrable_loads?.map((d) => ({
    id: d.id,
    share: shares(d.window_start, d.window_end),
    energyKwh: d.energy_kwh,
    powerKw: d.power_kw,
    minPowerKw: d.min_power_kw ?? d.power_kw,
    singleBlock: d.single_block,
    minRunIntervals: Math.max(1, Math.ceil((d.min_run_minutes ?? 0) / minutes)),
  }));
  const thermal = body.thermal_loads?.map((h) => {
    const cop = typeof h.cop === 'number' ? Array<number>(intervals).fill(h.cop) : h.cop;
    // Twice what holds the top of the band against the coldest hour: room to pre-heat.
    const holding = (h.ua_kw_per_k * Math.max(0, h.t_max_c - Math.min(...h.outdoor_temp_c))) / Math.min(...cop);
    return {
      id: h.id,
      uaKwPerK: h.ua_kw_per_k,
      capacityKwhPerK: h.capacity_kwh_per_k,
      cop,
      maxPowerKw: h.max_power_kw ?? Math.max(2 * holding, 0.1),
      tMinC: h.t_min_c,
      tMaxC: h.t_max_c,
      tInitialC: h.t_initial_c,
      outdoorTempC: h.outdoor_temp_c,
    };
  });
  if (!ev && !deferrable?.length && !thermal?.length) return undefined;
  return { ...(ev ? { ev } : {}), ...(deferrable ? { deferrable } : {}), ...(thermal ? { thermal } : {}) };
}

export function socTargetsOf(targets: readonly SocTargetBody[] | undefined, startMs: number, intervalMinutes: number): SocTarget[] | undefined {
  return targets?.map((target) => ({ interval: intervalEndingAt(startMs, intervalMinutes, Date.parse(target.timestamp)), soc: target.soc, comparison: target.comparison ?? 'at_least' }));
}

export interface RequestProblem {
  problem: DispatchProblem;
  charge: DemandChargeTerms;
  /** The tariff's period of each interval, when a tariff prices energy. */
  tariffPeriods?: string[];
}

export function dispatchProblem(body: DispatchOptimizationRequest, startMs = nextIntervalStart(body.optimization_config.interval_minutes)): RequestProblem {
  const { forecasts: f, system_config: sys, optimization_config: opt } = body;
  const intervals = f.load_forecast.length;
  if (opt.time_horizon !== undefined) {
    const needed = (opt.time_horizon * 60) / opt.interval_minutes;
    if (!Number.isInteger(needed)) throw new DispatchInputError(`optimization_config.time_horizon ${opt.time_horizon} h is not a whole number of ${opt.interval_minutes}-minute intervals`);
    if (needed !== intervals) {
      throw new DispatchInputError(
        `optimization_config.time_horizon ${opt.time_horizon} h at ${opt.interval_minutes}-minute intervals needs ${needed} values per forecast; load_forecast has ${intervals}`,
      );
    }
  }
  const pricedByTariff = tariffPricesEnergy(body.tariff);
  if (pricedByTariff && f.price_forecast) throw new DispatchInputError('Give the energy prices once: forecasts.price_forecast or a tariff with import_price or periods, not both');
  if (pricedByTariff && f.export_price_forecast) throw new DispatchInputError('forecasts.export_price_forecast and a tariff that prices energy are alternatives: give the export price in the tariff');
  if (!pricedByTariff && !f.price_forecast) throw new DispatchInputError('forecasts.price_forecast is required unless a tariff gives import_price or periods');
  const tariff = body.tariff && resolveTariff(tariffOf(body.tariff), startMs, opt.interval_minutes, intervals);
  const importPrice = pricedByTariff ? tariff!.importPrice : f.price_forecast!;
  const charge = demandChargeOf(body, intervals, startMs, tariff);
  const flexible = flexibleLoads(body, startMs, intervals);
  return {
    problem: {
      solarKw: f.solar_forecast,
      loadKw: f.load_forecast,
      importPrice,
      exportPrice: pricedByTariff ? tariff!.exportPrice : (f.export_price_forecast ?? importPrice),
      battery: {
        capacityKwh: sys.battery_capacity_kwh,
        powerKw: sys.battery_power_kw,
        minSoc: sys.battery_min_soc,
        maxSoc: sys.battery_max_soc,
        initialSoc: sys.initial_soc,
        roundtripEfficiency: sys.roundtrip_efficiency,
      },
      objective: opt.objective,
      intervalMinutes: opt.interval_minutes,
      exportLimitKw: opt.grid_export_limit ?? Infinity,
      importLimitKw: opt.grid_import_limit ?? Infinity,
      ...charge.problem,
      terminalSoc: opt.terminal_soc,
      ...(opt.terminal_value_per_kwh !== undefined ? { terminalValuePerKwh: opt.terminal_value_per_kwh } : {}),
      ...(sys.degradation_cost_per_kwh ? { degradationCostPerKwh: sys.degradation_cost_per_kwh } : {}),
      ...(flexible ? { flexibleLoads: flexible } : {}),
    },
    charge,
    ...(pricedByTariff ? { tariffPeriods: tariff!.periodName } : {}),
  };
}

/** The next whole interval from now (UTC), where a schedule without `start_time` begins. */
export function nextIntervalStart(intervalMinutes: number, now = Date.now()): number {
  const step = intervalMinutes * 60_000;
  return Math.ceil(now / step) * step;
}

/**
 * POST /api/battery-sizing: the battery (energy and power) that maximises NPV over a year of the site's load,
 * PV and tariff (shared/domain/dispatch/sizing.ts), with the chosen size's dispatch summary and its economics
 * through the project-economics module.
 */
import { DispatchInputError, type DispatchProblem } from '../../domain/dispatch/problem';
import { dispatchReport } from '../../domain/dispatch/report';
import { NEIGHBOUR_STEP, SMALLEST_COMPARED_SHARE, sizeBattery, type SizingBounds, type SizingFinance, type SizingResult } from '../../domain/dispatch/sizing';
import { resolveTariff } from '../../domain/dispatch/tariff';
import { EconomicsInputError, roundEconomics } from '../../domain/economics';
import { clearSkyWeather, simulatePv } from '../../domain/pv';
import { roundHalfUp } from '../../domain/rounding';
import { BadRequest } from '../../errors';
import { withDispatchErrors } from './dispatch';
import { DEFAULT_CLEAR_SKY_DERATE, type BatterySizingRequest } from '../../schemas/battery-sizing';
import { tariffOf } from '../../schemas/dispatch';
import { storedPvSystem, toPvSystem } from '../pv/pv-sites';

/** The shortest horizon that can stand for a year (its savings are scaled to 365 days). */
const MIN_HORIZON_MINUTES = 1440;
/**
 * Default bound on energy: a day at the power bound. Behind the meter only solar may be exported, so a
 * battery cannot usefully discharge faster than load plus solar, and storage beyond a day's flow at that
 * rate would only shift energy between days.
 */
const DEFAULT_MAX_HOURS = 24;

/** The year's PV: the request's series, the pv_system's clear-sky output derated, or none. */
function pvSeries(body: BatterySizingRequest, startMs: number, n: number): number[] {
  if (body.pv_kw) {
    if (body.pv_kw.length !== n) throw new DispatchInputError(`pv_kw has ${body.pv_kw.length} values; load_kw has ${n}: give one per interval`);
    return body.pv_kw;
  }
  if (!body.pv_system) return new Array<number>(n).fill(0);
  const system = toPvSystem(storedPvSystem(body.pv_system));
  const starts = Array.from({ length: n }, (_, t) => startMs + t * body.interval_minutes * 60_000);
  const derate = body.pv_clear_sky_derate ?? DEFAULT_CLEAR_SKY_DERATE;
  return simulatePv(system, clearSkyWeather(system, starts, body.interval_minutes), body.interval_minutes).map((s) => s.acKw * derate);
}

function sizingProblem(body: BatterySizingRequest, startMs: number): DispatchProblem {
  const n = body.load_kw.length;
  if (n * body.interval_minutes < MIN_HORIZON_MINUTES) {
    throw new DispatchInputError(`load_kw covers ${n * body.interval_minutes} minutes; sizing needs at least a day, and a year (8,760 hourly values) to see every season`);
  }
  const solar = pvSeries(body, startMs, n);
  const tariff = resolveTariff(tariffOf(body.tariff), startMs, body.interval_minutes, n);
  const sys = body.system_config;
  return {
    solarKw: solar,
    loadKw: body.load_kw,
    importPrice: tariff.importPrice,
    exportPrice: tariff.exportPrice,
    // Capacity and power are the sizing's; these are replaced.
    battery: { capacityKwh: 1, powerKw: 1, minSoc: sys.battery_min_soc, maxSoc: sys.battery_max_soc, initialSoc: sys.initial_soc, roundtripEfficiency: sys.roundtrip_efficiency },
    objective: 'cost',
    intervalMinutes: body.interval_minutes,
    exportLimitKw: Infinity,
    importLimitKw: Infinity,
    demandChargePerKw: 0,
    demandPeriods: tariff.demandPeriods,
    windowDemandCharges: tariff.windowDemandCharges,
    terminalSoc: 'at_least_initial',
    ...(sys.degradation_cost_per_kwh ? { degradationCostPerKwh: sys.degradation_cost_per_kwh } : {}),
  };
}

function boundsOf(body: BatterySizingRequest, p: DispatchProblem): SizingBounds & { defaulted: boolean } {
  const peak = Math.max(...p.loadKw) + Math.max(...p.solarKw);
  const maxPowerKw = body.max_power_kw ?? peak;
  if (!(maxPowerKw > 0)) throw new DispatchInputError('load_kw and the PV are 0 throughout: there is nothing for a battery to shift');
  return { maxPowerKw, maxEnergyKwh: body.max_energy_kwh ?? maxPowerKw * DEFAULT_MAX_HOURS, defaulted: body.max_power_kw === undefined || body.max_energy_kwh === undefined };
}

const finance = (body: BatterySizingRequest): SizingFinance => ({ project: body.project_config, incentives: body.incentives });

function method(result: SizingResult, bounds: SizingBounds & { defaulted: boolean }): string {
  const parts = [
    `One LP over the horizon with energy and power capacity as variables, each charged its annualised net investment ` +
      `(x ${result.capexFactor.toFixed(4)} for the tax credit and depreciation shield, / annuity factor ${result.annuityFactor.toFixed(4)}: ` +
      `${roundHalfUp(result.annualised.costPerKwh, 6)} per kWh and ${roundHalfUp(result.annualised.costPerKw, 6)} per kW for the horizon), so that the lowest bill plus that charge is the highest NPV; ` +
      'fixed annual_expenses do not change the best size and decide only whether to build.',
    'The chosen size is solved again at fixed size and its NPV and IRR computed by the project-economics module with the year-1 savings as degrading revenue.',
    result.zeroReason && !result.compared.some((c) => c.role === 'chosen')
      ? `Compared with no battery and with ${SMALLEST_COMPARED_SHARE * 100}% of both bounds.`
      : `Compared with no battery and with energy / and x ${NEIGHBOUR_STEP} at the same power-to-energy ratio (the larger one within the bounds).`,
    `Bounds: ${roundHalfUp(bounds.maxEnergyKwh, 3)} kWh and ${roundHalfUp(bounds.maxPowerKw, 3)} kW${bounds.defaulted ? ' (defaults: peak load plus peak PV, and a day at that power)' : ''}.`,
  ];
  if (result.atBound.energy || result.atBound.power) parts.push(`The LP's size sits on the ${result.atBound.energy ? 'energy' : 'power'} bound: a larger bound may pay more.`);
  return parts.join(' ');
}

const money = (v: number) => roundHalfUp(v, 2);

export function sizeBatteryForSite(body: BatterySizingRequest) {
  return withDispatchErrors(async () => {
    try {
      const startMs = Date.parse(body.start_time);
      const problem = sizingProblem(body, startMs);
      const bounds = boundsOf(body, problem);
      const costs = { costPerKwh: body.battery_cost_per_kwh, costPerKw: body.battery_cost_per_kw };
      const result = await sizeBattery(problem, finance(body), costs, bounds);
      const chosen = result.chosen;
      const report = chosen.outcome && dispatchReport(chosen.outcome, startMs);
      return {
        status: 'success',
        energy_capacity_kwh: roundHalfUp(chosen.energyKwh, 3),
        power_capacity_kw: roundHalfUp(chosen.powerKw, 3),
        npv: money(chosen.npv),
        irr: chosen.irr === null ? null : roundHalfUp(chosen.irr, 6),
        ...(result.zeroReason ? { zero_reason: result.zeroReason } : {}),
        currency: body.tariff.currency,
        compared_sizes: result.compared.map((c) => ({
          role: c.role,
          energy_capacity_kwh: roundHalfUp(c.energyKwh, 3),
          power_capacity_kw: roundHalfUp(c.powerKw, 3),
          capital_cost: money(c.capitalCost),
          npv: money(c.npv),
          irr: c.irr === null ? null : roundHalfUp(c.irr, 6),
          annual_savings: money(c.annualSavings),
        })),
        chosen_is_best_of_compared: result.chosenIsBest,
        lp_size: { energy_capacity_kwh: roundHalfUp(result.lpSize.energyKwh, 3), power_capacity_kw: roundHalfUp(result.lpSize.powerKw, 3) },
        dispatch_summary: report ? { ...report.economic_summary, annual_savings: money(chosen.annualSavings), annual_discharge_kwh: roundHalfUp(chosen.annualDischargeKwh, 3) } : null,
        ...(body.include_schedule && report ? { dispatch_schedule: report.dispatch_schedule } : {}),
        economics: chosen.economics ? roundEconomics(chosen.economics) : null,
        method: method(result, bounds),
        solves: result.solves,
        solve_ms: roundHalfUp(result.milliseconds, 1),
      };
    } catch (err) {
      if (err instanceof EconomicsInputError) throw new BadRequest(`Invalid request: ${err.message}`);
      throw err;
    }
  }, 'sizes, costs and prices');
}

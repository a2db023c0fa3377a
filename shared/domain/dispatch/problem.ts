/**
 * A dispatch problem in the solver's units (kW, kWh, currency per kWh), checked for consistency before
 * anything is built: every inconsistency is named, so the caller's 400 says what to fix.
 */
import { MAX_ABS_PRICE, MAX_ENERGY_KWH, MAX_POWER_KW, MIN_ROUNDTRIP_EFFICIENCY } from '../physical-bounds';

export type DispatchObjective = 'revenue' | 'cost';

/** Where the battery must end: at least where it started (default), anywhere, or at least a stated fraction. */
export type TerminalSoc = 'at_least_initial' | 'free' | number;

export interface BatterySystem {
  capacityKwh: number;
  powerKw: number;
  /** Fractions of capacity. */
  minSoc: number;
  maxSoc: number;
  initialSoc: number;
  /** AC-to-AC round trip; split evenly (square root) between charging and discharging. */
  roundtripEfficiency: number;
}

export interface DispatchProblem {
  solarKw: readonly number[];
  loadKw: readonly number[];
  /** Price paid per kWh imported. */
  importPrice: readonly number[];
  /** Price received per kWh exported (the import price unless the request gives its own). */
  exportPrice: readonly number[];
  battery: BatterySystem;
  /**
   * `revenue`: a merchant site, the battery may trade with the grid. `cost`: a behind-the-meter site
   * minimising its bill; only solar may be exported (export <= solar generation in each interval).
   */
  objective: DispatchObjective;
  intervalMinutes: number;
  /** kW; Infinity when unlimited. */
  exportLimitKw: number;
  importLimitKw: number;
  /** Currency per kW of the horizon's peak import, when `demandPeriods` is absent; 0 when demand charges are off. */
  demandChargePerKw: number;
  /**
   * Billing periods of a demand charge (e.g. the calendar months the horizon spans), in order: each one's
   * own peak import is charged once, at its own rate. Absent: the horizon is one period at demandChargePerKw.
   */
  demandPeriods?: readonly DemandPeriod[];
  terminalSoc: TerminalSoc;
}

export interface DemandPeriod {
  /** First interval of the period; it runs to the next period's start (the last one to the horizon's end). */
  start: number;
  /** Currency per kW of the period's peak import. */
  chargePerKw: number;
}

/** The problem's billing periods with their interval ranges [start, end). */
export function demandPeriodsOf(p: Pick<DispatchProblem, 'demandChargePerKw' | 'demandPeriods' | 'loadKw'>): (DemandPeriod & { end: number })[] {
  const periods = p.demandPeriods ?? [{ start: 0, chargePerKw: p.demandChargePerKw }];
  return periods.map((period, i) => ({ ...period, end: i + 1 < periods.length ? periods[i + 1].start : p.loadKw.length }));
}

/** Whether any demand charge applies, so the programme needs peak variables. */
export const hasDemandCharge = (p: Pick<DispatchProblem, 'demandChargePerKw' | 'demandPeriods' | 'loadKw'>): boolean => demandPeriodsOf(p).some((period) => period.chargePerKw > 0);

/** One year of hourly intervals (leap year): the largest horizon one request may optimise. */
export const MAX_DISPATCH_INTERVALS = 8784;

export class DispatchInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DispatchInputError';
  }
}

export const hoursPerInterval = (p: Pick<DispatchProblem, 'intervalMinutes'>): number => p.intervalMinutes / 60;

/** Charging and discharging efficiencies whose product is the round trip. */
export const oneWayEfficiency = (b: BatterySystem): number => Math.sqrt(b.roundtripEfficiency);

/** The lowest state of charge (kWh) the last interval may end at. */
export function terminalFloorKwh(p: DispatchProblem): number {
  const b = p.battery;
  const floor = p.terminalSoc === 'free' ? b.minSoc : p.terminalSoc === 'at_least_initial' ? b.initialSoc : p.terminalSoc;
  return Math.max(b.minSoc, floor) * b.capacityKwh;
}

/** Throws DispatchInputError naming the first inconsistency; returns the number of intervals. */
export function checkDispatchProblem(p: DispatchProblem): number {
  const n = p.loadKw.length;
  const series: [string, readonly number[]][] = [
    ['solar_forecast', p.solarKw],
    ['load_forecast', p.loadKw],
    ['price_forecast', p.importPrice],
    ['export_price_forecast', p.exportPrice],
  ];
  if (series.some(([, s]) => s.length !== n)) {
    throw new DispatchInputError(`The forecasts must have the same length: ${series.map(([name, s]) => `${name} has ${s.length}`).join(', ')}`);
  }
  if (n === 0) throw new DispatchInputError('The forecasts are empty: give at least one interval');
  if (n > MAX_DISPATCH_INTERVALS) throw new DispatchInputError(`At most ${MAX_DISPATCH_INTERVALS} intervals can be optimised in one request; the forecasts have ${n}`);
  for (const [name, s] of series) {
    const bad = s.findIndex((v) => !Number.isFinite(v));
    if (bad >= 0) throw new DispatchInputError(`forecasts.${name}[${bad}] is not a finite number`);
  }
  for (const [name, s] of [['solar_forecast', p.solarKw], ['load_forecast', p.loadKw]] as const) {
    const negative = s.findIndex((v) => v < 0);
    if (negative >= 0) throw new DispatchInputError(`forecasts.${name}[${negative}] is negative (${s[negative]}); power forecasts are kW drawn or produced, never below 0`);
    const huge = s.findIndex((v) => v > MAX_POWER_KW);
    if (huge >= 0) throw new DispatchInputError(`forecasts.${name}[${huge}] (${s[huge]}) is above ${MAX_POWER_KW} kW`);
  }
  for (const [name, s] of [['price_forecast', p.importPrice], ['export_price_forecast', p.exportPrice]] as const) {
    const huge = s.findIndex((v) => Math.abs(v) > MAX_ABS_PRICE);
    if (huge >= 0) throw new DispatchInputError(`forecasts.${name}[${huge}] (${s[huge]}) is outside -${MAX_ABS_PRICE} to ${MAX_ABS_PRICE}`);
  }
  const b = p.battery;
  if (!(b.capacityKwh <= MAX_ENERGY_KWH)) throw new DispatchInputError(`system_config.battery_capacity_kwh must be at most ${MAX_ENERGY_KWH}`);
  if (!(b.powerKw <= MAX_POWER_KW)) throw new DispatchInputError(`system_config.battery_power_kw must be at most ${MAX_POWER_KW}`);
  if (!(b.capacityKwh > 0)) throw new DispatchInputError('system_config.battery_capacity_kwh must be above 0');
  if (!(b.powerKw > 0)) throw new DispatchInputError('system_config.battery_power_kw must be above 0');
  if (!(b.minSoc >= 0 && b.maxSoc <= 1)) throw new DispatchInputError('system_config.battery_min_soc and battery_max_soc are fractions between 0 and 1');
  if (!(b.minSoc < b.maxSoc)) throw new DispatchInputError(`system_config.battery_min_soc (${b.minSoc}) must be below battery_max_soc (${b.maxSoc})`);
  if (!(b.initialSoc >= b.minSoc && b.initialSoc <= b.maxSoc)) {
    throw new DispatchInputError(`system_config.initial_soc (${b.initialSoc}) is outside [battery_min_soc ${b.minSoc}, battery_max_soc ${b.maxSoc}]`);
  }
  if (!(b.roundtripEfficiency >= MIN_ROUNDTRIP_EFFICIENCY && b.roundtripEfficiency <= 1)) {
    throw new DispatchInputError(`system_config.roundtrip_efficiency (${b.roundtripEfficiency}) must be a fraction from ${MIN_ROUNDTRIP_EFFICIENCY} to 1`);
  }
  if (p.demandPeriods) {
    const periods = p.demandPeriods;
    if (!periods.length || periods[0].start !== 0) throw new DispatchInputError('Demand charge periods must start at the first interval');
    const bad = periods.findIndex((period, i) => !Number.isInteger(period.start) || period.start >= n || (i > 0 && period.start <= periods[i - 1].start) || !(period.chargePerKw >= 0 && period.chargePerKw <= MAX_ABS_PRICE));
    if (bad >= 0) throw new DispatchInputError(`Demand charge period ${bad} is out of order or its charge is outside 0 to ${MAX_ABS_PRICE}`);
  }
  if (typeof p.terminalSoc === 'number' && !(p.terminalSoc >= b.minSoc && p.terminalSoc <= b.maxSoc)) {
    throw new DispatchInputError(`optimization_config.terminal_soc (${p.terminalSoc}) is outside [battery_min_soc ${b.minSoc}, battery_max_soc ${b.maxSoc}]`);
  }
  // The only way the programme can be infeasible: a terminal floor that charging at full power cannot reach.
  const reachable = b.initialSoc * b.capacityKwh + oneWayEfficiency(b) * b.powerKw * hoursPerInterval(p) * n;
  const floor = terminalFloorKwh(p);
  if (floor > Math.min(reachable, b.maxSoc * b.capacityKwh) + 1e-9) {
    throw new DispatchInputError(
      `optimization_config.terminal_soc cannot be reached: charging at battery_power_kw for the whole horizon ends at ${(Math.min(reachable, b.maxSoc * b.capacityKwh) / b.capacityKwh).toFixed(4)} of capacity`,
    );
  }
  const importShort = p.loadKw.findIndex((load, t) => load - p.solarKw[t] - b.powerKw > p.importLimitKw + 1e-9);
  if (importShort >= 0) {
    throw new DispatchInputError(`Interval ${importShort} cannot be served: its load exceeds solar, battery power and grid_import_limit together`);
  }
  return n;
}

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
  /**
   * Currency per kWh left in the battery at the horizon's end (a receding horizon values what it hands on
   * to the next plan instead of emptying the battery); 0 when absent.
   */
  terminalValuePerKwh?: number;
  /** Demand charges on the peak import within a set of intervals (TOU demand charges, per month). */
  windowDemandCharges?: readonly WindowDemandCharge[];
  /**
   * Other solar outlooks as likely as solarKw (kW per interval each): the plan's first interval, its grid
   * power, must suit them all, and each plans the rest its own way (scenario-program.ts); their first values
   * are not read (the first interval is solarKw's in all). The schedule is solarKw's.
   */
  solarScenarios?: readonly (readonly number[])[];
  /** Currency per kWh discharged: the battery's wear, so that a cycle must earn more than it costs. */
  degradationCostPerKwh?: number;
  /** The state of charge at the end of given intervals (a receding horizon's intermediate targets). */
  socTargets?: readonly SocTarget[];
  flexibleLoads?: FlexibleLoads;
  /**
   * Sizing: the battery's capacity and power become variables up to these bounds (battery.capacityKwh and
   * powerKw are ignored), each costing its horizon's share of the investment.
   */
  sizing?: BatterySizing;
}

export interface BatterySizing {
  maxEnergyKwh: number;
  maxPowerKw: number;
  /** Currency per kWh (and per kW) of capacity, annualised to the horizon. */
  costPerKwh: number;
  costPerKw: number;
}

export interface SocTarget {
  /** The interval at whose end the target holds. */
  interval: number;
  /** Fraction of capacity. */
  soc: number;
  comparison: 'at_least' | 'exactly' | 'at_most';
}

export interface WindowDemandCharge {
  label: string;
  chargePerKw: number;
  /** The intervals whose import sets the peak, ascending. */
  intervals: readonly number[];
}

/** Loads whose timing the optimisation chooses (ARCHITECTURE 9); powers in kW drawn from the site. */
export interface FlexibleLoads {
  ev?: EvCharging;
  deferrable?: readonly DeferrableLoad[];
  thermal?: readonly ThermalLoad[];
}

/** Availability in a window: the share of each interval inside it. */
export interface Window {
  /** Fraction 0..1 of each interval inside the window, by interval. */
  share: readonly number[];
}

export interface EvCharging extends Window {
  /** kWh that must be in the car by departure. */
  energyKwh: number;
  chargerKw: number;
  /** Of energyKwh, what charging at full power after the horizon could still deliver (0 when it departs within it). */
  deliverableAfterKwh: number;
}

export interface DeferrableLoad extends Window {
  id: string;
  energyKwh: number;
  /** kW when running. */
  powerKw: number;
  /** kW below which it cannot run when on (powerKw: on/off at fixed power; 0: any level). */
  minPowerKw: number;
  /** One contiguous run. */
  singleBlock: boolean;
  /** Intervals it runs at least once started (1: no minimum). */
  minRunIntervals: number;
}

export interface ThermalLoad {
  id: string;
  /** Heat loss coefficient, kW per kelvin of indoor-outdoor difference. */
  uaKwPerK: number;
  /** Thermal capacity, kWh per kelvin. */
  capacityKwhPerK: number;
  /** Coefficient of performance by interval. */
  cop: readonly number[];
  maxPowerKw: number;
  tMinC: number;
  tMaxC: number;
  tInitialC: number;
  outdoorTempC: readonly number[];
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
  // Without targets or flexible loads, the only way the programme can be infeasible: a terminal floor that
  // charging at full power cannot reach.
  if (p.sizing) return n;
  const reachable = b.initialSoc * b.capacityKwh + oneWayEfficiency(b) * b.powerKw * hoursPerInterval(p) * n;
  const floor = terminalFloorKwh(p);
  if (floor > Math.min(reachable, b.maxSoc * b.capacityKwh) + 1e-9) {
    throw new DispatchInputError(
      `optimization_config.terminal_soc cannot be reached: charging at battery_power_kw for the whole horizon ends at ${(Math.min(reachable, b.maxSoc * b.capacityKwh) / b.capacityKwh).toFixed(4)} of capacity`,
    );
  }
  checkExtensions(p, n);
  const importShort = p.loadKw.findIndex((load, t) => load - p.solarKw[t] - b.powerKw > p.importLimitKw + 1e-9);
  if (importShort >= 0) {
    throw new DispatchInputError(`Interval ${importShort} cannot be served: its load exceeds solar, battery power and grid_import_limit together`);
  }
  return n;
}

/**
 * On/off binaries the deferrable loads of one request may add: a year-long MIP with 17,520 of them (two loads
 * recurring daily) reaches a 0.01% gap in about a minute; many more would only meet the time limit.
 */
export const MAX_FLEXIBLE_BINARIES = 20_000;

/** The energy a window can take at `kw` (kWh). */
const windowEnergy = (w: Window, kw: number, dt: number) => w.share.reduce((a, s) => a + s * kw * dt, 0);

/** Solar scenarios a request may add; with the forecast's own, their intervals count as one horizon's. */
export const MAX_SOLAR_SCENARIOS = 20;

function checkScenarios(p: DispatchProblem, n: number) {
  const scenarios = p.solarScenarios;
  if (!scenarios?.length) return;
  if (p.sizing) throw new DispatchInputError('Solar scenarios are for receding-horizon plans, not for sizing');
  if (scenarios.length > MAX_SOLAR_SCENARIOS) throw new DispatchInputError(`forecasts.solar_forecast_scenarios has ${scenarios.length} scenarios; at most ${MAX_SOLAR_SCENARIOS}`);
  if ((1 + scenarios.length) * n > MAX_DISPATCH_INTERVALS) {
    throw new DispatchInputError(`${scenarios.length} solar scenarios over ${n} intervals plan ${(1 + scenarios.length) * n} intervals in all; at most ${MAX_DISPATCH_INTERVALS} (fewer scenarios or a shorter horizon)`);
  }
  scenarios.forEach((s, i) => {
    const name = `forecasts.solar_forecast_scenarios[${i}]`;
    if (s.length !== n) throw new DispatchInputError(`${name} has ${s.length} values; solar_forecast has ${n}`);
    const bad = s.findIndex((v) => !(Number.isFinite(v) && v >= 0 && v <= MAX_POWER_KW));
    if (bad >= 0) throw new DispatchInputError(`${name}[${bad}] (${s[bad]}) is not a power from 0 to ${MAX_POWER_KW} kW`);
  });
}

/** Checks of the receding-horizon, tariff, sizing and flexible-load fields, each naming its field. */
function checkExtensions(p: DispatchProblem, n: number) {
  const dt = hoursPerInterval(p);
  const b = p.battery;
  if (p.terminalValuePerKwh !== undefined && !(Math.abs(p.terminalValuePerKwh) <= MAX_ABS_PRICE)) throw new DispatchInputError(`terminal_value_per_kwh must be within -${MAX_ABS_PRICE} to ${MAX_ABS_PRICE}`);
  if (p.degradationCostPerKwh !== undefined && !(p.degradationCostPerKwh >= 0 && p.degradationCostPerKwh <= MAX_ABS_PRICE)) {
    throw new DispatchInputError(`system_config.degradation_cost_per_kwh must be from 0 to ${MAX_ABS_PRICE}`);
  }
  for (const w of p.windowDemandCharges ?? []) {
    if (!(w.chargePerKw >= 0 && w.chargePerKw <= MAX_ABS_PRICE) || w.intervals.some((t, i) => !Number.isInteger(t) || t < 0 || t >= n || (i > 0 && t <= w.intervals[i - 1]))) {
      throw new DispatchInputError(`Demand charge ${w.label} has intervals out of order or a charge outside 0 to ${MAX_ABS_PRICE}`);
    }
  }
  (p.socTargets ?? []).forEach((target, i) => {
    if (!Number.isInteger(target.interval) || target.interval < 0 || target.interval >= n) throw new DispatchInputError(`soc_targets[${i}].timestamp is outside the horizon`);
    if (!(target.soc >= b.minSoc && target.soc <= b.maxSoc)) throw new DispatchInputError(`soc_targets[${i}].soc (${target.soc}) is outside [battery_min_soc ${b.minSoc}, battery_max_soc ${b.maxSoc}]`);
  });
  if (p.sizing && !(p.sizing.maxEnergyKwh > 0 && p.sizing.maxEnergyKwh <= MAX_ENERGY_KWH && p.sizing.maxPowerKw > 0 && p.sizing.maxPowerKw <= MAX_POWER_KW)) {
    throw new DispatchInputError('The sizing bounds must be above 0 and within the physical limits');
  }
  checkScenarios(p, n);
  const flex = p.flexibleLoads;
  if (!flex) return;
  const windowOk = (w: Window) => w.share.length === n && w.share.every((s) => s >= 0 && s <= 1);
  if (flex.ev) {
    const ev = flex.ev;
    if (!windowOk(ev)) throw new DispatchInputError('ev: the availability window does not match the horizon');
    const possible = windowEnergy(ev, ev.chargerKw, dt);
    const needed = Math.max(0, ev.energyKwh - ev.deliverableAfterKwh);
    if (possible + 1e-9 < needed) {
      throw new DispatchInputError(`ev: ${ev.energyKwh} kWh cannot be delivered between arrival and departure at charger_kw ${ev.chargerKw} (at most ${possible.toFixed(3)} kWh in the horizon)`);
    }
  }
  const ids = new Set<string>();
  (flex.deferrable ?? []).forEach((d, i) => {
    if (ids.has(d.id)) throw new DispatchInputError(`deferrable_loads[${i}].id ${JSON.stringify(d.id)} is used twice`);
    ids.add(d.id);
    if (!windowOk(d)) throw new DispatchInputError(`deferrable_loads[${i}]: the window does not match the horizon`);
    if (!(d.minPowerKw >= 0 && d.minPowerKw <= d.powerKw)) throw new DispatchInputError(`deferrable_loads[${i}].min_power_kw must be from 0 to power_kw`);
    const possible = windowEnergy(d, d.powerKw, dt);
    if (possible + 1e-9 < d.energyKwh) {
      throw new DispatchInputError(`deferrable_loads[${i}] (${d.id}): ${d.energyKwh} kWh does not fit its window at power_kw ${d.powerKw} (at most ${possible.toFixed(3)} kWh)`);
    }
    const windowIntervals = d.share.filter((s) => s > 0).length;
    if (d.minRunIntervals > windowIntervals) throw new DispatchInputError(`deferrable_loads[${i}] (${d.id}): min_run_minutes is longer than its window`);
  });
  // Each solar scenario plans the loads again.
  const binaries = (1 + (p.solarScenarios?.length ?? 0)) * (flex.deferrable ?? []).reduce((a, d) => {
    const window = d.share.filter((s) => s > 0).length;
    const onOff = d.minPowerKw > 0 || d.singleBlock || d.minRunIntervals > 1 ? window : 0;
    return a + onOff + (d.singleBlock || d.minRunIntervals > 1 ? window : 0);
  }, 0);
  if (binaries > MAX_FLEXIBLE_BINARIES) {
    throw new DispatchInputError(`deferrable_loads need ${binaries} on/off variables over their windows${p.solarScenarios?.length ? ' and solar scenarios' : ''}; at most ${MAX_FLEXIBLE_BINARIES} can be scheduled in one request (shorten the windows or the horizon)`);
  }
  (flex.thermal ?? []).forEach((h, i) => {
    if (ids.has(h.id)) throw new DispatchInputError(`thermal_loads[${i}].id ${JSON.stringify(h.id)} is used twice`);
    ids.add(h.id);
    if (h.outdoorTempC.length !== n) throw new DispatchInputError(`thermal_loads[${i}].outdoor_temp_c has ${h.outdoorTempC.length} values; the horizon has ${n} intervals`);
    if (h.cop.length !== n) throw new DispatchInputError(`thermal_loads[${i}].cop has ${h.cop.length} values; the horizon has ${n} intervals`);
    if (!(h.tMinC < h.tMaxC)) throw new DispatchInputError(`thermal_loads[${i}].t_min_c (${h.tMinC}) must be below t_max_c (${h.tMaxC})`);
  });
}

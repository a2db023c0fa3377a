/**
 * Receding-horizon control (ARCHITECTURE 9, POST /api/dispatch/mpc): each call plans from the measured state
 * to the horizon and applies only the first interval. What it keeps between calls is the plan, compact: the
 * next call starts the solver from it (shifted to the new horizon) and the console draws plan against actual.
 */
import type { DispatchStart, IntervalFlows, SolvedDispatch } from './optimise';
import type { DispatchProblem } from './problem';

/** Intervals of a plan kept for the next call (a week at 15 minutes): enough to warm-start and to compare. */
export const STORED_PLAN_INTERVALS = 672;

/** A plan as stored: per interval from `startMs`, the battery's flows (kW, kWh) and each deferrable load's on/off. */
export interface StoredPlan {
  startMs: number;
  intervalMinutes: number;
  charge: number[];
  discharge: number[];
  import: number[];
  export: number[];
  /** kWh at the end of each interval. */
  socKwh: number[];
  curtail: number[];
  capacityKwh: number;
  deferrableOn: Record<string, number[]>;
  /** The `cost` objective: a behind-the-meter battery, which never discharges beyond the site's load. */
  behindTheMeter?: boolean;
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;

export function storedPlan(s: SolvedDispatch, startMs: number): StoredPlan {
  const flows = s.flows.slice(0, STORED_PLAN_INTERVALS);
  const of = (k: keyof IntervalFlows) => flows.map((f) => round(f[k]));
  return {
    startMs,
    intervalMinutes: s.problem.intervalMinutes,
    charge: of('charge'),
    discharge: of('discharge'),
    import: of('import'),
    export: of('export'),
    socKwh: of('soc'),
    curtail: of('curtail'),
    capacityKwh: s.problem.battery.capacityKwh,
    deferrableOn: Object.fromEntries((s.flexible?.deferrable ?? []).map((d) => [d.id, Array.from(d.on.slice(0, STORED_PLAN_INTERVALS))])),
    behindTheMeter: s.problem.objective === 'cost',
  };
}

/** Index of the stored interval starting at `ms`, or -1 when the plan does not cover it on its own grid. */
function intervalAt(plan: StoredPlan, ms: number): number {
  const k = (ms - plan.startMs) / (plan.intervalMinutes * 60_000);
  return Number.isInteger(k) && k >= 0 && k < plan.socKwh.length ? k : -1;
}

/** The previous plan laid on a new horizon from `startMs`; undefined when it shares no interval with it. */
export function shiftedStart(plan: StoredPlan, p: Pick<DispatchProblem, 'intervalMinutes' | 'loadKw' | 'battery'>, startMs: number): DispatchStart | undefined {
  if (plan.intervalMinutes !== p.intervalMinutes || plan.capacityKwh !== p.battery.capacityKwh) return undefined;
  const step = p.intervalMinutes * 60_000;
  const at = Array.from({ length: p.loadKw.length }, (_, t) => intervalAt(plan, startMs + t * step));
  if (at.every((k) => k < 0)) return undefined;
  return {
    flows: at.map((k) => (k < 0 ? undefined : { charge: plan.charge[k], discharge: plan.discharge[k], import: plan.import[k], export: plan.export[k], soc: plan.socKwh[k], curtail: plan.curtail[k] })),
    deferrableOn: Object.fromEntries(Object.entries(plan.deferrableOn).map(([id, on]) => [id, at.map((k) => (k < 0 ? undefined : on[k]))])),
  };
}

/** The SOC (fraction) the plan expected at instant `ms` (the end of the interval before it); undefined outside it. */
export function plannedSocAt(plan: StoredPlan, ms: number): number | undefined {
  const k = (ms - plan.startMs) / (plan.intervalMinutes * 60_000) - 1;
  if (!Number.isInteger(k) || k < 0 || k >= plan.socKwh.length) return undefined;
  return plan.socKwh[k] / plan.capacityKwh;
}

export interface PlannedSetpoint {
  startMs: number;
  endMs: number;
  /** kW, positive discharging. */
  batteryKw: number;
  /** kW at the meter, positive importing. */
  gridKw: number;
  socTarget: number;
}

/** The set-point the plan gives the interval containing `ms`, with its bounds. */
export function plannedSetpoint(plan: StoredPlan, ms: number): PlannedSetpoint | undefined {
  const step = plan.intervalMinutes * 60_000;
  const k = Math.floor((ms - plan.startMs) / step);
  if (k < 0 || k >= plan.socKwh.length) return undefined;
  return {
    startMs: plan.startMs + k * step,
    endMs: plan.startMs + (k + 1) * step,
    batteryKw: plan.discharge[k] - plan.charge[k],
    gridKw: plan.import[k] - plan.export[k],
    socTarget: plan.socKwh[k] / plan.capacityKwh,
  };
}

export interface GridFollowingLimits {
  powerKw: number;
  /** Never discharge beyond the load (a behind-the-meter battery does not export). */
  behindTheMeter: boolean;
  /** kWh the battery may still give (to its SOC floor) and take (to its ceiling) before the set-point's end. */
  dischargeableKwh: number;
  chargeableKwh: number;
  /** Hours until the set-point's end, and the one-way efficiency, to turn those into kW. */
  hours: number;
  oneWayEfficiency: number;
}

/**
 * The battery power (kW, positive discharging) that holds the meter at the plan's grid power given the site's
 * measured load and solar: the interval's forecast errors fall on the battery, not on the grid, as a site
 * controller regulating its meter does. Following the battery power instead turns a solar shortfall into
 * imports and a surplus into exports at the feed-in price (bench/results/mpc.md measures both).
 */
export function gridFollowingBatteryKw(gridKw: number, measured: { loadKw: number; solarKw: number }, limits: GridFollowingLimits): number {
  const wanted = measured.loadKw - measured.solarKw - gridKw;
  if (wanted >= 0) {
    const byEnergy = (limits.dischargeableKwh * limits.oneWayEfficiency) / limits.hours;
    return Math.max(0, Math.min(wanted, limits.powerKw, byEnergy, limits.behindTheMeter ? measured.loadKw : Infinity));
  }
  const byEnergy = limits.chargeableKwh / (limits.oneWayEfficiency * limits.hours);
  return -Math.max(0, Math.min(-wanted, limits.powerKw, byEnergy));
}

/**
 * What a kWh left at the horizon's end is worth when the caller does not say: it will displace an import
 * later, after the discharge loss, at a typical price of the horizon (its median). Without it a receding
 * horizon empties the battery at every horizon's end; with a floor instead it can never use its charge.
 */
export function defaultTerminalValue(p: Pick<DispatchProblem, 'importPrice' | 'battery'>): number {
  const sorted = [...p.importPrice].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  return Math.max(0, median) * Math.sqrt(p.battery.roundtripEfficiency);
}

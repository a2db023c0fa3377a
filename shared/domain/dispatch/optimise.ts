/**
 * Solves a dispatch problem, and the same site without its battery for the comparison.
 *
 * Simultaneous charge and discharge: with non-negative prices it never pays (energy would be lost for
 * nothing), but with negative import prices burning energy in round-trip losses earns money, and an LP
 * optimum may also sit on a tie. Where a solution shows both flows in an interval, that interval gets a
 * binary (charging or discharging, not both) and HiGHS solves the mixed-integer programme; intervals with
 * negative prices get theirs at the same time. The LP stays an LP in the common case.
 * Simultaneous import and export: binaries where export is paid more than import costs (otherwise it never
 * pays), and an exact tie is netted afterwards (same cost, same balance).
 */
import { buildDispatchProgram, column, type BinaryIntervals, type LinearProgram, type LpLayout } from './formulation';
import { deferrableStart } from './deferrable-start';
import { hasSolution, solveWithHighs, type LpSolution, type PartialStart } from './highs-solver';
import { DispatchInputError, checkDispatchProblem, hoursPerInterval, type DispatchProblem } from './problem';

/** Power below this (kW, relative to the battery's power) counts as zero. */
const FLOW_TOLERANCE = 1e-6;
/** More rounds of binaries than this means something else is wrong. */
const MAX_BINARY_ROUNDS = 4;
/**
 * Flexible loads' on/off binaries make a MIP whose proof of optimality can take minutes over a year: it stops
 * at this relative gap or this time (so a request's solve and its no-battery baseline fit in one API call),
 * and answers its best schedule with the gap it reached.
 */
export const FLEXIBLE_MIP_GAP = 1e-4;
export const FLEXIBLE_MIP_SECONDS = 8;
/** A sizing LP (a year with the capacity as a variable) takes several times a fixed-size solve. */
const SIZING_SECONDS = 60;

export interface IntervalFlows {
  charge: number;
  discharge: number;
  import: number;
  export: number;
  /** kWh at the end of the interval. */
  soc: number;
  curtail: number;
}

/** What the flexible loads draw (kW by interval, 0 outside their windows) and the thermal loads' temperatures. */
export interface FlexibleFlows {
  ev?: Float64Array;
  deferrable: { id: string; kw: Float64Array; on: Uint8Array }[];
  thermal: { id: string; kw: Float64Array; temperatureC: Float64Array; /** Kelvin-hours outside the comfort band. */ violationKh: number }[];
}

export interface SolvedDispatch {
  problem: DispatchProblem;
  flows: IntervalFlows[];
  flexible?: FlexibleFlows;
  /** The capacity and power chosen, when the problem sizes the battery. */
  sized?: { energyKwh: number; powerKw: number };
  /** The minimised sum: net energy cost plus demand charge. */
  objective: number;
  solver: {
    kind: 'LP' | 'MIP';
    /** `optimal` within the MIP gap, or `time_limit`: the best schedule found when the time ran out. */
    status: 'optimal' | 'time_limit';
    /** A MIP's relative gap to its bound. */
    mip_gap?: number;
    variables: number;
    constraints: number;
    binaries: number;
    solves: number;
    milliseconds: number;
    warm_start?: boolean;
  };
}

/**
 * A known schedule to start from (a receding horizon's previous plan, shifted to this horizon): per interval,
 * the battery's flows and each deferrable load's on/off state by id, undefined where unknown.
 */
export interface DispatchStart {
  flows: (IntervalFlows | undefined)[];
  deferrableOn: Record<string, (number | undefined)[]>;
}

/** The start as column values of this programme (only binaries matter to HiGHS's MIP start; flows help it repair). */
function startColumns(start: DispatchStart, layout: LpLayout): PartialStart {
  const indices: number[] = [];
  const values: number[] = [];
  const put = (j: number, v: number) => {
    indices.push(j);
    values.push(v);
  };
  start.flows.forEach((f, t) => {
    if (!f || t >= layout.intervals) return;
    for (const v of ['charge', 'discharge', 'import', 'export', 'soc', 'curtail'] as const) put(column(t, v), f[v]);
  });
  for (const load of layout.deferrable) {
    const on = start.deferrableOn[load.id] ?? [];
    load.on.forEach((j, t) => {
      if (j < 0 || on[t] === undefined) return;
      put(j, on[t]!);
      // A start where it runs and did not the interval before (the formulation's start rows).
      if (load.starts[t] >= 0 && (t === 0 || on[t - 1] !== undefined)) put(load.starts[t], on[t]! && !(t > 0 && load.on[t - 1] >= 0 && on[t - 1]) ? 1 : 0);
    });
  }
  return { indices: Int32Array.from(indices), values: Float64Array.from(values) };
}

/** The MIP's starting point: the caller's, else each deferrable load in its cheapest block; none for an LP. */
export function mipStart(p: DispatchProblem, layout: LpLayout, start?: DispatchStart): PartialStart | undefined {
  const first = start ?? (layout.flexibleBinaries > 0 ? { flows: [], deferrableOn: deferrableStart(p) } : undefined);
  return first && startColumns(first, layout);
}

export class DispatchSolveError extends Error {
  /** `time`: the programme is too large to solve in time; `numerics`: its numbers defeat the solver's tolerances. */
  constructor(
    message: string,
    readonly reason: 'time' | 'numerics' = 'numerics',
  ) {
    super(message);
  }
}

export async function solveDispatch(p: DispatchProblem, start?: DispatchStart): Promise<SolvedDispatch> {
  const n = p.loadKw.length;
  const tolerance = FLOW_TOLERANCE * Math.max(1, p.battery.powerKw);
  const battery = new Set<number>();
  const grid = new Set(p.exportPrice.flatMap((price, t) => (price > p.importPrice[t] ? [t] : [])));
  let milliseconds = 0;
  for (let round = 1; ; round++) {
    const { lp, layout } = buildDispatchProgram(p, { battery, grid } satisfies BinaryIntervals);
    const limits = layout.flexibleBinaries > 0 ? { mipRelativeGap: FLEXIBLE_MIP_GAP, timeLimitSeconds: FLEXIBLE_MIP_SECONDS } : p.sizing ? { timeLimitSeconds: SIZING_SECONDS } : {};
    const first = mipStart(p, layout, start);
    const solution = await solveWithHighs(lp, { ...limits, ...(first ? { start: first } : {}) });
    milliseconds += solution.milliseconds;
    assertSolved(solution, p);
    const flows = Array.from({ length: n }, (_, t) => flowsAt(solution.x, t));
    const both = flows.flatMap((f, t) => (Math.min(f.charge, f.discharge) > tolerance ? [t] : []));
    if (both.length && round < MAX_BINARY_ROUNDS) {
      both.forEach((t) => battery.add(t));
      p.importPrice.forEach((price, t) => price < 0 && battery.add(t));
      continue;
    }
    if (both.length) throw new DispatchSolveError(`Simultaneous charge and discharge remained after ${round} solves`);
    for (const f of flows) {
      const tie = Math.min(f.import, f.export);
      f.import -= tie;
      f.export -= tie;
    }
    const binaryCount = layout.batteryBinary.size + layout.gridBinary.size + layout.flexibleBinaries;
    return {
      problem: p,
      flows,
      ...(p.flexibleLoads ? { flexible: flexibleFlows(solution.x, layout, p) } : {}),
      ...(layout.sizing ? { sized: { energyKwh: Math.max(0, solution.x[layout.sizing.energy]), powerKw: Math.max(0, solution.x[layout.sizing.power]) } } : {}),
      objective: solution.objective,
      solver: {
        kind: binaryCount ? 'MIP' : 'LP',
        status: solution.status === 'optimal' ? 'optimal' : 'time_limit',
        ...(solution.mipGap !== undefined ? { mip_gap: solution.mipGap } : {}),
        ...sizeOf(lp),
        binaries: binaryCount,
        solves: round,
        milliseconds,
        ...(start ? { warm_start: true } : {}),
      },
    };
  }
}

function assertSolved(solution: LpSolution, p: DispatchProblem) {
  if (hasSolution(solution)) return;
  if (solution.status === 'infeasible') {
    const also = [p.socTargets?.length ? 'the soc_targets' : '', p.flexibleLoads?.ev ? 'the EV' : '', p.flexibleLoads?.deferrable?.length ? 'the deferrable loads' : ''].filter(Boolean);
    throw new DispatchInputError(
      `The dispatch problem is infeasible: the load${also.length ? `, ${also.join(', ')}` : ''} cannot be served within grid_import_limit and the battery limits for the whole horizon`,
    );
  }
  if (solution.status === 'time_limit') {
    throw new DispatchSolveError('HiGHS found no schedule within its time limit: the programme is too large (shorten the horizon, or give fewer flexible loads, thermal loads or demand-charge windows)', 'time');
  }
  throw new DispatchSolveError(`HiGHS stopped without an optimum (${solution.detail})`);
}

const valuesAt = (x: Float64Array, cols: Int32Array, floor = 0) => Float64Array.from(cols, (j) => (j >= 0 ? Math.max(floor, x[j]) : 0));

function flexibleFlows(x: Float64Array, layout: LpLayout, p: DispatchProblem): FlexibleFlows {
  const dt = hoursPerInterval(p);
  return {
    ...(layout.ev ? { ev: valuesAt(x, layout.ev) } : {}),
    deferrable: layout.deferrable.map((d) => {
      const kw = valuesAt(x, d.power);
      return { id: d.id, kw, on: Uint8Array.from(kw, (v, t) => (d.on[t] >= 0 ? Math.round(x[d.on[t]]) : v > 1e-9 ? 1 : 0)) };
    }),
    thermal: layout.thermal.map((h) => ({
      id: h.id,
      kw: valuesAt(x, h.power),
      temperatureC: valuesAt(x, h.temperature, -Infinity),
      violationKh: dt * [...h.below, ...h.above].reduce((a, j) => a + Math.max(0, x[j]), 0),
    })),
  };
}

const sizeOf = (lp: LinearProgram) => ({ variables: lp.colCost.length, constraints: lp.rowLower.length });

const flowsAt = (x: Float64Array, t: number): IntervalFlows => ({
  charge: Math.max(0, x[column(t, 'charge')]),
  discharge: Math.max(0, x[column(t, 'discharge')]),
  import: Math.max(0, x[column(t, 'import')]),
  export: Math.max(0, x[column(t, 'export')]),
  soc: x[column(t, 'soc')],
  curtail: Math.max(0, x[column(t, 'curtail')]),
});

/** The same site and prices with no battery (the economic summary's baseline, solved rather than estimated). */
export function withoutBattery(p: DispatchProblem): DispatchProblem {
  return { ...p, battery: { ...p.battery, powerKw: 0 }, terminalSoc: 'free', terminalValuePerKwh: 0, socTargets: undefined, sizing: undefined, solarScenarios: undefined };
}

export interface DispatchOutcome {
  optimised: SolvedDispatch;
  /** Undefined when the site cannot be served without its battery (a grid import limit below the load). */
  baseline?: SolvedDispatch;
}

export async function optimiseDispatch(p: DispatchProblem, start?: DispatchStart): Promise<DispatchOutcome> {
  checkDispatchProblem(p);
  const optimised = await solveDispatch(p, start);
  // The loads' schedule with the battery is a feasible one without it: the baseline's MIP starts there.
  const loadsStart = optimised.flexible?.deferrable.length ? { flows: [], deferrableOn: Object.fromEntries(optimised.flexible.deferrable.map((d) => [d.id, Array.from(d.on)])) } : undefined;
  const baseline = await solveDispatch(withoutBattery(p), loadsStart).catch((err: unknown) => {
    if (err instanceof DispatchInputError) return undefined;
    throw err;
  });
  return { optimised, baseline };
}

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
import { buildDispatchProgram, column, type BinaryIntervals, type LinearProgram } from './formulation';
import { solveWithHighs, type LpSolution } from './highs-solver';
import { DispatchInputError, checkDispatchProblem, type DispatchProblem } from './problem';

/** Power below this (kW, relative to the battery's power) counts as zero. */
const FLOW_TOLERANCE = 1e-6;
/** More rounds of binaries than this means something else is wrong. */
const MAX_BINARY_ROUNDS = 4;

export interface IntervalFlows {
  charge: number;
  discharge: number;
  import: number;
  export: number;
  /** kWh at the end of the interval. */
  soc: number;
  curtail: number;
}

export interface SolvedDispatch {
  problem: DispatchProblem;
  flows: IntervalFlows[];
  /** The minimised sum: net energy cost plus demand charge. */
  objective: number;
  solver: { kind: 'LP' | 'MIP'; variables: number; constraints: number; binaries: number; solves: number; milliseconds: number };
}

export class DispatchSolveError extends Error {}

export async function solveDispatch(p: DispatchProblem): Promise<SolvedDispatch> {
  const n = p.loadKw.length;
  const tolerance = FLOW_TOLERANCE * Math.max(1, p.battery.powerKw);
  const battery = new Set<number>();
  const grid = new Set(p.exportPrice.flatMap((price, t) => (price > p.importPrice[t] ? [t] : [])));
  let milliseconds = 0;
  for (let round = 1; ; round++) {
    const { lp, layout } = buildDispatchProgram(p, { battery, grid } satisfies BinaryIntervals);
    const solution = await solveWithHighs(lp);
    milliseconds += solution.milliseconds;
    assertSolved(solution);
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
    return {
      problem: p,
      flows,
      objective: solution.objective,
      solver: { kind: layout.batteryBinary.size + layout.gridBinary.size ? 'MIP' : 'LP', ...sizeOf(lp), binaries: layout.batteryBinary.size + layout.gridBinary.size, solves: round, milliseconds },
    };
  }
}

function assertSolved(solution: LpSolution) {
  if (solution.status === 'optimal') return;
  if (solution.status === 'infeasible') {
    throw new DispatchInputError('The dispatch problem is infeasible: the load cannot be served within grid_import_limit and the battery limits for the whole horizon');
  }
  throw new DispatchSolveError(`HiGHS stopped without an optimum (${solution.detail})`);
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
  return { ...p, battery: { ...p.battery, powerKw: 0 }, terminalSoc: 'free' };
}

export interface DispatchOutcome {
  optimised: SolvedDispatch;
  /** Undefined when the site cannot be served without its battery (a grid import limit below the load). */
  baseline?: SolvedDispatch;
}

export async function optimiseDispatch(p: DispatchProblem): Promise<DispatchOutcome> {
  checkDispatchProblem(p);
  const optimised = await solveDispatch(p);
  const baseline = await solveDispatch(withoutBattery(p)).catch((err: unknown) => {
    if (err instanceof DispatchInputError) return undefined;
    throw err;
  });
  return { optimised, baseline };
}

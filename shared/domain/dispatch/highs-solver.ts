/**
 * HiGHS (Huangfu & Hall 2018, compiled to WebAssembly by the npm `highs` package) behind one function.
 *
 * Memory: a WebAssembly memory grows and can never shrink, so an instance that has solved a year-long
 * programme would hold its peak (about 60 MB against the 20 MB it starts with) for the life of the process.
 * The compiled module (code that V8 tiers up as it runs, the same for every instance) is kept for the
 * process; an instance is kept only while its memory has not grown. A solve that grows it (or throws) drops
 * it, and the next solve instantiates the compiled module afresh (a few ms) with a fresh memory, while the
 * collector frees the dropped one. Day-ahead and week-long solves fit the initial memory and share one
 * instance.
 */
import type { Highs } from 'highs';
import { compileHighs, instantiateHighs, type CompiledHighs } from './highs-module.cjs';
import type { LinearProgram } from './formulation';

export type SolveStatus = 'optimal' | 'infeasible' | 'unbounded' | 'time_limit' | 'failed';

export interface LpSolution {
  status: SolveStatus;
  /** HiGHS's own status name, for messages. */
  detail: string;
  objective: number;
  x: Float64Array;
  milliseconds: number;
  /** A MIP's relative gap between its incumbent and its bound (0 at a proven optimum). */
  mipGap?: number;
}

/** Whether a solve left a usable solution: an optimum, or a MIP's feasible incumbent at the time limit. */
export const hasSolution = (s: LpSolution): boolean => s.status === 'optimal' || (s.status === 'time_limit' && s.mipGap !== undefined);

/** An instance with its linear memory when instantiated: a solve that leaves more drops it. */
interface Runtime {
  highs: Highs;
  initialBytes: number;
}

let compiled: Promise<CompiledHighs> | undefined;
let kept: Promise<Runtime> | undefined;
let instantiations = 0;

/** A fresh instance of the process's compiled module (compiled on first use). */
async function freshRuntime(): Promise<Runtime> {
  compiled ??= compileHighs().catch((err: unknown) => {
    compiled = undefined;
    throw err;
  });
  instantiations++;
  const highs = await instantiateHighs(await compiled);
  return { highs, initialBytes: highs.memoryBytes };
}

function keptRuntime(): Promise<Runtime> {
  if (kept) return kept;
  const runtime = freshRuntime();
  runtime.catch(() => drop(runtime));
  return (kept = runtime);
}

/** Forgets an instance so the collector can free its memory (a solve in flight keeps its own reference). */
function drop(runtime: Promise<Runtime>) {
  if (kept === runtime) kept = undefined;
}

/** The HiGHS instance the next solve uses (instantiated on first use; about 0.1 s with the compile). */
export const highs = async (): Promise<Highs> => (await keptRuntime()).highs;

/** Linear memory of the kept instance, 0 when none is kept (the memory bench reports it). */
export const highsMemoryBytes = async (): Promise<number> => (kept ? (await kept).highs.memoryBytes : 0);

/** Instances created by this process (a test checks that small solves share one and large ones do not stay). */
export const highsInstantiations = (): number => instantiations;

/** Known values of some columns, handed to HiGHS as a starting incumbent (a receding horizon's previous plan). */
export interface PartialStart {
  indices: Int32Array;
  values: Float64Array;
}

/**
 * The start with each value inside its column's bounds. A start from an earlier programme (a receding
 * horizon's previous plan) can lie outside this one's, whose forecasts or windows moved since, and HiGHS
 * refuses such a start outright; clamped, it still seeds the search, which repairs the rest.
 */
function withinBounds(start: PartialStart, lp: LinearProgram): PartialStart {
  const kept = Array.from(start.indices.keys()).filter((i) => Number.isFinite(start.values[i]));
  return {
    indices: Int32Array.from(kept, (i) => start.indices[i]),
    values: Float64Array.from(kept, (i) => {
      const j = start.indices[i];
      return Math.min(lp.colUpper[j], Math.max(lp.colLower[j], start.values[i]));
    }),
  };
}

export async function solveWithHighs(lp: LinearProgram, options: { timeLimitSeconds?: number; mipRelativeGap?: number; start?: PartialStart } = {}): Promise<LpSolution> {
  const runtime = keptRuntime();
  const { highs: solver, initialBytes } = await runtime;
  const started = performance.now();
  const { modelStatus } = solver.constants;
  const isMip = lp.integer.some((v) => v === 1);
  try {
    return solver.withModel(
      {
        numCols: lp.colCost.length,
        numRows: lp.rowLower.length,
        sense: solver.constants.objectiveSense.minimize,
        colCost: lp.colCost,
        colLower: lp.colLower.map((v) => (v === -Infinity ? -solver.infinity : v)),
        colUpper: lp.colUpper.map((v) => (v === Infinity ? solver.infinity : v)),
        rowLower: lp.rowLower.map((v) => (v === -Infinity ? -solver.infinity : v)),
        rowUpper: lp.rowUpper.map((v) => (v === Infinity ? solver.infinity : v)),
        matrix: { format: 'csr', numRows: lp.rowLower.length, numCols: lp.colCost.length, starts: lp.rowStarts, indices: lp.colIndex, values: lp.values },
        ...(isMip ? { integrality: Int32Array.from(lp.integer) } : {}),
      },
      (model) => {
        model.options.set({ output_flag: false, time_limit: options.timeLimitSeconds ?? 20, ...(isMip ? { mip_rel_gap: options.mipRelativeGap ?? 1e-9 } : {}) });
        // Only a MIP uses a primal start (as its first incumbent, once HiGHS has checked it is feasible).
        if (isMip && options.start?.indices.length) model.setSolution(withinBounds(options.start, lp));
        model.run();
        const code = model.getModelStatus();
        const status: SolveStatus =
          code === modelStatus.optimal ? 'optimal'
          : code === modelStatus.infeasible ? 'infeasible'
          : code === modelStatus.unbounded || code === modelStatus.unboundedOrInfeasible ? 'unbounded'
          : code === modelStatus.timeLimit ? 'time_limit'
          : 'failed';
        const detail = Object.entries(modelStatus).find(([, v]) => v === code)?.[0] ?? String(code);
        // HiGHS's primal_solution_status 2: a feasible point exists (a MIP stopped by its time limit keeps its incumbent).
        const solved = status === 'optimal' || (isMip && status === 'time_limit' && Number(model.info.get('primal_solution_status')) === 2);
        return {
          status,
          detail,
          objective: solved ? model.getObjectiveValue() : NaN,
          x: solved ? model.getSolution().colValue : new Float64Array(lp.colCost.length),
          milliseconds: performance.now() - started,
          ...(isMip && solved ? { mipGap: Math.max(0, Number(model.info.get('mip_gap'))) } : {}),
        };
      },
    );
  } catch (err) {
    // An abort can leave the WebAssembly memory unusable; the next solve loads a fresh instance.
    drop(runtime);
    throw err;
  } finally {
    if (solver.memoryBytes > initialBytes) drop(runtime);
  }
}

/**
 * HiGHS (Huangfu & Hall 2018, compiled to WebAssembly by the npm `highs` package) behind one function.
 * The module is instantiated once per process; a solve that throws drops it, so the next solve starts
 * from a fresh one.
 */
import type { Highs } from 'highs';
import loadHighs from './highs-module.cjs';
import type { LinearProgram } from './formulation';

export type SolveStatus = 'optimal' | 'infeasible' | 'unbounded' | 'time_limit' | 'failed';

export interface LpSolution {
  status: SolveStatus;
  /** HiGHS's own status name, for messages. */
  detail: string;
  objective: number;
  x: Float64Array;
  milliseconds: number;
}

let instance: Promise<Highs> | undefined;

/** The process's HiGHS instance (loaded on first use; about 0.1 s). */
export const highs = (): Promise<Highs> => (instance ??= loadHighs());

export async function solveWithHighs(lp: LinearProgram, options: { timeLimitSeconds?: number; mipRelativeGap?: number } = {}): Promise<LpSolution> {
  const solver = await highs();
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
        model.run();
        const code = model.getModelStatus();
        const status: SolveStatus =
          code === modelStatus.optimal ? 'optimal'
          : code === modelStatus.infeasible ? 'infeasible'
          : code === modelStatus.unbounded || code === modelStatus.unboundedOrInfeasible ? 'unbounded'
          : code === modelStatus.timeLimit ? 'time_limit'
          : 'failed';
        const detail = Object.entries(modelStatus).find(([, v]) => v === code)?.[0] ?? String(code);
        return {
          status,
          detail,
          objective: status === 'optimal' ? model.getObjectiveValue() : NaN,
          x: status === 'optimal' ? model.getSolution().colValue : new Float64Array(lp.colCost.length),
          milliseconds: performance.now() - started,
        };
      },
    );
  } catch (err) {
    // An abort can leave the WebAssembly memory unusable; the next solve loads a fresh instance.
    instance = undefined;
    throw err;
  }
}

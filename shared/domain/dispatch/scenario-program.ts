/**
 * Two-stage stochastic dispatch: one programme per solar scenario side by side, each weighing 1 / S of the
 * objective, with the first interval's grid power the same in all of them. That first interval is the only
 * decision a receding horizon carries out; every scenario plans the rest as if it will happen, so the plan
 * weighs a sunnier and a duller day together instead of planning on their average. Planning on the average
 * understates the solar surplus a battery can store (the surplus is max(0, solar - load), and the mean of a
 * maximum exceeds the maximum of the mean): the MPC bench's deterministic plan held energy for the evening and
 * met a larger surplus full (bench/results/mpc.md).
 */
import type { LinearProgram } from './formulation';

export interface Stacked<Layout> {
  lp: LinearProgram;
  layout: Layout;
}

/**
 * The scenarios' programmes as one, the first one's columns first (so its layout still reads the solution) and
 * `shared(columns)` equal across them: a row per later scenario, sum of coefficient x column there minus the
 * same in the first = 0.
 */
export function stackScenarios<Layout>(programs: readonly Stacked<Layout>[], shared: readonly { column: number; coefficient: number }[]): Stacked<Layout> {
  const weight = 1 / programs.length;
  const numCols = programs.reduce((a, p) => a + p.lp.colCost.length, 0);
  const numRows = programs.reduce((a, p) => a + p.lp.rowLower.length, 0) + (programs.length - 1);
  const nonzeros = programs.reduce((a, p) => a + p.lp.values.length, 0) + (programs.length - 1) * 2 * shared.length;
  const colCost = new Float64Array(numCols);
  const colLower = new Float64Array(numCols);
  const colUpper = new Float64Array(numCols);
  const integer = new Uint8Array(numCols);
  const rowLower = new Float64Array(numRows);
  const rowUpper = new Float64Array(numRows);
  const rowStarts = new Int32Array(numRows + 1);
  const colIndex = new Int32Array(nonzeros);
  const values = new Float64Array(nonzeros);
  const offsets: number[] = [];
  let col = 0;
  let row = 0;
  let nz = 0;
  for (const { lp } of programs) {
    offsets.push(col);
    for (let j = 0; j < lp.colCost.length; j++) colCost[col + j] = weight * lp.colCost[j];
    colLower.set(lp.colLower, col);
    colUpper.set(lp.colUpper, col);
    integer.set(lp.integer, col);
    rowLower.set(lp.rowLower, row);
    rowUpper.set(lp.rowUpper, row);
    for (let r = 0; r < lp.rowLower.length; r++) rowStarts[row + r + 1] = nz + lp.rowStarts[r + 1];
    for (let q = 0; q < lp.values.length; q++) colIndex[nz + q] = col + lp.colIndex[q];
    values.set(lp.values, nz);
    col += lp.colCost.length;
    row += lp.rowLower.length;
    nz += lp.values.length;
  }
  for (let s = 1; s < programs.length; s++) {
    for (const { column, coefficient } of shared) {
      colIndex[nz] = offsets[s] + column;
      values[nz++] = coefficient;
      colIndex[nz] = column;
      values[nz++] = -coefficient;
    }
    rowStarts[++row] = nz;
  }
  // Names on demand, as the single programme's: a later scenario's prefixed `s<k>_`.
  const prefixed = (list: (lp: LinearProgram) => string[]) => programs.flatMap(({ lp }, s) => list(lp).map((name) => (s === 0 ? name : `s${s}_${name}`)));
  let colNames: string[] | undefined;
  let rowNames: string[] | undefined;
  return {
    lp: {
      get colNames() {
        return (colNames ??= prefixed((lp) => lp.colNames));
      },
      colCost,
      colLower,
      colUpper,
      integer,
      get rowNames() {
        return (rowNames ??= [...prefixed((lp) => lp.rowNames), ...programs.slice(1).map((_, s) => `shared_first_interval_s${s + 1}`)]);
      },
      rowLower,
      rowUpper,
      rowStarts,
      colIndex,
      values,
    },
    layout: programs[0].layout,
  };
}

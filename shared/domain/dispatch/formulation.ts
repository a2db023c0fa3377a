/**
 * The dispatch linear programme (ARCHITECTURE 7), built as sparse rows so any LP solver can take it:
 * HiGHS serves requests, the bench hands the same rows to a second solver.
 *
 * Per interval t (length dt hours), in kW: charge c, discharge d, import g, export e, curtailed solar u;
 * state of charge s (kWh, end of the interval). Minimise
 *     sum_t dt * (importPrice_t * g_t - exportPrice_t * e_t)  +  demandCharge * peak
 * subject to
 *     balance:  d - c + g - e - u = load - solar
 *     SOC:      s_t - s_{t-1} - eta * dt * c + dt / eta * d = 0      (eta = sqrt(round trip); s_{-1} = initial)
 *     bounds:   0 <= c, d <= P;  minSoc*C <= s <= maxSoc*C;  s_last >= terminal floor;  0 <= u <= solar
 *               0 <= e <= min(exportLimit, solar + P);  0 <= g <= min(importLimit, load + P)
 *     peak:     g_t - peak <= 0                      (only with a demand charge)
 *     cost:     e_t + u_t <= solar_t                 (objective `cost`: only solar may be exported)
 *     no simultaneous charge and discharge, where asked (binary z_t): c_t <= P z_t, d_t <= P (1 - z_t)
 *     no simultaneous import and export, where asked (binary y_t): g_t <= G y_t, e_t <= E (1 - y_t)
 * The caps on g and e hold at every optimum without simultaneous flows, so they only keep the LP bounded
 * when export is paid more than import costs. Maximising revenue and minimising cost are the same sum;
 * `revenue` reports its negative.
 */
import { hoursPerInterval, oneWayEfficiency, terminalFloorKwh, type DispatchProblem } from './problem';

/** A minimisation in the form every LP solver accepts: rowLower <= A x <= rowUpper, colLower <= x <= colUpper. */
export interface LinearProgram {
  colNames: string[];
  colCost: Float64Array;
  colLower: Float64Array;
  colUpper: Float64Array;
  /** Integer columns (binaries have bounds [0, 1]). */
  integer: Uint8Array;
  rowNames: string[];
  rowLower: Float64Array;
  rowUpper: Float64Array;
  /** Compressed sparse rows. */
  rowStarts: Int32Array;
  colIndex: Int32Array;
  values: Float64Array;
}

/** Columns of interval t: VARS_PER_INTERVAL * t + offset. */
export const VAR = { charge: 0, discharge: 1, import: 2, export: 3, soc: 4, curtail: 5 } as const;
export const VARS_PER_INTERVAL = 6;

export interface BinaryIntervals {
  /** Intervals where charge and discharge may not both be positive. */
  battery: ReadonlySet<number>;
  /** Intervals where import and export may not both be positive. */
  grid: ReadonlySet<number>;
}

export const NO_BINARIES: BinaryIntervals = { battery: new Set(), grid: new Set() };

export interface Layout {
  intervals: number;
  /** Column of the peak-import variable, or -1. */
  peak: number;
  batteryBinary: Map<number, number>;
  gridBinary: Map<number, number>;
}

export const column = (t: number, v: keyof typeof VAR): number => VARS_PER_INTERVAL * t + VAR[v];

class RowBuilder {
  names: string[] = [];
  lower: number[] = [];
  upper: number[] = [];
  starts: number[] = [0];
  cols: number[] = [];
  vals: number[] = [];
  add(name: string, lower: number, upper: number, terms: [number, number][]) {
    this.names.push(name);
    this.lower.push(lower);
    this.upper.push(upper);
    for (const [col, val] of terms) {
      this.cols.push(col);
      this.vals.push(val);
    }
    this.starts.push(this.cols.length);
  }
}

export function buildDispatchProgram(p: DispatchProblem, binaries: BinaryIntervals = NO_BINARIES): { lp: LinearProgram; layout: Layout } {
  const n = p.loadKw.length;
  const dt = hoursPerInterval(p);
  const eta = oneWayEfficiency(p.battery);
  const { capacityKwh: cap, powerKw: power } = p.battery;
  const hasPeak = p.demandChargePerKw > 0;
  const batteryBinary = new Map([...binaries.battery].sort((a, b) => a - b).map((t, i) => [t, n * VARS_PER_INTERVAL + (hasPeak ? 1 : 0) + i]));
  const gridBinary = new Map([...binaries.grid].sort((a, b) => a - b).map((t, i) => [t, n * VARS_PER_INTERVAL + (hasPeak ? 1 : 0) + batteryBinary.size + i]));
  const numCols = n * VARS_PER_INTERVAL + (hasPeak ? 1 : 0) + batteryBinary.size + gridBinary.size;
  const peak = hasPeak ? n * VARS_PER_INTERVAL : -1;

  const colNames: string[] = new Array(numCols);
  const colCost = new Float64Array(numCols);
  const colLower = new Float64Array(numCols);
  const colUpper = new Float64Array(numCols);
  const integer = new Uint8Array(numCols);
  const importCap = (t: number) => Math.min(p.importLimitKw, p.loadKw[t] + power);
  const exportCap = (t: number) => Math.min(p.exportLimitKw, p.solarKw[t] + power);
  const floor = terminalFloorKwh(p);

  for (let t = 0; t < n; t++) {
    const set = (v: keyof typeof VAR, lower: number, upper: number, cost: number) => {
      const j = column(t, v);
      colNames[j] = `${v}_${t}`;
      colLower[j] = lower;
      colUpper[j] = upper;
      colCost[j] = cost;
    };
    set('charge', 0, power, 0);
    set('discharge', 0, power, 0);
    set('import', 0, importCap(t), dt * p.importPrice[t]);
    set('export', 0, exportCap(t), -dt * p.exportPrice[t]);
    set('soc', p.battery.minSoc * cap, p.battery.maxSoc * cap, 0);
    set('curtail', 0, p.solarKw[t], 0);
  }
  colLower[column(n - 1, 'soc')] = floor;
  if (hasPeak) {
    colNames[peak] = 'peak_import';
    colUpper[peak] = Infinity;
    colCost[peak] = p.demandChargePerKw;
  }
  const binary = (j: number, name: string) => {
    colNames[j] = name;
    colUpper[j] = 1;
    integer[j] = 1;
  };
  for (const [t, j] of batteryBinary) binary(j, `charging_${t}`);
  for (const [t, j] of gridBinary) binary(j, `importing_${t}`);

  const rows = new RowBuilder();
  for (let t = 0; t < n; t++) {
    const c = column(t, 'charge');
    const d = column(t, 'discharge');
    const g = column(t, 'import');
    const e = column(t, 'export');
    const s = column(t, 'soc');
    const u = column(t, 'curtail');
    const net = p.loadKw[t] - p.solarKw[t];
    rows.add(`balance_${t}`, net, net, [[c, -1], [d, 1], [g, 1], [e, -1], [u, -1]]);
    const socTerms: [number, number][] = [[c, -eta * dt], [d, dt / eta], [s, 1]];
    if (t === 0) {
      const initial = p.battery.initialSoc * cap;
      rows.add(`soc_${t}`, initial, initial, socTerms);
    } else {
      rows.add(`soc_${t}`, 0, 0, [[column(t - 1, 'soc'), -1], ...socTerms]);
    }
    if (hasPeak) rows.add(`peak_${t}`, -Infinity, 0, [[g, 1], [peak, -1]]);
    if (p.objective === 'cost') rows.add(`solar_export_${t}`, -Infinity, p.solarKw[t], [[e, 1], [u, 1]]);
    const z = batteryBinary.get(t);
    if (z !== undefined) {
      rows.add(`charge_mode_${t}`, -Infinity, 0, [[c, 1], [z, -power]]);
      rows.add(`discharge_mode_${t}`, -Infinity, power, [[d, 1], [z, power]]);
    }
    const y = gridBinary.get(t);
    if (y !== undefined) {
      rows.add(`import_mode_${t}`, -Infinity, 0, [[g, 1], [y, -importCap(t)]]);
      rows.add(`export_mode_${t}`, -Infinity, exportCap(t), [[e, 1], [y, exportCap(t)]]);
    }
  }

  return {
    lp: {
      colNames,
      colCost,
      colLower,
      colUpper,
      integer,
      rowNames: rows.names,
      rowLower: Float64Array.from(rows.lower),
      rowUpper: Float64Array.from(rows.upper),
      rowStarts: Int32Array.from(rows.starts),
      colIndex: Int32Array.from(rows.cols),
      values: Float64Array.from(rows.vals),
    },
    layout: { intervals: n, peak, batteryBinary, gridBinary },
  };
}

export const isMixedInteger = (lp: LinearProgram): boolean => lp.integer.some((v) => v === 1);

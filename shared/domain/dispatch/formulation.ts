/**
 * The dispatch linear programme (ARCHITECTURE 7), built as sparse rows so any LP solver can take it:
 * HiGHS serves requests, the bench hands the same rows to a second solver.
 *
 * Per interval t (length dt hours), in kW: charge c, discharge d, import g, export e, curtailed solar u;
 * state of charge s (kWh, end of the interval). Minimise
 *     sum_t dt * (importPrice_t * g_t - exportPrice_t * e_t)  +  sum_k demandCharge_k * peak_k
 * subject to
 *     balance:  d - c + g - e - u = load - solar
 *     SOC:      s_t - s_{t-1} - eta * dt * c + dt / eta * d = 0      (eta = sqrt(round trip); s_{-1} = initial)
 *     bounds:   0 <= c, d <= P;  minSoc*C <= s <= maxSoc*C;  s_last >= terminal floor;  0 <= u <= solar
 *               0 <= e <= min(exportLimit, solar + P);  0 <= g <= min(importLimit, load + P)
 *     peak:     g_t - peak_k <= 0 for t in billing period k   (only with a demand charge)
 *     cost:     e_t + u_t <= solar_t                 (objective `cost`: only solar may be exported)
 *     no simultaneous charge and discharge, where asked (binary z_t): c_t <= P z_t, d_t <= P (1 - z_t)
 *     no simultaneous import and export, where asked (binary y_t): g_t <= G y_t, e_t <= E (1 - y_t)
 * The caps on g and e hold at every optimum without simultaneous flows, so they only keep the LP bounded
 * when export is paid more than import costs. Maximising revenue and minimising cost are the same sum;
 * `revenue` reports its negative.
 */
import { demandPeriodsOf, hoursPerInterval, oneWayEfficiency, terminalFloorKwh, type DispatchProblem } from './problem';

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

export interface LpLayout {
  intervals: number;
  /** Column of each charged billing period's peak-import variable, with the period's intervals [start, end). */
  peaks: { column: number; start: number; end: number; chargePerKw: number }[];
  batteryBinary: Map<number, number>;
  gridBinary: Map<number, number>;
}

export const column = (t: number, v: keyof typeof VAR): number => VARS_PER_INTERVAL * t + VAR[v];

/** Row kinds, named `${kind}_${t}`. */
const ROW_KINDS = ['balance', 'soc', 'peak', 'solar_export', 'charge_mode', 'discharge_mode', 'import_mode', 'export_mode'] as const;
type RowKind = (typeof ROW_KINDS)[number];
const ROW_KIND_CODE = Object.fromEntries(ROW_KINDS.map((k, i) => [k, i])) as Record<RowKind, number>;
/** At most this many rows, and nonzeros, per interval (balance 5, soc 4, peak 2, solar export 2, two binary pairs 4 each). */
const MAX_ROWS_PER_INTERVAL = 8;
const MAX_NONZEROS_PER_INTERVAL = 21;

/**
 * Compressed sparse rows written straight into typed arrays sized for the worst case: a year has 35,000 rows
 * and 140,000 nonzeros, and a tuple and a name per row made the build's garbage (and its collections) cost
 * about as much as HiGHS's solve.
 */
class RowBuilder {
  rows = 0;
  nonzeros = 0;
  readonly lower: Float64Array;
  readonly upper: Float64Array;
  readonly starts: Int32Array;
  readonly cols: Int32Array;
  readonly vals: Float64Array;
  /** Kind and interval of each row, for names read on demand. */
  readonly kinds: Uint8Array;
  readonly intervals: Int32Array;
  constructor(maxRows: number, maxNonzeros: number) {
    this.lower = new Float64Array(maxRows);
    this.upper = new Float64Array(maxRows);
    this.starts = new Int32Array(maxRows + 1);
    this.cols = new Int32Array(maxNonzeros);
    this.vals = new Float64Array(maxNonzeros);
    this.kinds = new Uint8Array(maxRows);
    this.intervals = new Int32Array(maxRows);
  }
  /** Opens a row; its terms follow with `term`. */
  row(kind: RowKind, t: number, lower: number, upper: number): this {
    const i = this.rows++;
    this.kinds[i] = ROW_KIND_CODE[kind];
    this.intervals[i] = t;
    this.lower[i] = lower;
    this.upper[i] = upper;
    this.starts[this.rows] = this.nonzeros;
    return this;
  }
  term(col: number, val: number): this {
    this.cols[this.nonzeros] = col;
    this.vals[this.nonzeros] = val;
    this.starts[this.rows] = ++this.nonzeros;
    return this;
  }
}

/** Names built on first read: HiGHS takes none, the bench's second solver and LP text do. */
function lazyNames(build: () => string[]): () => string[] {
  let names: string[] | undefined;
  return () => (names ??= build());
}

export function buildDispatchProgram(p: DispatchProblem, binaries: BinaryIntervals = NO_BINARIES): { lp: LinearProgram; layout: LpLayout } {
  const n = p.loadKw.length;
  const dt = hoursPerInterval(p);
  const eta = oneWayEfficiency(p.battery);
  const { capacityKwh: cap, powerKw: power } = p.battery;
  // One peak variable per billing period with a charge; a period without one leaves its peak free.
  const peaks = demandPeriodsOf(p)
    .filter((period) => period.chargePerKw > 0)
    .map((period, k) => ({ column: n * VARS_PER_INTERVAL + k, start: period.start, end: period.end, chargePerKw: period.chargePerKw }));
  const peakOf = new Int32Array(n).fill(-1);
  for (const peak of peaks) peakOf.fill(peak.column, peak.start, peak.end);
  const batteryBinary = new Map([...binaries.battery].sort((a, b) => a - b).map((t, i) => [t, n * VARS_PER_INTERVAL + peaks.length + i]));
  const gridBinary = new Map([...binaries.grid].sort((a, b) => a - b).map((t, i) => [t, n * VARS_PER_INTERVAL + peaks.length + batteryBinary.size + i]));
  const numCols = n * VARS_PER_INTERVAL + peaks.length + batteryBinary.size + gridBinary.size;

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
  for (const peak of peaks) {
    colUpper[peak.column] = Infinity;
    colCost[peak.column] = peak.chargePerKw;
  }
  for (const j of [...batteryBinary.values(), ...gridBinary.values()]) {
    colUpper[j] = 1;
    integer[j] = 1;
  }
  const colNames = lazyNames(() => {
    const names = new Array<string>(numCols);
    const vars = Object.keys(VAR) as (keyof typeof VAR)[];
    for (let t = 0; t < n; t++) for (const v of vars) names[column(t, v)] = `${v}_${t}`;
    peaks.forEach((peak, k) => (names[peak.column] = peaks.length === 1 ? 'peak_import' : `peak_import_${k}`));
    for (const [t, j] of batteryBinary) names[j] = `charging_${t}`;
    for (const [t, j] of gridBinary) names[j] = `importing_${t}`;
    return names;
  });

  const rows = new RowBuilder(n * MAX_ROWS_PER_INTERVAL, n * MAX_NONZEROS_PER_INTERVAL);
  for (let t = 0; t < n; t++) {
    const c = column(t, 'charge');
    const d = column(t, 'discharge');
    const g = column(t, 'import');
    const e = column(t, 'export');
    const s = column(t, 'soc');
    const u = column(t, 'curtail');
    const net = p.loadKw[t] - p.solarKw[t];
    rows.row('balance', t, net, net).term(c, -1).term(d, 1).term(g, 1).term(e, -1).term(u, -1);
    if (t === 0) {
      const initial = p.battery.initialSoc * cap;
      rows.row('soc', t, initial, initial);
    } else {
      rows.row('soc', t, 0, 0).term(column(t - 1, 'soc'), -1);
    }
    rows.term(c, -eta * dt).term(d, dt / eta).term(s, 1);
    if (peakOf[t] >= 0) rows.row('peak', t, -Infinity, 0).term(g, 1).term(peakOf[t], -1);
    if (p.objective === 'cost') rows.row('solar_export', t, -Infinity, p.solarKw[t]).term(e, 1).term(u, 1);
    const z = batteryBinary.get(t);
    if (z !== undefined) {
      rows.row('charge_mode', t, -Infinity, 0).term(c, 1).term(z, -power);
      rows.row('discharge_mode', t, -Infinity, power).term(d, 1).term(z, power);
    }
    const y = gridBinary.get(t);
    if (y !== undefined) {
      rows.row('import_mode', t, -Infinity, 0).term(g, 1).term(y, -importCap(t));
      rows.row('export_mode', t, -Infinity, exportCap(t)).term(e, 1).term(y, exportCap(t));
    }
  }

  const kinds = rows.kinds.slice(0, rows.rows);
  const intervals = rows.intervals.slice(0, rows.rows);
  const rowNames = lazyNames(() => Array.from(kinds, (kind, i) => `${ROW_KINDS[kind]}_${intervals[i]}`));
  return {
    lp: {
      get colNames() {
        return colNames();
      },
      colCost,
      colLower,
      colUpper,
      integer,
      get rowNames() {
        return rowNames();
      },
      rowLower: rows.lower.slice(0, rows.rows),
      rowUpper: rows.upper.slice(0, rows.rows),
      rowStarts: rows.starts.slice(0, rows.rows + 1),
      colIndex: rows.cols.slice(0, rows.nonzeros),
      values: rows.vals.slice(0, rows.nonzeros),
    },
    layout: { intervals: n, peaks, batteryBinary, gridBinary },
  };
}

export const isMixedInteger = (lp: LinearProgram): boolean => lp.integer.some((v) => v === 1);

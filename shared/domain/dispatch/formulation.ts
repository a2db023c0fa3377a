/**
 * The dispatch linear programme (ARCHITECTURE 7), built as sparse rows so any LP solver can take it:
 * HiGHS serves requests, the bench hands the same rows to a second solver.
 *
 * Per interval t (length dt hours), in kW: charge c, discharge d, import g, export e, curtailed solar u;
 * state of charge s (kWh, end of the interval). Minimise
 *     sum_t dt * (importPrice_t * g_t - exportPrice_t * e_t + degradation * d_t)  +  sum_k demandCharge_k * peak_k
 *     - terminalValue * s_last  +  comfort penalties
 * subject to
 *     balance:  d - c + g - e - u - (flexible loads' kW) = load - solar
 *     SOC:      s_t - s_{t-1} - eta * dt * c + dt / eta * d = 0      (eta = sqrt(round trip); s_{-1} = initial)
 *     bounds:   0 <= c, d <= P;  minSoc*C <= s <= maxSoc*C;  s_last >= terminal floor;  0 <= u <= solar
 *               0 <= e <= min(exportLimit, solar + P);  0 <= g <= min(importLimit, load + flexible max + P)
 *     peak:     g_t - peak_k <= 0 for t in billing period k, and in each TOU demand window (with a demand charge)
 *     cost:     e_t + u_t <= solar_t                 (objective `cost`: only solar may be exported)
 *     no simultaneous charge and discharge, where asked (binary z_t): c_t <= P z_t, d_t <= P (1 - z_t)
 *     no simultaneous import and export, where asked (binary y_t): g_t <= G y_t, e_t <= E (1 - y_t)
 *     SOC targets: s_t >=, = or <= target * C at the intervals given
 * Flexible loads (ARCHITECTURE 9), each with its own columns:
 *     EV: 0 <= p_t <= charger * share_t;  sum dt p_t = energy (less what could still charge after the horizon)
 *     deferrable: on_t binary, minPower * share_t * on_t <= p_t <= power * share_t * on_t;  sum dt p_t >= energy
 *                 (below energy + one interval at fixed power);  start_t >= on_t - on_{t-1};  sum start <= 1
 *                 (single block);  sum_{tau = t .. t+m-1} on_tau >= m start_t (minimum run of m intervals)
 *     thermal: T_t = a T_{t-1} + (1 - a) (Tout_t + COP_t p_t / UA), a = exp(-UA dt / C) (exact for inputs held
 *              over each interval);  tMin - v_t <= T_t <= tMax + w_t, v, w >= 0 penalised far above any price,
 *              so the band holds wherever the heat pump can hold it
 * Sizing: C and P become columns with their annualised cost; the bounds above that use them become rows.
 * The caps on g and e hold at every optimum without simultaneous flows, so they only keep the LP bounded
 * when export is paid more than import costs. Maximising revenue and minimising cost are the same sum;
 * `revenue` reports its negative.
 */
import { demandPeriodsOf, hoursPerInterval, oneWayEfficiency, terminalFloorKwh, type DispatchProblem, type ThermalLoad } from './problem';
import { stackScenarios } from './scenario-program';

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
  /** Column of each TOU demand charge's peak. */
  windowPeaks: { column: number; label: string; chargePerKw: number; intervals: readonly number[] }[];
  batteryBinary: Map<number, number>;
  gridBinary: Map<number, number>;
  /** Flexible loads' power columns by interval (-1 outside their window). */
  ev?: Int32Array;
  deferrable: { id: string; power: Int32Array; on: Int32Array; starts: Int32Array }[];
  thermal: { id: string; power: Int32Array; temperature: Int32Array; below: Int32Array; above: Int32Array }[];
  /** Sizing's capacity and power columns. */
  sizing?: { energy: number; power: number };
  /** Binary columns of the flexible loads (on/off and starts). */
  flexibleBinaries: number;
}

export const column = (t: number, v: keyof typeof VAR): number => VARS_PER_INTERVAL * t + VAR[v];

/** Row kinds, named `${kind}_${index}` (the interval, or the load for a load's single rows). */
const ROW_KINDS = [
  'balance', 'soc', 'peak', 'solar_export', 'charge_mode', 'discharge_mode', 'import_mode', 'export_mode', 'window_peak', 'soc_target', 'terminal_soc',
  'sizing_soc_max', 'sizing_soc_min', 'sizing_charge', 'sizing_discharge',
  'ev_energy', 'deferrable_energy', 'deferrable_max', 'deferrable_min', 'deferrable_start', 'deferrable_blocks', 'deferrable_min_run', 'thermal', 'comfort_low', 'comfort_high',
] as const;
type RowKind = (typeof ROW_KINDS)[number];
const ROW_KIND_CODE = Object.fromEntries(ROW_KINDS.map((k, i) => [k, i])) as Record<RowKind, number>;

/** A typed array twice as long, holding what the old one held. */
function grown<T extends Float64Array | Int32Array | Uint8Array>(a: T, length: number): T {
  const b = new (a.constructor as new (n: number) => T)(Math.max(length, 2 * a.length));
  b.set(a);
  return b;
}

/**
 * Compressed sparse rows written straight into typed arrays (grown by doubling): a year has 35,000 rows and
 * 140,000 nonzeros, and a tuple and a name per row made the build's garbage (and its collections) cost
 * about as much as HiGHS's solve.
 */
class RowBuilder {
  rows = 0;
  nonzeros = 0;
  lower: Float64Array;
  upper: Float64Array;
  starts: Int32Array;
  cols: Int32Array;
  vals: Float64Array;
  /** Kind and index of each row, for names read on demand. */
  kinds: Uint8Array;
  indices: Int32Array;
  constructor(rows: number, nonzeros: number) {
    this.lower = new Float64Array(rows);
    this.upper = new Float64Array(rows);
    this.starts = new Int32Array(rows + 1);
    this.cols = new Int32Array(nonzeros);
    this.vals = new Float64Array(nonzeros);
    this.kinds = new Uint8Array(rows);
    this.indices = new Int32Array(rows);
  }
  /** Opens a row; its terms follow with `term`. */
  row(kind: RowKind, index: number, lower: number, upper: number): this {
    if (this.rows + 1 >= this.lower.length) {
      const n = this.rows + 2;
      this.lower = grown(this.lower, n);
      this.upper = grown(this.upper, n);
      this.starts = grown(this.starts, n + 1);
      this.kinds = grown(this.kinds, n);
      this.indices = grown(this.indices, n);
    }
    const i = this.rows++;
    this.kinds[i] = ROW_KIND_CODE[kind];
    this.indices[i] = index;
    this.lower[i] = lower;
    this.upper[i] = upper;
    this.starts[this.rows] = this.nonzeros;
    return this;
  }
  term(col: number, val: number): this {
    if (this.nonzeros >= this.cols.length) {
      this.cols = grown(this.cols, this.nonzeros + 1);
      this.vals = grown(this.vals, this.nonzeros + 1);
    }
    this.cols[this.nonzeros] = col;
    this.vals[this.nonzeros] = val;
    this.starts[this.rows] = ++this.nonzeros;
    return this;
  }
}

/** Columns after the battery's per-interval block, appended as the programme needs them. */
class ColumnBuilder {
  count: number;
  cost: Float64Array;
  lower: Float64Array;
  upper: Float64Array;
  integer: Uint8Array;
  /** Names of appended columns, built on demand. */
  readonly named: { first: number; count: number; name: (i: number) => string }[] = [];
  constructor(base: number, room: number) {
    this.count = base;
    this.cost = new Float64Array(base + room);
    this.lower = new Float64Array(base + room);
    this.upper = new Float64Array(base + room);
    this.integer = new Uint8Array(base + room);
  }
  set(j: number, lower: number, upper: number, cost = 0, integer = false) {
    this.lower[j] = lower;
    this.upper[j] = upper;
    this.cost[j] = cost;
    this.integer[j] = integer ? 1 : 0;
  }
  /** Appends `count` columns named by `name(i)`; returns the first. */
  add(count: number, name: (i: number) => string): number {
    const first = this.count;
    if (first + count > this.cost.length) {
      const n = first + count;
      this.cost = grown(this.cost, n);
      this.lower = grown(this.lower, n);
      this.upper = grown(this.upper, n);
      this.integer = grown(this.integer, n);
    }
    this.count += count;
    this.named.push({ first, count, name });
    return first;
  }
}

/** Names built on first read: HiGHS takes none, the bench's second solver and LP text do. */
function lazyNames(build: () => string[]): () => string[] {
  let names: string[] | undefined;
  return () => (names ??= build());
}

/** Columns of `count` entries, -1 where absent. */
const noColumns = (n: number) => new Int32Array(n).fill(-1);

/**
 * Cost of one kelvin outside a comfort band for one interval: ten times what heating it back could cost at
 * the dearest price and demand charges, so the band yields only where the heat pump cannot hold it.
 */
function comfortPenalty(p: DispatchProblem, load: ThermalLoad): number {
  const dt = hoursPerInterval(p);
  const price = Math.max(...p.importPrice.map(Math.abs), 0);
  const demand = demandPeriodsOf(p).reduce((a, x) => a + x.chargePerKw, 0) + (p.windowDemandCharges ?? []).reduce((a, x) => a + x.chargePerKw, 0);
  return 10 * (load.capacityKwhPerK / Math.min(...load.cop)) * (price + demand / dt) + 1;
}

/**
 * The dispatch programme; with solar scenarios, one per scenario stacked (scenario-program.ts), the forecast's
 * own first, sharing the first interval's grid power (import - export). The first interval is one decision on
 * one outlook, the forecast's: the scenarios part from the second on (a first interval where they differ would
 * make the shared grid power force a different battery power in each, up to flows the LP can only meet by
 * charging and discharging at once).
 */
export function buildDispatchProgram(p: DispatchProblem, binaries: BinaryIntervals = NO_BINARIES): { lp: LinearProgram; layout: LpLayout } {
  if (!p.solarScenarios?.length) return buildOneProgram(p, binaries);
  const one: DispatchProblem = { ...p, solarScenarios: undefined };
  const programs = [one, ...p.solarScenarios.map((s) => ({ ...one, solarKw: [p.solarKw[0], ...s.slice(1)] }))].map((q) => buildOneProgram(q, binaries));
  const stacked = stackScenarios(programs, [
    { column: column(0, 'import'), coefficient: 1 },
    { column: column(0, 'export'), coefficient: -1 },
  ]);
  return { lp: stacked.lp, layout: { ...stacked.layout, flexibleBinaries: programs.reduce((a, q) => a + q.layout.flexibleBinaries, 0) } };
}

function buildOneProgram(p: DispatchProblem, binaries: BinaryIntervals): { lp: LinearProgram; layout: LpLayout } {
  const n = p.loadKw.length;
  const dt = hoursPerInterval(p);
  const eta = oneWayEfficiency(p.battery);
  const sizing = p.sizing;
  const cap = sizing ? sizing.maxEnergyKwh : p.battery.capacityKwh;
  const power = sizing ? sizing.maxPowerKw : p.battery.powerKw;
  const flex = p.flexibleLoads ?? {};
  const cols = new ColumnBuilder(n * VARS_PER_INTERVAL, n);
  const flexibleMax = new Float64Array(n);
  /** The flexible loads' columns drawing power in each interval, in the balance row. */
  const drawn: number[][] = Array.from({ length: n }, () => []);

  const sized = sizing && {
    energy: cols.add(1, () => 'energy_capacity'),
    power: cols.add(1, () => 'power_capacity'),
  };
  if (sized) {
    cols.set(sized.energy, 0, sizing.maxEnergyKwh, sizing.costPerKwh);
    cols.set(sized.power, 0, sizing.maxPowerKw, sizing.costPerKw);
  }

  // One peak variable per billing period with a charge; a period without one leaves its peak free.
  const periods = demandPeriodsOf(p).filter((period) => period.chargePerKw > 0);
  const peaks = periods.map((period, k) => ({ column: cols.add(1, () => (periods.length === 1 ? 'peak_import' : `peak_import_${k}`)), start: period.start, end: period.end, chargePerKw: period.chargePerKw }));
  const windowPeaks = (p.windowDemandCharges ?? []).map((w, k) => ({ column: cols.add(1, () => `window_peak_${k}`), label: w.label, chargePerKw: w.chargePerKw, intervals: w.intervals }));
  for (const peak of [...peaks, ...windowPeaks]) cols.set(peak.column, 0, Infinity, peak.chargePerKw);
  const peakOf = new Int32Array(n).fill(-1);
  for (const peak of peaks) peakOf.fill(peak.column, peak.start, peak.end);

  // Flexible loads: a power column per interval of availability, drawn in the balance row.
  const windowColumns = (share: readonly number[], name: string, upper: (t: number) => number, integer = false): Int32Array => {
    const at = noColumns(n);
    for (let t = 0; t < n; t++) {
      if (share[t] <= 0) continue;
      at[t] = cols.add(1, () => `${name}_${t}`);
      cols.set(at[t], 0, upper(t), 0, integer);
    }
    return at;
  };
  const draw = (at: Int32Array, maxKw: (t: number) => number) => {
    for (let t = 0; t < n; t++) {
      if (at[t] < 0) continue;
      drawn[t].push(at[t]);
      flexibleMax[t] += maxKw(t);
    }
  };
  const ev = flex.ev && windowColumns(flex.ev.share, 'ev', (t) => flex.ev!.chargerKw * flex.ev!.share[t]);
  if (ev) draw(ev, (t) => flex.ev!.chargerKw * flex.ev!.share[t]);
  let flexibleBinaries = 0;
  const deferrable = (flex.deferrable ?? []).map((load, k) => {
    const needsBinary = load.minPowerKw > 0 || load.singleBlock || load.minRunIntervals > 1;
    const powerCols = windowColumns(load.share, `deferrable_${k}`, (t) => load.powerKw * load.share[t]);
    draw(powerCols, (t) => load.powerKw * load.share[t]);
    const on = needsBinary ? windowColumns(load.share, `deferrable_${k}_on`, () => 1, true) : noColumns(n);
    const starts = load.singleBlock || load.minRunIntervals > 1 ? windowColumns(load.share, `deferrable_${k}_start`, () => 1, true) : noColumns(n);
    flexibleBinaries += on.filter((j) => j >= 0).length + starts.filter((j) => j >= 0).length;
    return { load, power: powerCols, on, starts };
  });
  const thermal = (flex.thermal ?? []).map((load, k) => {
    const everywhere = new Array<number>(n).fill(1);
    const powerCols = windowColumns(everywhere, `thermal_${k}`, () => load.maxPowerKw);
    draw(powerCols, () => load.maxPowerKw);
    const temperature = windowColumns(everywhere, `temperature_${k}`, () => Infinity);
    for (const j of temperature) cols.lower[j] = -Infinity;
    const penalty = comfortPenalty(p, load);
    const below = windowColumns(everywhere, `too_cold_${k}`, () => Infinity);
    const above = windowColumns(everywhere, `too_warm_${k}`, () => Infinity);
    for (const j of [...below, ...above]) cols.cost[j] = penalty;
    return { load, power: powerCols, temperature, below, above };
  });

  const batteryBinary = new Map([...binaries.battery].sort((a, b) => a - b).map((t) => [t, cols.add(1, () => `charging_${t}`)]));
  const gridBinary = new Map([...binaries.grid].sort((a, b) => a - b).map((t) => [t, cols.add(1, () => `importing_${t}`)]));
  for (const j of [...batteryBinary.values(), ...gridBinary.values()]) cols.set(j, 0, 1, 0, true);

  const importCap = (t: number) => Math.min(p.importLimitKw, p.loadKw[t] + flexibleMax[t] + power);
  const exportCap = (t: number) => Math.min(p.exportLimitKw, p.solarKw[t] + power);
  const floor = terminalFloorKwh(p);
  const minSoc = p.battery.minSoc;
  const maxSoc = p.battery.maxSoc;

  for (let t = 0; t < n; t++) {
    const set = (v: keyof typeof VAR, lower: number, upper: number, cost: number) => cols.set(column(t, v), lower, upper, cost);
    set('charge', 0, power, 0);
    set('discharge', 0, power, dt * (p.degradationCostPerKwh ?? 0));
    set('import', 0, importCap(t), dt * p.importPrice[t]);
    set('export', 0, exportCap(t), -dt * p.exportPrice[t]);
    set('soc', sizing ? 0 : minSoc * cap, maxSoc * cap, 0);
    set('curtail', 0, p.solarKw[t], 0);
  }
  const last = column(n - 1, 'soc');
  cols.cost[last] -= p.terminalValuePerKwh ?? 0;
  if (!sizing) {
    cols.lower[last] = floor;
    for (const target of p.socTargets ?? []) {
      const j = column(target.interval, 'soc');
      if (target.comparison !== 'at_most') cols.lower[j] = Math.max(cols.lower[j], target.soc * cap);
      if (target.comparison !== 'at_least') cols.upper[j] = Math.min(cols.upper[j], target.soc * cap);
    }
  }

  const rows = new RowBuilder(n * 8, n * 24);
  for (let t = 0; t < n; t++) {
    const c = column(t, 'charge');
    const d = column(t, 'discharge');
    const g = column(t, 'import');
    const e = column(t, 'export');
    const s = column(t, 'soc');
    const u = column(t, 'curtail');
    const net = p.loadKw[t] - p.solarKw[t];
    rows.row('balance', t, net, net).term(c, -1).term(d, 1).term(g, 1).term(e, -1).term(u, -1);
    for (const j of drawn[t]) rows.term(j, -1);
    if (t === 0) {
      const initial = p.battery.initialSoc * cap;
      if (sized) rows.row('soc', t, 0, 0).term(sized.energy, -p.battery.initialSoc);
      else rows.row('soc', t, initial, initial);
    } else {
      rows.row('soc', t, 0, 0).term(column(t - 1, 'soc'), -1);
    }
    rows.term(c, -eta * dt).term(d, dt / eta).term(s, 1);
    if (sized) {
      rows.row('sizing_soc_max', t, -Infinity, 0).term(s, 1).term(sized.energy, -maxSoc);
      rows.row('sizing_soc_min', t, 0, Infinity).term(s, 1).term(sized.energy, -minSoc);
      rows.row('sizing_charge', t, -Infinity, 0).term(c, 1).term(sized.power, -1);
      rows.row('sizing_discharge', t, -Infinity, 0).term(d, 1).term(sized.power, -1);
    }
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
  for (const peak of windowPeaks) for (const t of peak.intervals) rows.row('window_peak', t, -Infinity, 0).term(column(t, 'import'), 1).term(peak.column, -1);
  if (sized) {
    const terminal = p.terminalSoc === 'free' ? undefined : p.terminalSoc === 'at_least_initial' ? p.battery.initialSoc : p.terminalSoc;
    if (terminal !== undefined) rows.row('terminal_soc', n - 1, 0, Infinity).term(last, 1).term(sized.energy, -terminal);
    for (const target of p.socTargets ?? []) {
      const [lower, upper] = target.comparison === 'at_least' ? [0, Infinity] : target.comparison === 'at_most' ? [-Infinity, 0] : [0, 0];
      rows.row('soc_target', target.interval, lower, upper).term(column(target.interval, 'soc'), 1).term(sized.energy, -target.soc);
    }
  }

  if (ev && flex.ev) {
    const { energyKwh, deliverableAfterKwh } = flex.ev;
    rows.row('ev_energy', 0, Math.max(0, energyKwh - deliverableAfterKwh), energyKwh);
    for (const j of ev) if (j >= 0) rows.term(j, dt);
  }
  deferrable.forEach(({ load, power: powerCols, on, starts }, k) => {
    const fixedPower = load.minPowerKw >= load.powerKw;
    rows.row('deferrable_energy', k, load.energyKwh, fixedPower ? load.energyKwh + load.powerKw * dt * (1 - 1e-9) : load.energyKwh);
    for (const j of powerCols) if (j >= 0) rows.term(j, dt);
    const window: number[] = [];
    for (let t = 0; t < n; t++) if (powerCols[t] >= 0) window.push(t);
    for (const t of window) {
      if (on[t] < 0) continue;
      rows.row('deferrable_max', t, -Infinity, 0).term(powerCols[t], 1).term(on[t], -load.powerKw * load.share[t]);
      if (load.minPowerKw > 0) rows.row('deferrable_min', t, 0, Infinity).term(powerCols[t], 1).term(on[t], -load.minPowerKw * load.share[t]);
    }
    if (starts.every((j) => j < 0)) return;
    window.forEach((t, i) => {
      // A start where it runs and did not run the interval before (nor is the previous interval outside the window).
      rows.row('deferrable_start', t, 0, Infinity).term(starts[t], 1).term(on[t], -1);
      if (i > 0 && window[i - 1] === t - 1) rows.term(on[t - 1], 1);
      const m = load.minRunIntervals;
      if (m > 1) {
        const run = window.slice(i, i + m);
        if (run.length < m || run[m - 1] !== t + m - 1) cols.upper[starts[t]] = 0;
        else {
          rows.row('deferrable_min_run', t, 0, Infinity).term(starts[t], -m);
          for (const tau of run) rows.term(on[tau], 1);
        }
      }
    });
    if (load.singleBlock) {
      rows.row('deferrable_blocks', k, -Infinity, 1);
      for (const t of window) rows.term(starts[t], 1);
    }
  });
  thermal.forEach(({ load, power: powerCols, temperature, below, above }) => {
    const a = Math.exp((-load.uaKwPerK * dt) / load.capacityKwhPerK);
    // Heat in (kW) to kelvin at the interval's end: (1 - a) / UA, and dt / C in the limit of no loss.
    const gain = load.uaKwPerK > 0 ? (1 - a) / load.uaKwPerK : dt / load.capacityKwhPerK;
    for (let t = 0; t < n; t++) {
      const rhs = load.uaKwPerK * gain * load.outdoorTempC[t] + (t === 0 ? a * load.tInitialC : 0);
      rows.row('thermal', t, rhs, rhs).term(temperature[t], 1).term(powerCols[t], -gain * load.cop[t]);
      if (t > 0) rows.term(temperature[t - 1], -a);
      rows.row('comfort_low', t, load.tMinC, Infinity).term(temperature[t], 1).term(below[t], 1);
      rows.row('comfort_high', t, -Infinity, load.tMaxC).term(temperature[t], 1).term(above[t], -1);
    }
  });

  const numCols = cols.count;
  const kinds = rows.kinds.slice(0, rows.rows);
  const indices = rows.indices.slice(0, rows.rows);
  const colNames = lazyNames(() => {
    const names = new Array<string>(numCols);
    const vars = Object.keys(VAR) as (keyof typeof VAR)[];
    for (let t = 0; t < n; t++) for (const v of vars) names[column(t, v)] = `${v}_${t}`;
    for (const group of cols.named) for (let i = 0; i < group.count; i++) names[group.first + i] = group.name(i);
    return names;
  });
  const rowNames = lazyNames(() => Array.from(kinds, (kind, i) => `${ROW_KINDS[kind]}_${indices[i]}`));
  return {
    lp: {
      get colNames() {
        return colNames();
      },
      colCost: cols.cost.slice(0, numCols),
      colLower: cols.lower.slice(0, numCols),
      colUpper: cols.upper.slice(0, numCols),
      integer: cols.integer.slice(0, numCols),
      get rowNames() {
        return rowNames();
      },
      rowLower: rows.lower.slice(0, rows.rows),
      rowUpper: rows.upper.slice(0, rows.rows),
      rowStarts: rows.starts.slice(0, rows.rows + 1),
      colIndex: rows.cols.slice(0, rows.nonzeros),
      values: rows.vals.slice(0, rows.nonzeros),
    },
    layout: {
      intervals: n,
      peaks,
      windowPeaks,
      batteryBinary,
      gridBinary,
      ev,
      deferrable: deferrable.map(({ load, power: powerCols, on, starts }) => ({ id: load.id, power: powerCols, on, starts })),
      thermal: thermal.map(({ load, power: powerCols, temperature, below, above }) => ({ id: load.id, power: powerCols, temperature, below, above })),
      sizing: sized,
      flexibleBinaries,
    },
  };
}

export const isMixedInteger = (lp: LinearProgram): boolean => lp.integer.some((v) => v === 1);

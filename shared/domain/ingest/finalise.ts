/**
 * From read rows to the standardised series, the same for CSV files and JSON points: day/month order,
 * local time to UTC, order and duplicates, the interval, counters, units, the physical floor, channels.
 */
import { isoUtc } from './iso';
import { ABSOLUTE, DST_MARK, Rejections, RowStore } from './rows';
import { LocalTimeResolver } from './timestamps';
import type { Channel, Manufacturer, StandardisedFile, StandardRow, ValueKind } from './types';
import { unitOf, type Unit } from './units';
import { roundHalfUp } from '../rounding';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../time';

/**
 * Night-time inverter self-consumption shows as small negative power (NREL SERF East: about -3 W
 * against a 5.4 kW peak). Negative power down to 2% of the series peak (or of the nameplate capacity
 * when larger) is kept as measured; anything lower is not a plausible reading of a generator.
 */
export const NIGHT_CONSUMPTION_FLOOR = 0.02;
/** Without a capacity, a peak at or above this many units is read as W (Wh), below as kW (kWh). */
export const WATT_MAGNITUDE = 1000;
/** A counter's value sits well above its steps: the median reading exceeds this many median increases. */
const COUNTER_LEVEL = 5;
/** A counter reset falls below this share of the previous reading (daily counters drop to about 0). */
const RESET_DROP = 0.2;
/** A counter that dips by less than this share of its reading is jitter (a meter's rounding), not a reset. */
const COUNTER_JITTER = 0.005;

export interface ChannelSource {
  channel: Channel;
  unit: Unit | undefined;
}

export interface SeriesSource {
  store: RowStore;
  rejections: Rejections;
  kind: 'power' | 'energy';
  unit: Unit | undefined;
  cumulativeHint: boolean;
  channels: ChannelSource[];
  zone: string;
  zoneGiven: boolean;
  capacityKw: number | undefined;
  /** Breaks a day/month tie: US portals write month first. */
  manufacturer: Manufacturer;
  notes: string[];
}

/** A finished series: the series fields of a standardised file, with the value column's kind and unit. */
export type FinalSeries = Pick<
  StandardisedFile,
  'rows' | 'intervalMinutes' | 'rowsRejected' | 'duplicatesMerged' | 'offGridRows' | 'rejectReasons' | 'notes' | 'start' | 'end'
> & { valueKind: ValueKind; unit: string };

export function finaliseSeries(src: SeriesSource): FinalSeries {
  const { store, rejections, notes } = src;
  if (store.alt) decideDateOrder(src);
  const t = toUtc(src);
  const order = timeOrder(t, store.n, notes);
  const { keep, duplicates } = mergeDuplicates(order, t);
  const times = new Float64Array(keep.length);
  for (let k = 0; k < keep.length; k++) times[k] = t[keep[k]];
  const intervalMs = intervalOf(times, notes);
  const hours = intervalMs / HOUR_MS;

  const values = new Float64Array(keep.length);
  for (let k = 0; k < keep.length; k++) values[k] = store.value[keep[k]];
  const valueKind = valueKindOf(src, values, notes);
  const { rawPower, rawEnergy } = rawSeries(valueKind, values, times, hours, notes);
  const unit = resolveUnit(src, valueKind, rawPower, notes);
  const power = new Float64Array(keep.length);
  const energy = new Float64Array(keep.length);
  for (let k = 0; k < keep.length; k++) {
    power[k] = rawPower[k] * unit.factor;
    energy[k] = rawEnergy[k] * unit.factor;
  }
  const kept = applyFloor(src, keep, power, notes);
  const channelValues = src.channels.map((c, j) => channelSeries(c, store.channels[j], keep, hours));

  const rows: StandardRow[] = [];
  for (let k = 0; k < keep.length; k++) {
    if (!kept[k]) continue;
    const row: StandardRow = { t: times[k], power_kw: finite(power[k]), energy_kwh: finite(energy[k]) };
    let channels: StandardRow['channels'];
    for (let j = 0; j < channelValues.length; j++) {
      const x = channelValues[j][k];
      if (x === x) (channels ??= {})[src.channels[j].channel] = roundHalfUp(x, 9);
    }
    if (channels) row.channels = channels;
    rows.push(row);
  }
  return {
    rows,
    valueKind,
    unit: unit.symbol,
    intervalMinutes: intervalMs / MINUTE_MS,
    rowsRejected: rejections.count,
    duplicatesMerged: duplicates,
    offGridRows: countOffGrid(times, kept, intervalMs),
    rejectReasons: rejections.reasons,
    notes,
    start: rows.length ? isoUtc(rows[0].t) : null,
    end: rows.length ? isoUtc(rows[rows.length - 1].t) : null,
  };
}

const rowsOf = (n: number) => `${n} row${n === 1 ? '' : 's'}`;
const finite = (x: number) => (x === x && x !== Infinity && x !== -Infinity ? roundHalfUp(x, 9) : null);
const positiveMod = (a: number, m: number) => ((a % m) + m) % m;

/**
 * DD/MM or MM/DD when no sampled value was above 12: the reading that leaves fewer impossible dates
 * wins; when both read every row, the one whose consecutive rows lie closer together (a wrong order
 * jumps by a month every day); then US portals' month-first convention, else day-first.
 */
function decideDateOrder(src: SeriesSource): void {
  const { store, notes } = src;
  const dmy = store.local;
  const mdy = store.alt!;
  let invalidDmy = 0;
  let invalidMdy = 0;
  let closeDmy = 0;
  let closeMdy = 0;
  for (let i = 0; i < store.n; i++) {
    if (dmy[i] !== dmy[i]) invalidDmy++;
    if (mdy[i] !== mdy[i]) invalidMdy++;
    if (i > 0) {
      if (Math.abs(dmy[i] - dmy[i - 1]) <= DAY_MS) closeDmy++;
      if (Math.abs(mdy[i] - mdy[i - 1]) <= DAY_MS) closeMdy++;
    }
  }
  let monthFirst: boolean;
  let why: string;
  if (invalidDmy !== invalidMdy) {
    monthFirst = invalidMdy < invalidDmy;
    why = 'values above 12 show the order';
  } else if (closeDmy !== closeMdy) {
    monthFirst = closeMdy > closeDmy;
    why = 'consecutive rows are closer in time read this way';
  } else {
    monthFirst = src.manufacturer === 'enphase' || src.manufacturer === 'solaredge';
    why = monthFirst ? 'no value above 12; month first as this portal writes it' : 'no value above 12; assumed day first';
  }
  notes.push(`dates read as ${monthFirst ? 'MM/DD/YYYY' : 'DD/MM/YYYY'} (${why})`);
  if (monthFirst) store.local.set(mdy.subarray(0, store.n));
  for (let i = 0; i < store.n; i++) {
    if (store.local[i] !== store.local[i]) src.rejections.add(store.line[i], `not a valid date as ${monthFirst ? 'MM/DD/YYYY' : 'DD/MM/YYYY'}`);
  }
}

/**
 * UTC instants. Wall-clock rows are resolved in the zone: a spring-gap time is rejected; a time in the
 * repeated autumn hour is the first instant until the hour repeats (the same wall time comes again, or
 * time steps back), then the second. Files written newest first are walked from the end.
 */
function toUtc(src: SeriesSource): Float64Array {
  const { store, rejections } = src;
  const n = store.n;
  const t = new Float64Array(n);
  const resolver = new LocalTimeResolver(src.zone);
  let wallClockRows = 0;
  let up = 0;
  let down = 0;
  let previous = NaN;
  let marks = false;
  for (let i = 0; i < n; i++) {
    const local = store.local[i];
    if (local !== local || store.flags[i] & ABSOLUTE) continue;
    wallClockRows++;
    if (store.flags[i] & DST_MARK) marks = true;
    if (local > previous) up++;
    else if (local < previous) down++;
    previous = local;
  }
  if (wallClockRows > 0) noteZone(src, wallClockRows);
  const reverse = down > up;
  let overlapDay = NaN;
  let secondPass = false;
  let lastAmbiguous = NaN;
  const usedEarly = new Set<number>();
  let gaps = 0;
  let ambiguous = 0;
  for (let k = 0; k < n; k++) {
    const i = reverse ? n - 1 - k : k;
    const local = store.local[i];
    if (local !== local || store.flags[i] & ABSOLUTE || resolver.isUtc) {
      t[i] = local;
      continue;
    }
    const count = resolver.resolve(local);
    if (count === 1) {
      t[i] = resolver.early;
      continue;
    }
    if (count === 0) {
      t[i] = NaN;
      gaps++;
      rejections.add(store.line[i], `local time ${isoUtc(local).slice(0, 16).replace('T', ' ')} does not exist in ${src.zone} (clocks go forward)`);
      continue;
    }
    ambiguous++;
    const day = Math.floor(local / DAY_MS);
    if (day !== overlapDay) {
      overlapDay = day;
      secondPass = false;
      lastAmbiguous = NaN;
      usedEarly.clear();
    }
    if (marks) {
      t[i] = store.flags[i] & DST_MARK ? resolver.early : resolver.late;
      continue;
    }
    if (!secondPass && (usedEarly.has(resolver.early) || local <= lastAmbiguous)) secondPass = true;
    t[i] = secondPass ? resolver.late : resolver.early;
    if (!secondPass) usedEarly.add(resolver.early);
    lastAmbiguous = local;
  }
  if (gaps > 0) src.notes.push(`${rowsOf(gaps)} in the spring-forward gap of ${src.zone} rejected`);
  if (ambiguous > 0) {
    src.notes.push(
      marks
        ? `${rowsOf(ambiguous)} in the repeated autumn hour placed by their DST marker`
        : `${rowsOf(ambiguous)} in the repeated autumn hour placed by order (the second occurrence is the later instant)`,
    );
  }
  return t;
}

function noteZone(src: SeriesSource, wallClockRows: number): void {
  src.notes.push(
    src.zoneGiven
      ? `${wallClockRows} timestamp${wallClockRows === 1 ? '' : 's'} without an offset read as ${src.zone} local time`
      : `${wallClockRows} timestamp${wallClockRows === 1 ? '' : 's'} without an offset read as UTC (no timezone given)`,
  );
}

/** Indexes of rows with a valid instant, in time order (file order among equal instants). */
function timeOrder(t: Float64Array, n: number, notesOut: string[]): Uint32Array {
  let m = 0;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) if (t[i] === t[i]) order[m++] = i;
  const idx = order.subarray(0, m);
  let late = 0;
  let max = -Infinity;
  for (let k = 0; k < m; k++) {
    const x = t[idx[k]];
    if (x < max) late++;
    else max = x;
  }
  if (late > 0) {
    idx.sort((a, b) => t[a] - t[b] || a - b);
    notesOut.push(`${rowsOf(late)} out of time order sorted`);
  }
  return idx;
}

/** One row per instant: of rows with the same instant, the one later in the file wins. */
function mergeDuplicates(order: Uint32Array, t: Float64Array): { keep: Uint32Array; duplicates: number } {
  const keep = new Uint32Array(order.length);
  let m = 0;
  let duplicates = 0;
  for (let k = 0; k < order.length; k++) {
    if (m > 0 && t[keep[m - 1]] === t[order[k]]) {
      keep[m - 1] = order[k];
      duplicates++;
    } else keep[m++] = order[k];
  }
  return { keep: keep.subarray(0, m), duplicates };
}

/**
 * The most common step between consecutive instants, in whole minutes (whole seconds below a minute):
 * loggers stamp a few seconds late or early, and "10:00:03, 10:15:01" is still a 15-minute series.
 */
function intervalOf(times: Float64Array, notesOut: string[]): number {
  if (times.length < 2) {
    notesOut.push('fewer than two rows: interval assumed 60 minutes');
    return HOUR_MS;
  }
  const counts = new Map<number, number>();
  for (let k = 1; k < times.length; k++) {
    const step = times[k] - times[k - 1];
    const rounded = step >= MINUTE_MS / 2 ? Math.round(step / MINUTE_MS) * MINUTE_MS : Math.max(1000, Math.round(step / 1000) * 1000);
    counts.set(rounded, (counts.get(rounded) ?? 0) + 1);
  }
  let best = 0;
  let bestCount = 0;
  for (const [step, count] of counts) if (count > bestCount || (count === bestCount && step < best)) [best, bestCount] = [step, count];
  return best;
}

/** Rows within this share of the interval (at most 30 s) of the grid are on it. */
const GRID_TOLERANCE = 0.1;

/** Rows off the grid: the grid is the phase (instant modulo interval) most rows share, to the second. */
function countOffGrid(times: Float64Array, kept: Uint8Array, intervalMs: number): number {
  const counts = new Map<number, number>();
  for (let k = 0; k < times.length; k++) {
    if (!kept[k]) continue;
    const p = Math.round(positiveMod(times[k], intervalMs) / 1000) * 1000;
    counts.set(p, (counts.get(p) ?? 0) + 1);
  }
  let phase = 0;
  let bestCount = -1;
  for (const [p, count] of counts) if (count > bestCount) [phase, bestCount] = [p, count];
  const tolerance = Math.min(30_000, GRID_TOLERANCE * intervalMs);
  let off = 0;
  for (let k = 0; k < times.length; k++) {
    if (!kept[k]) continue;
    const d = Math.abs(positiveMod(times[k], intervalMs) - phase);
    if (Math.min(d, intervalMs - d) > tolerance) off++;
  }
  return off;
}

function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const s = values.sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * An energy column is a cumulative counter when it never falls except to near zero (a reset) or by a
 * hair (jitter), and its readings stand well above their increments. The header's word ("Total yield",
 * "Counter") only decides when there are too few rows to tell.
 */
function valueKindOf(src: SeriesSource, values: Float64Array, notesOut: string[]): ValueKind {
  if (src.kind === 'power') return 'power';
  if (values.length < 3) return src.cumulativeHint ? 'cumulative_energy' : 'energy';
  const increases: number[] = [];
  let otherDrops = 0;
  for (let k = 1; k < values.length; k++) {
    const d = values[k] - values[k - 1];
    if (d > 0) increases.push(d);
    else if (d < 0 && !(values[k] <= RESET_DROP * values[k - 1]) && -d > COUNTER_JITTER * values[k - 1]) otherDrops++;
  }
  const counter = increases.length > 0 && otherDrops === 0 && median(Array.from(values)) > COUNTER_LEVEL * median(increases);
  if (counter && !src.cumulativeHint) notesOut.push('energy values only rise (or reset): read as a cumulative counter and differenced');
  if (!counter && src.cumulativeHint) notesOut.push('the header suggests a counter but the values also fall: read as energy per interval');
  return counter ? 'cumulative_energy' : 'energy';
}

/**
 * Power and energy per row in the source unit: power x interval; energy / interval; counters by
 * difference, a drop to near zero being a reset (the new reading is the energy since the reset) and a
 * smaller dip jitter (no energy). Energy per row is per nominal interval; a counter step across a gap
 * gives the mean power over the gap.
 */
function rawSeries(kind: ValueKind, values: Float64Array, times: Float64Array, hours: number, notesOut: string[]) {
  const n = values.length;
  const rawPower = new Float64Array(n);
  const rawEnergy = new Float64Array(n);
  if (kind === 'power') {
    for (let k = 0; k < n; k++) {
      rawPower[k] = values[k];
      rawEnergy[k] = values[k] * hours;
    }
  } else if (kind === 'energy') {
    for (let k = 0; k < n; k++) {
      rawEnergy[k] = values[k];
      rawPower[k] = values[k] / hours;
    }
  } else {
    let resets = 0;
    let dips = 0;
    rawPower[0] = rawEnergy[0] = NaN;
    for (let k = 1; k < n; k++) {
      let delta = values[k] - values[k - 1];
      if (delta < 0 && values[k] <= RESET_DROP * values[k - 1]) {
        resets++;
        delta = values[k];
      } else if (delta < 0) {
        dips++;
        delta = 0;
      }
      rawPower[k] = delta / ((times[k] - times[k - 1]) / HOUR_MS);
      rawEnergy[k] = rawPower[k] * hours;
    }
    if (n > 0) notesOut.push("a counter's first reading has no earlier reading: its interval is empty");
    if (resets > 0) notesOut.push(`${resets} counter reset${resets === 1 ? '' : 's'} (the reading fell): energy counted from the reset`);
    if (dips > 0) notesOut.push(`the counter dipped slightly ${dips} time${dips === 1 ? '' : 's'}: no energy counted for ${dips === 1 ? 'that interval' : 'those intervals'}`);
  }
  return { rawPower, rawEnergy };
}

/** The header's unit, else W/kW (Wh/kWh) from the peak and, when given, the nameplate capacity. */
function resolveUnit(src: SeriesSource, kind: ValueKind, rawPower: Float64Array, notesOut: string[]): Unit {
  const family = kind === 'power' ? ['w', 'kw', 'mw'] : ['wh', 'kwh', 'mwh'];
  if (src.unit) return src.unit;
  let peak = 0;
  for (let k = 0; k < rawPower.length; k++) if (rawPower[k] > peak) peak = rawPower[k];
  let unit: Unit;
  let why: string;
  if (src.capacityKw && src.capacityKw > 0 && peak > 0) {
    // The unit that puts the peak nearest 80% of capacity (on a log scale: W and kW differ by 1000x).
    const capacity = src.capacityKw;
    const distance = (u: Unit) => Math.abs(Math.log((peak * u.factor) / (0.8 * capacity)));
    unit = family.map((u) => unitOf(u)!).sort((a, b) => distance(a) - distance(b))[0];
    why = `peak ${roundHalfUp(peak, 3)} against a capacity of ${capacity} kW`;
  } else {
    unit = unitOf(peak >= WATT_MAGNITUDE ? family[0] : family[1])!;
    why = `peak ${roundHalfUp(peak, 3)}${kind === 'power' ? '' : ' per hour'} ${peak >= WATT_MAGNITUDE ? '>=' : '<'} ${WATT_MAGNITUDE}; give capacityKw to confirm`;
  }
  notesOut.push(`the header names no unit: ${unit.symbol} assumed from the magnitude (${why})`);
  return unit;
}

/** Marks rows whose power is below the night-consumption floor, rejecting them with a reason. */
function applyFloor(src: SeriesSource, keep: Uint32Array, power: Float64Array, notesOut: string[]): Uint8Array {
  const kept = new Uint8Array(keep.length).fill(1);
  let peak = 0;
  for (let k = 0; k < power.length; k++) if (power[k] > peak) peak = power[k];
  const floor = -NIGHT_CONSUMPTION_FLOOR * Math.max(peak, src.capacityKw ?? 0);
  let below = 0;
  for (let k = 0; k < power.length; k++) {
    if (power[k] < floor) {
      kept[k] = 0;
      below++;
      src.rejections.add(src.store.line[keep[k]], `power ${roundHalfUp(power[k], 3)} kW is below the night-consumption floor of ${roundHalfUp(floor, 3)} kW`);
    }
  }
  if (below > 0) notesOut.push(`${rowsOf(below)} with power below ${roundHalfUp(floor, 3)} kW (-${NIGHT_CONSUMPTION_FLOOR * 100}% of the peak) rejected as impossible`);
  return kept;
}

/** A channel in the output units: kvarh per interval, kVA, PF as a fraction, degrees C, W/m2. */
function channelSeries(source: ChannelSource, raw: Float64Array, keep: Uint32Array, hours: number): Float64Array {
  const out = new Float64Array(keep.length);
  const unit = source.unit;
  let scale = unit?.factor ?? 1;
  let offset = 0;
  if (source.channel === 'kvarh' && unit?.kind === 'reactive_power') scale *= hours; // kvar over the interval
  if (source.channel === 'kva' && unit?.kind === 'apparent_energy') scale /= hours; // kVAh per interval -> mean kVA
  if (source.channel === 'temperature_c' && unit?.symbol === 'F') {
    scale = 5 / 9;
    offset = -32 * (5 / 9);
  }
  if (source.channel === 'pf') {
    scale = 1;
    let maxAbs = 0;
    for (let k = 0; k < keep.length; k++) maxAbs = Math.max(maxAbs, Math.abs(raw[keep[k]]) || 0);
    if (unit?.kind === 'ratio' || maxAbs > 1.5) scale = 0.01; // written in percent
  }
  for (let k = 0; k < keep.length; k++) out[k] = raw[keep[k]] * scale + offset;
  return out;
}

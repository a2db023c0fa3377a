/**
 * The layout of an upload from its first lines: delimiter, decimal convention, where the header and
 * the data start, which column holds the timestamps, which the power or energy (and its unit), and the
 * optional channels. Everything is decided by content, so preambles, stacked vendor headers and
 * header-less files are read the same way.
 */
import { parse as parseCsv, type Options } from 'csv-parse/sync';
import { InvalidCsv } from './errors';
import { detectManufacturer } from './manufacturers';
import { detectTimestampFormat, isTimeOnly, isTimestampLike, type TimestampFormat } from './timestamps';
import type { Channel, Delimiter, Manufacturer } from './types';
import { detectDecimalComma, isMissing, isUnitsCell, looksNumeric, parseNumber, unitInHeader, unitOf, type Unit } from './units';

/** The upload endpoint validates this much synchronously before storing the file. */
export const HEAD_BYTES = 64 * 1024;
/** The data must start within this many lines (vendor preambles and stacked headers are shorter). */
export const MAX_HEADER_LINES = 30;
/** Lines of the head used to find the layout. */
const LAYOUT_LINES = 200;
/** Data rows sampled to recognise the columns. */
const SAMPLE_ROWS = 60;
/** A column is the timestamp (or a number column) when this share of sampled rows fits. */
const COLUMN_FIT = 0.8;

export const DELIMITERS: readonly Delimiter[] = [',', ';', '\t'];

/** csv-parse options shared by the head and the streaming pass, so both see the same records and lines. */
export const CSV_OPTIONS: Options = {
  relax_column_count: true,
  relax_quotes: true,
  skip_empty_lines: true,
  skip_records_with_error: true,
  trim: true,
  record_delimiter: ['\r\n', '\n', '\r'],
};

export interface ValueColumn {
  /** Several indexes when a plant export repeats the same channel per inverter (summed). */
  indexes: number[];
  name: string;
  kind: 'power' | 'energy';
  /** Undefined when the header names no unit: inferred from magnitudes once all rows are read. */
  unit: Unit | undefined;
  cumulativeHint: boolean;
}

export interface ChannelColumn {
  channel: Channel;
  index: number;
  name: string;
  unit: Unit | undefined;
}

export interface Layout {
  delimiter: Delimiter;
  decimalComma: boolean;
  header: string[];
  /** 1-based line of the first data row: the streaming parser starts there (csv-parse `from_line`). */
  firstDataLine: number;
  timestamp: { index: number; timeIndex?: number; name: string; format: TimestampFormat };
  value: ValueColumn;
  channels: ChannelColumn[];
  manufacturer: Manufacturer;
  notes: string[];
}

interface Row {
  cells: string[];
  /** First and last physical line (a quoted field may hold line breaks). */
  line: number;
  end: number;
}

export interface AnalyseOptions {
  /** False when `text` may end inside a line (the first 64 KB of a larger upload): the last line is ignored. */
  complete: boolean;
}

/** Finds the layout of a file from its first lines; throws InvalidCsv when it has no usable layout. */
export function analyseHead(text: string, options: AnalyseOptions): Layout {
  const head = headLines(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, options.complete);
  if (head.trim() === '') throw new InvalidCsv('the file is empty');
  const sep = /^sep=(.)\s*$/im.exec(head.slice(0, 16));
  const hinted = sep && (DELIMITERS as string[]).includes(sep[1]) ? (sep[1] as Delimiter) : undefined;
  const candidates = DELIMITERS.map((delimiter) => {
    const rows = recordsOf(head, delimiter);
    return { delimiter, rows, score: delimiter === hinted ? 2 : consistency(rows) };
  }).sort((a, b) => b.score - a.score);
  let firstError: InvalidCsv | undefined;
  for (const { delimiter, rows, score } of candidates) {
    if (score === 0 && firstError) break;
    try {
      return layoutOf(rows, delimiter);
    } catch (error) {
      if (!(error instanceof InvalidCsv)) throw error;
      firstError ??= error;
    }
  }
  throw firstError!;
}

function headLines(text: string, complete: boolean): string {
  let end = text.length;
  if (!complete) {
    const lastBreak = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
    end = lastBreak === -1 ? 0 : lastBreak + 1;
  }
  let lines = 0;
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10 && ++lines === LAYOUT_LINES) return text.slice(0, i + 1);
  }
  return text.slice(0, end);
}

function recordsOf(text: string, delimiter: Delimiter): Row[] {
  const records = parseCsv(text, { ...CSV_OPTIONS, delimiter, info: true }) as unknown as { record: string[]; info: { lines: number } }[];
  // csv-parse reports the line a record ends on; the data starts where its first record starts.
  return records.map(({ record, info }) => ({ cells: record, line: info.lines - lineBreaksIn(record), end: info.lines }));
}

export function lineBreaksIn(cells: string[]): number {
  let breaks = 0;
  for (const cell of cells) if (cell.length > 0 && (cell.indexOf('\n') !== -1 || cell.indexOf('\r') !== -1)) breaks += cell.split(/\r\n|\r|\n/).length - 1;
  return breaks;
}

/** Share of the later (data-like) rows that have the most common field count, when that count is at least 2. */
function consistency(rows: Row[]): number {
  const tail = rows.slice(-50).filter((r) => effectiveLength(r.cells) > 0);
  if (tail.length === 0) return 0;
  const counts = new Map<number, number>();
  for (const r of tail) counts.set(r.cells.length, (counts.get(r.cells.length) ?? 0) + 1);
  let modeLength = 0;
  let modeCount = 0;
  for (const [length, count] of counts) if (count > modeCount || (count === modeCount && length > modeLength)) [modeLength, modeCount] = [length, count];
  return modeLength < 2 ? 0 : modeCount / tail.length;
}

const effectiveLength = (cells: string[]) => {
  let n = cells.length;
  while (n > 0 && cells[n - 1] === '') n--;
  return n;
};

const SUMMARY_ROW = /^(total|totals|sum|summe|gesamt|average|mean|durchschnitt)\b/i;
export const isSummaryRow = (cells: string[]) => cells.length > 0 && SUMMARY_ROW.test(cells[0]);

/** A row with a timestamp-like cell and a numeric cell elsewhere. */
function isDataRow(cells: string[]): boolean {
  if (cells.length < 2) return false;
  let ts = -1;
  for (let c = 0; c < cells.length && ts < 0; c++) if (isTimestampLike(cells[c])) ts = c;
  if (ts < 0) return false;
  for (let c = 0; c < cells.length; c++) if (c !== ts && looksNumeric(cells[c]) && !isTimeOnly(cells[c])) return true;
  return false;
}

function layoutOf(rows: Row[], delimiter: Delimiter): Layout {
  const firstData = findFirstDataRow(rows);
  const headerStart = findHeaderStart(rows, firstData, rows[firstData].cells.length);
  const headerRows = rows.slice(headerStart, firstData).map((r) => r.cells);
  // Data rows may leave out empty trailing fields the header names.
  const fieldCount = Math.max(rows[firstData].cells.length, ...headerRows.map(effectiveLength));
  const preamble = rows.slice(0, headerStart).map((r) => r.cells.join(delimiter));
  const { names, units, counterColumns } = readHeader(headerRows, fieldCount);
  const sample = rows
    .slice(firstData)
    .filter((r) => !isSummaryRow(r.cells) && effectiveLength(r.cells) > 0)
    .slice(0, SAMPLE_ROWS)
    .map((r) => r.cells);
  const notes: string[] = [];
  if (headerRows.length === 0) notes.push('no header row: columns recognised from their content');

  const timestamp = findTimestampColumn(sample, names, fieldCount);
  const decimalComma = decimalConvention(preamble, sample, timestamp, delimiter);
  const { value, channels } = findValueColumns(sample, names, units, counterColumns, timestamp, decimalComma, notes);
  if (timestamp.timeIndex !== undefined) notes.push(`timestamps combined from "${timestamp.name}"`);
  return {
    delimiter,
    decimalComma,
    header: names,
    firstDataLine: rows[firstData].line,
    timestamp,
    value,
    channels,
    manufacturer: detectManufacturer({ preamble, headerRows }),
    notes,
  };
}

function findFirstDataRow(rows: Row[]): number {
  let sawTimestamp = false;
  for (let i = 0; i < rows.length && rows[i].line <= MAX_HEADER_LINES + 1; i++) {
    const cells = rows[i].cells;
    if (!sawTimestamp && cells.some(isTimestampLike)) sawTimestamp = true;
    if (!isDataRow(cells)) continue;
    // Most of the following rows (when there are any) must agree, so a metadata line with a date is not
    // taken for data, while one malformed row near the top does not hide the data.
    const next = rows
      .slice(i + 1)
      .filter((r) => effectiveLength(r.cells) > 1 && !isSummaryRow(r.cells))
      .slice(0, 4);
    const agreeing = next.filter((r) => isDataRow(r.cells)).length;
    if (agreeing * 2 >= next.length) return i;
  }
  if (rows.length === 0) throw new InvalidCsv('the file has no rows');
  throw new InvalidCsv(
    sawTimestamp
      ? `no power or energy column: no numeric values beside the timestamps in the first ${MAX_HEADER_LINES} lines`
      : `no timestamp column: no recognisable timestamps in the first ${MAX_HEADER_LINES} lines`,
  );
}

/**
 * The header block: contiguous non-data rows right above the data, no wider than the data (up to
 * trailing empties; the row right above may name trailing columns the data rows leave out).
 */
function findHeaderStart(rows: Row[], firstData: number, fieldCount: number): number {
  let start = firstData;
  for (let j = firstData - 1; j >= 0 && firstData - j <= 8; j--) {
    const cells = rows[j].cells;
    const width = effectiveLength(cells);
    if (width < Math.min(2, fieldCount) || (width > fieldCount && j !== firstData - 1)) break;
    if (rows[j + 1].line - rows[j].end > 1) break; // a blank line ends the block (SMA's preamble)
    if (isDataRow(cells)) break;
    start = j;
  }
  return start;
}

const TYPE_CELLS = new Set(['counter', 'analog', 'status']);

/**
 * Column names and units from the header block. Vendors stack rows: device names and serials, channel
 * names, a type row ("Counter;Analog", SMA) and a units row ("kWh;kW", "[Wh];[W]"). The channel name is
 * the lowest row that is neither units nor types; the unit comes from the units row, else from the name.
 */
function readHeader(headerRows: string[][], fieldCount: number) {
  let unitsRow: string[] | undefined;
  let typeRow: string[] | undefined;
  let nameRow: string[] | undefined;
  for (let i = headerRows.length - 1; i >= 0; i--) {
    const row = headerRows[i];
    const filled = row.filter((c) => c.trim() !== '');
    if (!unitsRow && !nameRow && filled.length > 0 && filled.every(isUnitsCell)) unitsRow = row;
    else if (!typeRow && !nameRow && filled.length > 0 && filled.every((c) => TYPE_CELLS.has(c.trim().toLowerCase()))) typeRow = row;
    else if (!nameRow) nameRow = row;
  }
  const names: string[] = [];
  const units: (Unit | undefined)[] = [];
  const counterColumns = new Set<number>();
  for (let c = 0; c < fieldCount; c++) {
    const name = nameRow?.[c]?.trim() || unitsRow?.[c]?.trim() || `column ${c + 1}`;
    names.push(name);
    units.push(unitOf(unitsRow?.[c]) ?? unitInHeader(name));
    if (typeRow?.[c]?.trim().toLowerCase() === 'counter') counterColumns.add(c);
  }
  return { names, units, counterColumns };
}

/** Names are matched as lower-case words: "ac_power" -> "ac power", "GridMs.TotW (Avg)" -> "gridms totw avg". */
export const normaliseName = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9%äöüß²°]+/g, ' ')
    .trim();

const TIMESTAMP_WORDS = /\b(time|date|datum|zeit|uhrzeit|timestamp|zeitstempel|datetime|period|measured|collect|update|day|tag)\w*/;
const DATE_PATTERN_NAME = /yyyy|dd.mm|mm.dd/i;

function findTimestampColumn(sample: string[][], names: string[], fieldCount: number): Layout['timestamp'] {
  const need = Math.max(1, Math.ceil(COLUMN_FIT * sample.length));
  const candidates: { index: number; format: TimestampFormat; matched: number; named: boolean }[] = [];
  for (let c = 0; c < fieldCount; c++) {
    const found = detectTimestampFormat(sample.map((r) => r[c] ?? ''));
    if (!found || found.matched < need) continue;
    candidates.push({ index: c, ...found, named: TIMESTAMP_WORDS.test(normaliseName(names[c])) || DATE_PATTERN_NAME.test(names[c]) });
  }
  // Named columns first; epoch-like numbers only when nothing else fits (counters can look like epochs).
  const rank = (x: (typeof candidates)[number]) => (x.named ? 4 : 0) + (x.format.family !== 'epoch' ? 2 : 0) + (x.format.hasTime ? 1 : 0);
  candidates.sort((a, b) => rank(b) - rank(a) || b.matched - a.matched || a.index - b.index);
  const best = candidates[0];
  if (!best) throw new InvalidCsv('no timestamp column: no column of the first data rows holds timestamps in a supported format');
  if (best.format.hasTime || best.format.family === 'epoch') return { index: best.index, name: names[best.index], format: best.format };
  // A date-only column: look for a time column beside it (exports that split date and time).
  let timeIndex: number | undefined;
  for (let c = 0; c < fieldCount; c++) {
    if (c === best.index) continue;
    const fits = sample.filter((r) => isTimeOnly(r[c] ?? '')).length >= need;
    if (fits && (timeIndex === undefined || Math.abs(c - best.index) < Math.abs(timeIndex - best.index))) timeIndex = c;
  }
  if (timeIndex === undefined) return { index: best.index, name: names[best.index], format: best.format };
  return { index: best.index, timeIndex, name: `${names[best.index]} + ${names[timeIndex]}`, format: { ...best.format, hasTime: true } };
}

function decimalConvention(preamble: string[], sample: string[][], timestamp: Layout['timestamp'], delimiter: Delimiter): boolean {
  // SMA's version line states it: "...|Decimalpoint comma|..." or "Decimalpoint dot".
  const stated = /Decimalpoint (comma|dot|point)/i.exec(preamble.join('\n'));
  if (stated) return stated[1].toLowerCase() === 'comma';
  const cells: string[] = [];
  for (const row of sample) row.forEach((cell, c) => c !== timestamp.index && c !== timestamp.timeIndex && cells.push(cell));
  return detectDecimalComma(cells, delimiter);
}

const IRRADIANCE = /\b(irradiance|irradiation|insolation|einstrahlung|strahlung|radiation|ghi|poa|dni|dhi|gti)\b/;
const TEMPERATURE = /temp/;
const POWER_FACTOR = /\b(pf|power factor|leistungsfaktor|cos ?phi|cosphi|totpf\w*)\b/;
const REACTIVE = /\b(reactive|blindleistung|blindenergie|blind|kvar|kvarh|var|varh|totvar\w*)\b/;
const APPARENT = /\b(apparent|scheinleistung|scheinenergie|schein|kva|va|kvah|totva\w*)\b/;
const IGNORED = /\b(volt\w*|spannung|current|strom|frequen\w*|hz|efficiency|wirkungsgrad|status|state|soc|ladezustand|isolation|insulation|resistance|leak\w*|event|evt\w*|msg|id|serial|sn|no|count|capacity|kwp|specific|spezifisch\w*|price|cost|revenue|tariff|co2|health)\b/;
const PRODUCTION = /\b(pv|solar\w*|photovolt\w*|production|produced|produktion|erzeugung|generation|generated|yield|\w*ertrag|inverter|wechselrichter|ac|active|wirkleistung|pac|totw\w*|output)\b/;
const NOT_PRODUCTION =
  /\b(consum\w*|verbrauch\w*|import\w*|bezug|netzbezug|purchase\w*|export\w*|feed in|einspeis\w*|netz\w*|grid|load|battery|batterie|akku|charg\w*|lade\w*|discharg\w*|entlade\w*|self|eigen\w*|dc|dcms|input|mpp\w*|string\w*|pv\d+|metering gridms)\b/;
const ENERGY_WORDS = /\b(energy|energie|yield|\w*ertrag|production|produced|produktion|erzeugung|generation|arbeit|totwh\w*|wh|kwh|mwh|meter|z(ä|ae)hler\w*|counter)\b/;
const POWER_WORDS = /\b(power|\w*leistung|pac|p|watt|totw|demand|kw|w|mw)\b/;
const CUMULATIVE_WORDS = /\b(total|gesamt\w*|lifetime|cumul\w*|counter|z(ä|ae)hler\w*|reading|totwh\w*|abs\w*)\b/;

type Classified = { role: 'ignore' } | { role: 'channel'; channel: Channel } | { role: 'value'; kind: 'power' | 'energy'; score: number };

/** What a numeric column holds, from its name and unit. Channels are tested first: "Irradiance (W/m2)" names a W. */
function classify(name: string, unit: Unit | undefined): Classified {
  const n = normaliseName(name);
  if (unit?.kind === 'other') return { role: 'ignore' };
  if (unit?.kind === 'irradiance' || IRRADIANCE.test(n)) return { role: 'channel', channel: 'irradiance_wm2' };
  if (unit?.kind === 'temperature' || TEMPERATURE.test(n)) return { role: 'channel', channel: 'temperature_c' };
  if (POWER_FACTOR.test(n)) return { role: 'channel', channel: 'pf' };
  if (unit?.kind === 'reactive_power' || unit?.kind === 'reactive_energy' || REACTIVE.test(n)) return { role: 'channel', channel: 'kvarh' };
  if (unit?.kind === 'apparent_power' || unit?.kind === 'apparent_energy' || APPARENT.test(n)) return { role: 'channel', channel: 'kva' };
  if (unit?.kind === 'ratio' || IGNORED.test(n)) return { role: 'ignore' };
  const energyWords = ENERGY_WORDS.test(n);
  const powerWords = POWER_WORDS.test(n);
  const kind = unit?.kind === 'power' ? 'power' : unit?.kind === 'energy' ? 'energy' : energyWords && !powerWords ? 'energy' : 'power';
  const score = (PRODUCTION.test(n) ? 4 : 0) - (NOT_PRODUCTION.test(n) ? 5 : 0) + (unit ? 2 : 0) + (energyWords || powerWords ? 1 : 0);
  return { role: 'value', kind, score };
}

function findValueColumns(
  sample: string[][],
  names: string[],
  units: (Unit | undefined)[],
  counterColumns: Set<number>,
  timestamp: Layout['timestamp'],
  decimalComma: boolean,
  notes: string[],
): { value: ValueColumn; channels: ChannelColumn[] } {
  const values: { index: number; kind: 'power' | 'energy'; score: number }[] = [];
  const channels: ChannelColumn[] = [];
  for (let c = 0; c < names.length; c++) {
    if (c === timestamp.index || c === timestamp.timeIndex) continue;
    const cells = sample.map((r) => r[c] ?? '');
    let numbers = 0;
    let missing = 0;
    for (const cell of cells) {
      if (isMissing(cell)) missing++;
      else if (Number.isFinite(parseNumber(cell, decimalComma))) numbers++;
    }
    const unit = units[c];
    const numeric = numbers > 0 ? numbers + missing >= COLUMN_FIT * cells.length : missing === cells.length && unit !== undefined;
    if (!numeric) continue;
    const kind = classify(names[c], unit);
    if (kind.role === 'value') values.push({ index: c, kind: kind.kind, score: kind.score });
    else if (kind.role === 'channel' && !channels.some((x) => x.channel === kind.channel)) channels.push({ channel: kind.channel, index: c, name: names[c], unit });
  }
  if (values.length === 0) throw new InvalidCsv('no power or energy column: no numeric column besides the timestamp is a power or energy reading');
  // Highest score; power before energy on a tie (it needs no interval to interpret); then leftmost.
  values.sort((a, b) => b.score - a.score || (a.kind === 'power' ? 0 : 1) - (b.kind === 'power' ? 0 : 1) || a.index - b.index);
  const best = values[0];
  const key = normaliseName(names[best.index]);
  // Plant exports repeat a channel per inverter under the same name (SMA Sunny Explorer): the plant is their sum.
  const same = /^column \d+$/.test(key) ? [best] : values.filter((v) => normaliseName(names[v.index]) === key && units[v.index]?.symbol === units[best.index]?.symbol);
  if (same.length > 1) notes.push(`${same.length} columns named "${names[best.index]}" (one per device) summed`);
  const name = names[best.index];
  return {
    value: {
      indexes: same.map((v) => v.index),
      name,
      kind: best.kind,
      unit: units[best.index],
      cumulativeHint: counterColumns.has(best.index) || CUMULATIVE_WORDS.test(normaliseName(name)),
    },
    channels,
  };
}

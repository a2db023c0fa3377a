/**
 * Uploaded meter/inverter data to the standardised series (ARCHITECTURE 5, flow 1; SPEC 4.2 CSV content).
 *
 * The CSV is streamed: the first 64 KB fix the layout, then csv-parse reads every row from the first
 * data line, each row going straight into typed arrays. csv-parse starts at the data (`from_line`)
 * because it builds an error object for every record whose width differs from its first record's, which
 * made a file with a vendor preamble twelve times slower to read.
 */
import { isUtf8 } from 'node:buffer';
import { parse } from 'csv-parse';
import { slugSegment } from '../uploads/object-keys';
import { InvalidCsv, InvalidDataPoints } from './errors';
import { finaliseSeries, type ChannelSource, type FinalSeries, type SeriesSource } from './finalise';
import { analyseHead, CSV_OPTIONS, HEAD_BYTES, isSummaryRow, lineBreaksIn, type Layout } from './layout';
import { ABSOLUTE, DST_MARK, Rejections, RowStore } from './rows';
import { detectTimestampFormat, describeFormat, LocalTimeResolver, TimestampReader } from './timestamps';
import type { Delimiter, Manufacturer, StandardisedFile, StandardiseOptions } from './types';
import { parseNumber, SERIES_UNITS, unitOf } from './units';

export interface HeadInspection {
  delimiter: Delimiter;
  header: string[];
  timestampColumn: string;
  valueColumn: string;
  manufacturer: Manufacturer;
  /** The value column's unit when the header names one. */
  unit: string | null;
}

/**
 * Validates the start of an upload (the first ~64 KB) synchronously, so the endpoint can answer 400
 * before storing anything. Throws InvalidCsv. Pass the bytes to have UTF-16 and Latin-1 files decoded as
 * the streaming pass decodes them. A head that does not end with a line break and fills the 64 KB is
 * taken to be cut: its last line is ignored.
 */
export function inspectCsvHead(head: string | Buffer, options: { truncated?: boolean } = {}): HeadInspection {
  const bytes = typeof head === 'string' ? undefined : head;
  const text = bytes ? bytes.toString(encodingOf(bytes)) : (head as string);
  const truncated = options.truncated ?? (!/[\r\n]$/.test(text) && (bytes?.length ?? Buffer.byteLength(text)) >= HEAD_BYTES);
  const layout = analyseHead(text, { complete: !truncated });
  return {
    delimiter: layout.delimiter,
    header: layout.header,
    timestampColumn: layout.timestamp.name,
    valueColumn: layout.value.name,
    manufacturer: layout.manufacturer,
    unit: layout.value.unit?.symbol ?? null,
  };
}

/**
 * Reads an uploaded CSV (any chunking; UTF-8, UTF-16 with BOM, or Latin-1) into the standardised series.
 * Throws InvalidCsv when no timestamp or power/energy column is found, or when no valid row remains.
 */
export async function standardiseCsv(input: AsyncIterable<Buffer | string>, options: StandardiseOptions = {}): Promise<StandardisedFile> {
  const zone = checkedZone(options.timezone);
  const head: Buffer[] = [];
  let headBytes = 0;
  let reader: CsvRowReader | undefined;
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (reader) {
      reader.write(bytes);
      continue;
    }
    head.push(bytes);
    headBytes += bytes.length;
    if (headBytes >= HEAD_BYTES) reader = CsvRowReader.start(Buffer.concat(head), false);
  }
  reader ??= CsvRowReader.start(Buffer.concat(head), true);
  await reader.end();

  const { layout } = reader;
  const notes = [...layout.notes];
  if (reader.summaryRows > 0) notes.push(`${reader.summaryRows} summary row${reader.summaryRows === 1 ? '' : 's'} ("Total", ...) skipped`);
  if (layout.timestamp.format.family === 'slash' && layout.timestamp.format.order !== 'ambiguous') {
    notes.push(`dates read as ${describeFormat(layout.timestamp.format)} (values above 12 show the order)`);
  }
  const series = finaliseSeries({
    store: reader.store,
    rejections: reader.rejections,
    kind: layout.value.kind,
    unit: layout.value.unit,
    cumulativeHint: layout.value.cumulativeHint,
    channels: layout.channels.map((c): ChannelSource => ({ channel: c.channel, unit: c.unit })),
    zone,
    zoneGiven: options.timezone !== undefined,
    capacityKw: options.capacityKw,
    manufacturer: layout.manufacturer,
    notes,
  });
  if (series.rows.length === 0) throw new InvalidCsv(`no valid row remains (${reader.rowsRead} read, ${series.rowsRejected} rejected${series.rejectReasons[0] ? `; ${series.rejectReasons[0]}` : ''})`);
  return {
    manufacturer: options.manufacturer ? slugSegment(options.manufacturer) : layout.manufacturer,
    detectedManufacturer: layout.manufacturer,
    delimiter: layout.delimiter,
    columns: {
      timestamp: layout.timestamp.name,
      value: layout.value.name,
      valueKind: series.valueKind,
      unit: series.unit,
      channels: Object.fromEntries(layout.channels.map((c) => [c.channel, c.name])),
    },
    rowsRead: reader.rowsRead,
    ...seriesFields(series),
  };
}

function checkedZone(timezone: string | undefined): string {
  const zone = timezone ?? 'UTC';
  if (!LocalTimeResolver.isValidZone(zone)) throw new InvalidCsv(`unknown time zone "${zone}"`);
  return zone;
}

/** UTF-16 announces itself with a BOM; UTF-8 is checked up to the head's last line break; otherwise Latin-1 (Windows exports). */
function encodingOf(head: Buffer): BufferEncoding {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf16le';
  const lastBreak = head.lastIndexOf(0x0a);
  return isUtf8(lastBreak === -1 ? head : head.subarray(0, lastBreak)) ? 'utf8' : 'latin1';
}

/**
 * The streaming pass: csv-parse from the first data line; after each write the parsed records are read
 * back synchronously and parsed in place into a RowStore. Line numbers are counted here (one per record
 * plus the line breaks inside quoted fields) rather than taken from csv-parse's per-record info object,
 * whose construction doubled the cost of a row.
 */
class CsvRowReader {
  readonly store: RowStore;
  readonly rejections = new Rejections('line');
  rowsRead = 0;
  summaryRows = 0;
  private readonly parser;
  private readonly handle: (cells: string[]) => void;
  private line: number;
  private consumed = 0;
  /** Records csv-parse skipped as malformed: where in the record sequence, and the line they ended on. */
  private readonly skips: { at: number; line: number }[] = [];

  static start(head: Buffer, complete: boolean): CsvRowReader {
    const encoding = encodingOf(head);
    const layout = analyseHead(head.toString(encoding), { complete });
    const reader = new CsvRowReader(layout, encoding);
    reader.write(head);
    return reader;
  }

  private constructor(
    readonly layout: Layout,
    encoding: BufferEncoding,
  ) {
    const { timestamp, value, channels, decimalComma } = layout;
    this.line = layout.firstDataLine;
    this.store = new RowStore(channels.length, timestamp.format.order === 'ambiguous');
    const store = this.store;
    const rejections = this.rejections;
    const ts = new TimestampReader(timestamp.format);
    const tsIndex = timestamp.index;
    const timeIndex = timestamp.timeIndex;
    const valueIndexes = value.indexes;
    const single = valueIndexes.length === 1 ? valueIndexes[0] : -1;
    const channelIndexes = channels.map((c) => c.index);
    const rejectValue = (cell: string | undefined, line: number): void => {
      rejections.add(line, cell === undefined || cell.trim() === '' ? `no value in "${value.name}"` : `"${cell}" in "${value.name}" is not a number`);
    };

    this.handle = (cells: string[]): void => {
      const line = this.nextLine(cells);
      if (isBlank(cells)) return;
      this.rowsRead++;
      if (!ts.read(cells[tsIndex] ?? '', timeIndex === undefined ? undefined : (cells[timeIndex] ?? ''))) {
        if (isSummaryRow(cells)) {
          this.rowsRead--;
          this.summaryRows++;
        } else rejections.add(line, ts.problem);
        return;
      }
      let v: number;
      if (single >= 0) {
        v = parseNumber(cells[single] ?? '', decimalComma);
        if (v !== v) return rejectValue(cells[single], line);
      } else {
        v = 0;
        for (const index of valueIndexes) {
          const x = parseNumber(cells[index] ?? '', decimalComma);
          if (x !== x) return rejectValue(cells[index], line);
          v += x;
        }
      }
      const i = store.push(ts.a, ts.b, (ts.absolute ? ABSOLUTE : 0) | (ts.dstMark ? DST_MARK : 0), v, line);
      for (let j = 0; j < channelIndexes.length; j++) store.channels[j][i] = parseNumber(cells[channelIndexes[j]] ?? '', decimalComma);
    };

    this.parser = parse({
      ...CSV_OPTIONS,
      // Blank lines come through as [""] so that every physical line is counted.
      skip_empty_lines: false,
      delimiter: layout.delimiter,
      encoding,
      bom: true,
      from_line: layout.firstDataLine,
      on_skip: (error) => {
        const line = Number(error?.lines) || this.line;
        this.rowsRead++;
        rejections.add(line, `malformed CSV record (${error?.code ?? 'unknown'})`);
        this.skips.push({ at: this.consumed + this.parser.readableLength, line });
        return undefined;
      },
    });
  }

  /** csv-parse parses inside `write`; the records are read back at once, so nothing waits on backpressure. */
  write(bytes: Buffer): void {
    this.parser.write(bytes);
    let cells: string[] | null;
    while ((cells = this.parser.read()) !== null) this.handle(cells);
  }

  async end(): Promise<void> {
    this.parser.end();
    try {
      // The last record comes out of csv-parse's flush, which runs on a later tick.
      for await (const cells of this.parser) this.handle(cells as string[]);
    } catch (error) {
      throw new InvalidCsv(`unreadable CSV: ${(error as Error).message}`);
    }
  }

  /** The line a record starts on, advancing past it (and any line breaks inside its quoted fields). */
  private nextLine(cells: string[]): number {
    if (this.skips.length > 0 && this.skips[0].at === this.consumed) this.line = this.skips.shift()!.line + 1;
    this.consumed++;
    const line = this.line;
    this.line += 1 + lineBreaksIn(cells);
    return line;
  }
}

function isBlank(cells: string[]): boolean {
  for (let c = 0; c < cells.length; c++) if (cells[c] !== '') return false;
  return true;
}

export interface DataPoint {
  timestamp: string;
  value: number;
  unit: string;
}

/**
 * The JSON form (SPEC 4.1 upload_nowcast `data_points`): the same standardisation as a CSV. Units are
 * W, kW, MW (power) or Wh, kWh, MWh (energy per interval), case-insensitive; one series is either power
 * or energy. Throws InvalidDataPoints for an unknown unit or a mix of power and energy.
 */
export function standardisePoints(points: DataPoint[], options: StandardiseOptions = {}): StandardisedFile {
  if (!Array.isArray(points) || points.length === 0) throw new InvalidDataPoints('no data points');
  let zone: string;
  try {
    zone = checkedZone(options.timezone);
  } catch (error) {
    throw new InvalidDataPoints((error as InvalidCsv).reason);
  }
  let kind: 'power' | 'energy' | undefined;
  const symbols = new Set<string>();
  const factors = points.map((p, i) => {
    const unit = typeof p?.unit === 'string' && (SERIES_UNITS as readonly string[]).includes(p.unit.trim().toLowerCase()) ? unitOf(p.unit) : undefined;
    if (!unit) throw new InvalidDataPoints(`data point ${i + 1}: unknown unit "${String(p?.unit)}" (use W, kW, MW, Wh, kWh or MWh)`);
    const k = unit.kind === 'power' ? 'power' : 'energy';
    if (kind && kind !== k) throw new InvalidDataPoints(`data point ${i + 1}: ${unit.symbol} mixes energy and power in one series`);
    kind = k;
    symbols.add(unit.symbol);
    return unit.factor;
  });
  const stamps = points.map((p) => (typeof p?.timestamp === 'string' ? p.timestamp.trim() : ''));
  const found = detectTimestampFormat(stamps);
  if (!found) throw new InvalidDataPoints('no timestamp in a supported format (ISO 8601 expected)');
  const reader = new TimestampReader(found.format);
  const store = new RowStore(0, found.format.order === 'ambiguous', points.length);
  const rejections = new Rejections('point');
  points.forEach((p, i) => {
    if (!reader.read(stamps[i])) return rejections.add(i + 1, reader.problem);
    if (typeof p.value !== 'number' || !Number.isFinite(p.value)) return rejections.add(i + 1, 'value is not a finite number');
    store.push(reader.a, reader.b, (reader.absolute ? ABSOLUTE : 0) | (reader.dstMark ? DST_MARK : 0), p.value * factors[i], i + 1);
  });
  const canonical = unitOf(kind === 'power' ? 'kw' : 'kwh')!;
  const source: SeriesSource = {
    store,
    rejections,
    kind: kind!,
    unit: canonical,
    cumulativeHint: false,
    channels: [],
    zone,
    zoneGiven: options.timezone !== undefined,
    capacityKw: options.capacityKw,
    manufacturer: 'generic',
    notes: [],
  };
  const series = finaliseSeries(source);
  if (series.rows.length === 0) throw new InvalidDataPoints(`no valid data point remains${series.rejectReasons[0] ? ` (${series.rejectReasons[0]})` : ''}`);
  return {
    manufacturer: options.manufacturer ? slugSegment(options.manufacturer) : 'generic',
    detectedManufacturer: 'generic',
    delimiter: '',
    columns: { timestamp: 'timestamp', value: 'value', valueKind: series.valueKind, unit: symbols.size === 1 ? [...symbols][0] : canonical.symbol, channels: {} },
    rowsRead: points.length,
    ...seriesFields(series),
  };
}

/** The fields a finished series gives every standardised file, whatever it was read from. */
function seriesFields({ valueKind: _kind, unit: _unit, ...fields }: FinalSeries) {
  return fields;
}

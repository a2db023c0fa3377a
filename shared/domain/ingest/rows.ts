/**
 * Rows as they are read, kept column-wise in growable typed arrays (about 30 bytes a row), so a year of
 * 5-minute data never exists as strings or as one object per row until the final output.
 */

/** The timestamp is already UTC (it had an offset, `Z`, or was an epoch). */
export const ABSOLUTE = 1;
/** The row carried a DST marker (FusionSolar's " DST" suffix). */
export const DST_MARK = 2;

export class RowStore {
  n = 0;
  /** Wall-clock ms (or UTC ms when ABSOLUTE); for undecided slash dates, the day-first reading. */
  local: Float64Array;
  /** The month-first reading of undecided slash dates, else undefined. */
  alt: Float64Array | undefined;
  flags: Uint8Array;
  value: Float64Array;
  /** Line (CSV) or 1-based position (JSON points), for reasons. */
  line: Uint32Array;
  channels: Float64Array[];

  constructor(channelCount: number, withAlt: boolean, capacity = 4096) {
    this.local = new Float64Array(capacity);
    this.alt = withAlt ? new Float64Array(capacity) : undefined;
    this.flags = new Uint8Array(capacity);
    this.value = new Float64Array(capacity);
    this.line = new Uint32Array(capacity);
    this.channels = Array.from({ length: channelCount }, () => new Float64Array(capacity));
  }

  /** Appends a row and returns its index (channels are then set with `channels[k][index]`). */
  push(local: number, alt: number, flags: number, value: number, line: number): number {
    if (this.n === this.local.length) this.grow();
    const i = this.n++;
    this.local[i] = local;
    if (this.alt) this.alt[i] = alt;
    this.flags[i] = flags;
    this.value[i] = value;
    this.line[i] = line;
    return i;
  }

  private grow(): void {
    const size = this.local.length * 2;
    const grown = <T extends Float64Array | Uint8Array | Uint32Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.local = grown(this.local, (n) => new Float64Array(n));
    if (this.alt) this.alt = grown(this.alt, (n) => new Float64Array(n));
    this.flags = grown(this.flags, (n) => new Uint8Array(n));
    this.value = grown(this.value, (n) => new Float64Array(n));
    this.line = grown(this.line, (n) => new Uint32Array(n));
    this.channels = this.channels.map((c) => grown(c, (n) => new Float64Array(n)));
  }
}

/** Rejected rows: a count and the first few reasons, each naming its line. */
export class Rejections {
  static readonly KEPT = 10;
  /** A reason quotes the cell it rejects; a megabyte cell must not make the upload record too large to store. */
  static readonly REASON_LENGTH = 200;
  count = 0;
  readonly reasons: string[] = [];

  constructor(private readonly label: 'line' | 'point') {}

  add(position: number, reason: string): void {
    this.count++;
    if (this.reasons.length >= Rejections.KEPT) return;
    const text = `${this.label} ${position}: ${reason}`;
    this.reasons.push(text.length > Rejections.REASON_LENGTH ? `${text.slice(0, Rejections.REASON_LENGTH - 1)}…` : text);
  }
}

/**
 * Timestamps as meter and inverter exports write them, read without allocating per row, and local
 * wall-clock times resolved to UTC in an IANA zone (luxon's zone data), with the DST gap and the
 * repeated autumn hour made explicit rather than silently shifted.
 */
import { IANAZone } from 'luxon';
import { DAY_MS, HOUR_MS } from '../time';

export type TimestampFamily = 'iso' | 'ymd-slash' | 'dmy-dot' | 'slash' | 'epoch';
/** For `slash` dates: day first, month first, or not yet known (every value read so far fits both). */
export type DateOrder = 'dmy' | 'mdy' | 'ambiguous';

export interface TimestampFormat {
  family: TimestampFamily;
  order?: DateOrder;
  /** False for a date-only column (daily data, or a date beside a separate time column). */
  hasTime: boolean;
}

const TIME = String.raw`(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:\s*([AaPp])\.?[Mm]\.?)?`;
// A trailing " DST" is how FusionSolar marks summer-time rows (seen in public scripts that strip it).
const ZONE = String.raw`\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?(?:\s+(DST))?`;
const SEP = String.raw`(?:\s*[T,]\s*|\s+)`;

// Groups: 1-3 date parts (in the family's order), 4 hour, 5 minute, 6 second, 7 fraction, 8 a/p, 9 zone, 10 DST.
const PATTERNS: Record<Exclude<TimestampFamily, 'epoch'>, RegExp> = {
  iso: new RegExp(String.raw`^(\d{4})-(\d{1,2})-(\d{1,2})(?:${SEP}${TIME})?${ZONE}$`, 'i'),
  'ymd-slash': new RegExp(String.raw`^(\d{4})/(\d{1,2})/(\d{1,2})(?:${SEP}${TIME})?${ZONE}$`, 'i'),
  'dmy-dot': new RegExp(String.raw`^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:${SEP}${TIME})?${ZONE}$`, 'i'),
  slash: new RegExp(String.raw`^(\d{1,2})[/-](\d{1,2})[/-](\d{4})(?:${SEP}${TIME})?${ZONE}$`, 'i'),
};
const EPOCH = /^(\d{9,13})(?:\.\d+)?$/;
const TIME_ONLY = new RegExp(String.raw`^${TIME}$`);

/** Epoch values outside 2000-2100 are more likely counters or ids than timestamps. */
const EPOCH_MIN_S = 946_684_800;
const EPOCH_MAX_S = 4_102_444_800;
const YEAR_MIN = 1970;
const YEAR_MAX = 2100;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysIn = (y: number, m: number) => (m === 2 && (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)) ? 29 : DAYS_IN_MONTH[m - 1]);

/** Wall-clock milliseconds (as if UTC) of a calendar date and time, or NaN when any part is out of range. */
export function wallMs(y: number, mo: number, d: number, h: number, mi: number, s: number, frac: string | undefined, ampm: string | undefined): number {
  if (y < YEAR_MIN || y > YEAR_MAX || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo)) return NaN;
  if (ampm !== undefined) {
    if (h < 1 || h > 12) return NaN;
    h = (h % 12) + ((ampm.charCodeAt(0) | 32) === 112 ? 12 : 0);
  }
  // 24:00 is how some loggers label the end of the day; Date.UTC rolls it to the next midnight.
  if (h > 24 || mi > 59 || s > 59 || (h === 24 && (mi > 0 || s > 0))) return NaN;
  const ms = frac === undefined ? 0 : Math.round(Number(`0.${frac}`) * 1000);
  return Date.UTC(y, mo - 1, d, h, mi, s, ms);
}

function offsetMinutes(zone: string): number {
  const z = zone.toUpperCase();
  if (z === 'Z' || z === 'UTC' || z === 'GMT') return 0;
  const sign = z.charCodeAt(0) === 45 ? -1 : 1;
  const digits = z.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + (digits.length > 2 ? Number(digits.slice(2, 4)) : 0));
}

/**
 * Reads one timestamp cell (and an optional separate time cell) into `a` (and, for an undecided
 * day/month order, `b` = the month-first reading). `absolute` says the value is already UTC (offset,
 * `Z` or epoch); otherwise it is wall-clock time to be resolved in the file's zone.
 */
export class TimestampReader {
  a = NaN;
  b = NaN;
  absolute = false;
  dstMark = false;
  problem = '';
  private readonly pattern: RegExp | undefined;

  constructor(readonly format: TimestampFormat) {
    this.pattern = format.family === 'epoch' ? undefined : PATTERNS[format.family];
  }

  read(cell: string, timeCell?: string): boolean {
    this.b = NaN;
    this.absolute = false;
    this.dstMark = false;
    const { family } = this.format;
    if (family === 'epoch') return this.readEpoch(cell);
    const m = this.pattern!.exec(cell);
    if (m === null) {
      this.problem = cell === '' ? 'empty timestamp' : `timestamp "${cell}" not recognised`;
      return false;
    }
    let h = m[4] === undefined ? 0 : +m[4];
    let mi = m[5] === undefined ? 0 : +m[5];
    let s = m[6] === undefined ? 0 : +m[6];
    let frac = m[7];
    let ampm = m[8];
    if (timeCell !== undefined) {
      const t = TIME_ONLY.exec(timeCell);
      if (t === null) {
        this.problem = `time "${timeCell}" not recognised`;
        return false;
      }
      h = +t[1];
      mi = +t[2];
      s = t[3] === undefined ? 0 : +t[3];
      frac = t[4];
      ampm = t[5];
    }
    const p1 = +m[1];
    const p2 = +m[2];
    const p3 = +m[3];
    if (family === 'iso' || family === 'ymd-slash') this.a = wallMs(p1, p2, p3, h, mi, s, frac, ampm);
    else if (family === 'dmy-dot') this.a = wallMs(p3, p2, p1, h, mi, s, frac, ampm);
    else {
      const order = this.format.order;
      this.a = order === 'mdy' ? wallMs(p3, p1, p2, h, mi, s, frac, ampm) : wallMs(p3, p2, p1, h, mi, s, frac, ampm);
      if (order === 'ambiguous') this.b = wallMs(p3, p1, p2, h, mi, s, frac, ampm);
      if (this.a !== this.a && this.b !== this.b) {
        this.problem = `"${cell}" is not a valid date and time`;
        return false;
      }
      if (order === 'ambiguous') {
        this.finishZone(m);
        return true;
      }
    }
    if (this.a !== this.a) {
      this.problem = `"${timeCell === undefined ? cell : `${cell} ${timeCell}`}" is not a valid date and time`;
      return false;
    }
    this.finishZone(m);
    return true;
  }

  private finishZone(m: RegExpExecArray): void {
    if (m[9] !== undefined) {
      const shift = offsetMinutes(m[9]) * 60_000;
      this.a -= shift;
      this.b -= shift;
      this.absolute = true;
    }
    this.dstMark = m[10] !== undefined;
  }

  private readEpoch(cell: string): boolean {
    const m = EPOCH.exec(cell);
    const n = m === null ? NaN : +cell;
    // Seconds and milliseconds overlap nowhere in 2000-2100, so the magnitude decides per value.
    const ms = n >= EPOCH_MIN_S * 1000 ? n : n * 1000;
    if (!(ms >= EPOCH_MIN_S * 1000 && ms <= EPOCH_MAX_S * 1000)) {
      this.problem = `timestamp "${cell}" not recognised`;
      return false;
    }
    this.a = Math.round(ms);
    this.absolute = true;
    return true;
  }
}

export function isEpochLike(cell: string): boolean {
  if (!EPOCH.test(cell)) return false;
  const n = +cell;
  const s = n >= EPOCH_MIN_S * 1000 ? n / 1000 : n;
  return s >= EPOCH_MIN_S && s <= EPOCH_MAX_S;
}

/** The format that reads the most sample cells, with how many it read. Slash dates get their order from values above 12. */
export function detectTimestampFormat(cells: string[]): { format: TimestampFormat; matched: number } | undefined {
  let best: { format: TimestampFormat; matched: number } | undefined;
  for (const family of Object.keys(PATTERNS) as (keyof typeof PATTERNS)[]) {
    const pattern = PATTERNS[family];
    let matched = 0;
    let withTime = 0;
    let firstOver12 = 0;
    let secondOver12 = 0;
    for (const cell of cells) {
      const m = pattern.exec(cell);
      if (m === null) continue;
      if (family === 'slash') {
        const a = +m[1];
        const b = +m[2];
        if (a > 12) firstOver12++;
        if (b > 12) secondOver12++;
      }
      const reader = new TimestampReader({ family, order: family === 'slash' ? 'ambiguous' : undefined, hasTime: true });
      if (!reader.read(cell)) continue;
      matched++;
      if (m[4] !== undefined) withTime++;
    }
    if (matched === 0 || (best && best.matched >= matched)) continue;
    const order: DateOrder | undefined = family !== 'slash' ? undefined : firstOver12 > secondOver12 ? 'dmy' : secondOver12 > firstOver12 ? 'mdy' : 'ambiguous';
    best = { format: { family, order, hasTime: withTime > 0 }, matched };
  }
  const epochs = cells.filter(isEpochLike).length;
  if (epochs > 0 && (!best || epochs > best.matched)) best = { format: { family: 'epoch', hasTime: true }, matched: epochs };
  return best;
}

export function isTimestampLike(cell: string): boolean {
  if (isEpochLike(cell)) return true;
  for (const pattern of Object.values(PATTERNS)) if (pattern.test(cell)) return true;
  return false;
}

export function isTimeOnly(cell: string): boolean {
  const m = TIME_ONLY.exec(cell);
  return m !== null && +m[1] <= 24 && +m[2] <= 59;
}

/** How a format reads, for notes: "DD.MM.YYYY HH:mm", "MM/DD/YYYY", ... */
export function describeFormat(format: TimestampFormat, order?: DateOrder): string {
  const time = format.hasTime ? ' HH:mm' : '';
  switch (format.family) {
    case 'iso':
      return `YYYY-MM-DD${time}`;
    case 'ymd-slash':
      return `YYYY/MM/DD${time}`;
    case 'dmy-dot':
      return `DD.MM.YYYY${time}`;
    case 'epoch':
      return 'Unix epoch';
    case 'slash':
      return `${(order ?? format.order) === 'mdy' ? 'MM/DD/YYYY' : 'DD/MM/YYYY'}${time}`;
  }
}

/** No zone has moved its offset twice within 14 hours of one instant, so ±14 h brackets any transition. */
const BRACKET = 14 * HOUR_MS;
const MIXED = Number.NaN;

/**
 * Maps wall-clock milliseconds to UTC in one IANA zone. A local day whose offset is the same 14 hours
 * either side is mapped with one subtraction (cached per day). On a transition day the instant of the
 * change is found once by bisection, and each wall time is then checked against it: luxon (whose zone
 * lookups go through Intl and cost microseconds) is called about 20 times per transition, not per row.
 * `resolve` returns how many instants show that wall time: 0 (spring gap), 1, or 2 (the repeated autumn
 * hour: `early` is the first occurrence, `late` the second).
 */
export class LocalTimeResolver {
  early = NaN;
  late = NaN;
  private readonly zone: IANAZone | undefined;
  private readonly dayOffset = new Map<number, number>();
  private readonly transitions = new Map<number, { at: number; before: number; after: number }>();

  constructor(readonly zoneName: string) {
    this.zone = zoneName.toUpperCase() === 'UTC' ? undefined : IANAZone.create(zoneName);
  }

  static isValidZone(name: string): boolean {
    return name.toUpperCase() === 'UTC' || IANAZone.isValidZone(name);
  }

  get isUtc(): boolean {
    return this.zone === undefined;
  }

  resolve(local: number): 0 | 1 | 2 {
    const zone = this.zone;
    if (zone === undefined) {
      this.early = this.late = local;
      return 1;
    }
    const day = Math.floor(local / DAY_MS);
    let offset = this.dayOffset.get(day);
    if (offset === undefined) {
      const before = zone.offset(day * DAY_MS - BRACKET);
      const after = zone.offset((day + 1) * DAY_MS + BRACKET);
      offset = before === after ? before * 60_000 : MIXED;
      this.dayOffset.set(day, offset);
    }
    if (offset === offset) {
      this.early = this.late = local - offset;
      return 1;
    }
    let transition = this.transitions.get(day);
    if (transition === undefined) {
      transition = findTransition(zone, day * DAY_MS - BRACKET, (day + 1) * DAY_MS + BRACKET);
      this.transitions.set(day, transition);
    }
    const t1 = local - transition.before;
    const t2 = local - transition.after;
    const ok1 = t1 < transition.at;
    const ok2 = t2 >= transition.at;
    if (ok1 && ok2) {
      this.early = Math.min(t1, t2);
      this.late = Math.max(t1, t2);
      return 2;
    }
    if (ok1 || ok2) {
      this.early = this.late = ok1 ? t1 : t2;
      return 1;
    }
    return 0;
  }
}

/** The first second at which the zone's offset differs from its offset at `from` (offsets in ms). */
function findTransition(zone: IANAZone, from: number, to: number): { at: number; before: number; after: number } {
  const before = zone.offset(from);
  const after = zone.offset(to);
  let lo = from;
  let hi = to;
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (zone.offset(mid) === before) lo = mid;
    else hi = mid;
  }
  return { at: hi, before: before * 60_000, after: after * 60_000 };
}

/**
 * Units named in headers ("Power (W)", "power_kw", "Energy [Wh]", "Active power(kW)", a separate units
 * row "[Wh]") and numbers as vendors write them (decimal commas, thousands separators, "NaN").
 */

export type UnitKind = 'power' | 'energy' | 'reactive_power' | 'reactive_energy' | 'apparent_power' | 'apparent_energy' | 'irradiance' | 'temperature' | 'ratio' | 'other';

export interface Unit {
  /** Canonical spelling, for reporting: W, kW, MW, Wh, kWh, MWh, kvar, kvarh, kVA, W/m2, C, F, %... */
  symbol: string;
  kind: UnitKind;
  /** Multiply a value in this unit by `factor` to get the canonical unit of its kind (kW, kWh, kvar, kvarh, kVA, kVAh, W/m2, C). */
  factor: number;
}

// Lower-cased tokens. "mw" is read as megawatt: milliwatts never appear in meter exports, and some
// portals write "mW" for MW (SMA Sunny Portal scale switches, as noted by Sunny Portal CSV converters).
const UNITS: Record<string, Unit> = {
  w: { symbol: 'W', kind: 'power', factor: 0.001 },
  kw: { symbol: 'kW', kind: 'power', factor: 1 },
  mw: { symbol: 'MW', kind: 'power', factor: 1000 },
  gw: { symbol: 'GW', kind: 'power', factor: 1e6 },
  wh: { symbol: 'Wh', kind: 'energy', factor: 0.001 },
  kwh: { symbol: 'kWh', kind: 'energy', factor: 1 },
  mwh: { symbol: 'MWh', kind: 'energy', factor: 1000 },
  gwh: { symbol: 'GWh', kind: 'energy', factor: 1e6 },
  var: { symbol: 'var', kind: 'reactive_power', factor: 0.001 },
  kvar: { symbol: 'kvar', kind: 'reactive_power', factor: 1 },
  mvar: { symbol: 'Mvar', kind: 'reactive_power', factor: 1000 },
  varh: { symbol: 'varh', kind: 'reactive_energy', factor: 0.001 },
  kvarh: { symbol: 'kvarh', kind: 'reactive_energy', factor: 1 },
  mvarh: { symbol: 'Mvarh', kind: 'reactive_energy', factor: 1000 },
  va: { symbol: 'VA', kind: 'apparent_power', factor: 0.001 },
  kva: { symbol: 'kVA', kind: 'apparent_power', factor: 1 },
  mva: { symbol: 'MVA', kind: 'apparent_power', factor: 1000 },
  vah: { symbol: 'VAh', kind: 'apparent_energy', factor: 0.001 },
  kvah: { symbol: 'kVAh', kind: 'apparent_energy', factor: 1 },
  'w/m2': { symbol: 'W/m2', kind: 'irradiance', factor: 1 },
  wm2: { symbol: 'W/m2', kind: 'irradiance', factor: 1 },
  'kw/m2': { symbol: 'kW/m2', kind: 'irradiance', factor: 1000 },
  '°c': { symbol: 'C', kind: 'temperature', factor: 1 },
  degc: { symbol: 'C', kind: 'temperature', factor: 1 },
  c: { symbol: 'C', kind: 'temperature', factor: 1 },
  '°f': { symbol: 'F', kind: 'temperature', factor: 1 },
  degf: { symbol: 'F', kind: 'temperature', factor: 1 },
  '%': { symbol: '%', kind: 'ratio', factor: 0.01 },
  v: { symbol: 'V', kind: 'other', factor: 1 },
  a: { symbol: 'A', kind: 'other', factor: 1 },
  hz: { symbol: 'Hz', kind: 'other', factor: 1 },
  ohm: { symbol: 'Ohm', kind: 'other', factor: 1 },
  kohm: { symbol: 'kOhm', kind: 'other', factor: 1 },
};

/** The value-column units the JSON form accepts (SPEC 4.1 data_points.unit). */
export const SERIES_UNITS = ['w', 'kw', 'mw', 'wh', 'kwh', 'mwh'] as const;

function normaliseUnitToken(token: string): string {
  return token
    .trim()
    .toLowerCase()
    .replace(/℃/g, '°c')
    .replace(/℉/g, '°f')
    .replace(/²|㎡/g, (m) => (m === '㎡' ? 'm2' : '2'))
    .replace(/\s+/g, '')
    .replace(/^\[|\]$/g, '');
}

export function unitOf(token: string | undefined): Unit | undefined {
  if (!token) return undefined;
  return UNITS[normaliseUnitToken(token)];
}

/**
 * The unit a header names: the last bracketed unit ("Power (W)", "PAC [W]", "Active power(kW)",
 * "Irradiance(W/㎡)"), else a trailing token ("power_kw", "Leistung kW", "temp_c").
 */
export function unitInHeader(header: string): Unit | undefined {
  const bracketed = [...header.matchAll(/[([]([^()[\]]*)[)\]]/g)].map((m) => m[1]);
  for (let i = bracketed.length - 1; i >= 0; i--) {
    const unit = unitOf(bracketed[i]);
    if (unit) return unit;
  }
  const withoutBrackets = header.replace(/[([][^()[\]]*[)\]]/g, ' ');
  const tokens = withoutBrackets.split(/[\s_\-.:|,]+/).filter(Boolean);
  const last = tokens[tokens.length - 1];
  // A single-letter trailing token is too weak ("Phase A", "Meter C"): accept it only after "_" ("temp_c").
  if (last && (last.length > 1 || /_[a-z]$/i.test(withoutBrackets.trim()))) return unitOf(last);
  return undefined;
}

/** A units-row cell: a unit ("kWh", "[Wh]") or a date pattern ("dd.MM.yyyy HH:mm:ss", "[dd.MM.yyyy HH:mm]"). */
export function isUnitsCell(cell: string): boolean {
  const c = cell.trim();
  if (c === '') return true;
  if (unitOf(c)) return true;
  return /^\[?(dd|d|mm|yyyy|yy|hh)[.\-/ ]/i.test(c) || /^\[?[dmyhs.:\-/ ]+\]?$/i.test(c);
}

const MISSING = new Set(['', 'nan', 'null', 'none', 'n/a', 'na', '-', '--', '---', '#wert!', '#value!', '#n/a', 'inf', '-inf']);

export function isMissing(cell: string): boolean {
  return MISSING.has(cell.trim().toLowerCase());
}

const THOUSANDS_COMMA = /^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/;
const THOUSANDS_DOT = /^[+-]?\d{1,3}(\.\d{3})+(,\d+)?$/;
const WITH_UNIT_SUFFIX = /^([+-]?[\d.,]+(?:[eE][+-]?\d+)?)\s*([a-zA-Z%°/²㎡℃]+\d?)$/;

/**
 * A number as written in the file, or NaN. With `decimalComma`, "1,5" is 1.5 and "1.234,5" is 1234.5;
 * otherwise "1,104" is 1104 (thousands, as Enphase Enlighten reports write in quoted fields).
 * Strings without a comma are read as plain numbers in both modes.
 */
export function parseNumber(cell: string, decimalComma: boolean): number {
  if (!decimalComma || cell.indexOf(',') === -1) {
    const n = plainNumber(cell);
    if (n === n) return n;
  }
  return parseNumberSlow(cell.trim(), decimalComma);
}

/** `+cell`, minus what JavaScript accepts but a meter never writes: "" and " " (0), hex, binary, octal, Infinity. */
function plainNumber(cell: string): number {
  const n = +cell;
  if (n !== n || n === Infinity || n === -Infinity) return NaN;
  if (cell.charCodeAt(0) === 48 && cell.length > 2) {
    const c1 = cell.charCodeAt(1) | 32;
    if (c1 === 120 || c1 === 98 || c1 === 111) return NaN;
  }
  if (n === 0) return /\d/.test(cell) ? 0 : NaN;
  return n;
}

function parseNumberSlow(cell: string, decimalComma: boolean): number {
  if (isMissing(cell)) return NaN;
  let s = cell;
  // "2.5 kW": a value written with its unit (but not "3 Fault").
  const suffixed = WITH_UNIT_SUFFIX.exec(s);
  if (suffixed) {
    if (!unitOf(suffixed[2])) return NaN;
    s = suffixed[1];
  }
  if (/^0x/i.test(s)) return NaN;
  if (decimalComma) {
    if (s.indexOf(',') !== -1) s = THOUSANDS_DOT.test(s) || s.indexOf('.') !== -1 ? s.replace(/\./g, '').replace(',', '.') : s.replace(',', '.');
  } else if (s.indexOf(',') !== -1) {
    if (!THOUSANDS_COMMA.test(s)) return NaN;
    s = s.replace(/,/g, '');
  }
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return NaN;
  return +s;
}

/** Whether a cell looks numeric in either convention (used while the convention is still unknown). */
export function looksNumeric(cell: string): boolean {
  return /^\s*[+-]?(\d[\d.,]*|[.,]\d+)([eE][+-]?\d+)?\s*$/.test(cell);
}

/**
 * Decimal convention of a file from sample numeric cells. A comma followed by other than three digits
 * ("1,5", "0,25") or European grouping ("1.234,5") means decimal comma; "1,234.5" means decimal point.
 * Cells like "1,104" fit both: semicolon and tab files (European Excel) read them as decimals, comma
 * files as thousands.
 */
export function detectDecimalComma(cells: string[], delimiter: string): boolean {
  let comma = 0;
  let point = 0;
  let ambiguous = 0;
  for (const raw of cells) {
    const c = raw.trim();
    if (!looksNumeric(c)) continue;
    if (/^[+-]?\d+,(\d{1,2}|\d{4,})$/.test(c) || (THOUSANDS_DOT.test(c) && c.indexOf(',') !== -1)) comma++;
    else if (/^[+-]?\d{1,3}(,\d{3})+\.\d+$/.test(c) || (/^[+-]?\d*\.\d+$/.test(c) && !THOUSANDS_DOT.test(c))) point++;
    else if (/^[+-]?\d{1,3}(,\d{3})+$/.test(c)) ambiguous++;
  }
  if (comma > 0 && comma >= point) return true;
  if (point > 0) return false;
  return ambiguous > 0 ? delimiter !== ',' : delimiter === ';';
}

/**
 * The standardised form of an uploaded meter or inverter series (ARCHITECTURE 5, flow 1): UTC instants,
 * power in kW and energy per interval in kWh, plus the optional channels the spec names (SPEC 4.2).
 */

export const MANUFACTURERS = ['sma', 'fronius', 'solaredge', 'enphase', 'huawei', 'generic'] as const;
export type Manufacturer = (typeof MANUFACTURERS)[number];

export const CHANNELS = ['kvarh', 'kva', 'pf', 'temperature_c', 'irradiance_wm2'] as const;
export type Channel = (typeof CHANNELS)[number];

export type Delimiter = ',' | ';' | '\t';

/** One interval. `t` is epoch milliseconds UTC; null means the value could not be derived (a counter's first reading). */
export interface StandardRow {
  t: number;
  power_kw: number | null;
  energy_kwh: number | null;
  channels?: Partial<Record<Channel, number>>;
}

export type ValueKind = 'power' | 'energy' | 'cumulative_energy';

export interface StandardisedFile {
  /** As given by the caller (slugged), else as detected. */
  manufacturer: string;
  detectedManufacturer: Manufacturer;
  delimiter: string;
  columns: {
    timestamp: string;
    value: string;
    valueKind: ValueKind;
    /** The source unit of the value column: W, kW, MW, Wh, kWh or MWh. */
    unit: string;
    channels: Record<string, string>;
  };
  intervalMinutes: number;
  rows: StandardRow[];
  /** Data rows read (preamble, header, empty and summary lines excluded). */
  rowsRead: number;
  rowsRejected: number;
  duplicatesMerged: number;
  offGridRows: number;
  /** The first few reasons, each naming its line (or data point). */
  rejectReasons: string[];
  /** Assumptions made while reading (units inferred, date order chosen, counters detected...). */
  notes: string[];
  /** ISO 8601 UTC with `Z`. */
  start: string | null;
  end: string | null;
}

export interface StandardiseOptions {
  /** Recorded as given (slugged); parsing still follows what the content shows. */
  manufacturer?: string;
  /** IANA zone for timestamps written without an offset; default UTC. */
  timezone?: string;
  /** Nameplate capacity, used to tell W from kW when the header names no unit. */
  capacityKw?: number;
}

/**
 * The two PV data sets of ../shared/data/solar (its README gives sources and licences) on one convention: `t` is
 * the start of the 15-minute interval whose mean power `kw` is, and each weather feed is a list of rows with the
 * instant its value stands for, so that how a feed is labelled stays a choice made (and measured) in the bench.
 *  - NREL SERF East, Golden CO (PVDAQ system 50): AC power in W, stamps at the end of their interval (pvanalytics'
 *    data notes; checked in ./labelling.ts), driven by NSRDB PSM3 satellite irradiance: observed weather used as
 *    the forecast ("perfect prognosis"), so its scores are an upper bound on a weather-driven forecast.
 *  - PVOD station01, Hebei (Yao et al. 2021): power in kW, stamps at the middle of their interval (the README's
 *    centroid check, repeated in ./labelling.ts), driven by the data set's own NWP: a real forecast.
 */
import { readFileSync } from 'node:fs';
import { regularise } from '../../shared/domain/forecasting/regularise';
import type { PvPlace } from '../../shared/domain/pv/infer-specs';
import { dataFile, numbers, parseTime, readCsv, readCsvColumns } from '../shared-data';

export const STEP_MINUTES = 15;
export const STEP_MS = STEP_MINUTES * 60_000;

/** One feed row: the instant its values stand for, as read from the file's stamp. */
export interface FeedRow {
  stamp: number;
  ghiWm2: number;
  /** PVOD's NWP direct irradiance, W/m2: on the horizontal plane, as ./labelling.ts checks (directColumnEvidence). */
  directHorizontalWm2?: number;
  tempAirC?: number;
  windSpeedMs?: number;
  /** The source's own clear-sky GHI (PSM3), for the timing check only. */
  clearSkyGhiWm2?: number;
}

/** What is known of a system: orientation always, size where the data set publishes it. */
export interface KnownSpecs {
  tiltDeg: number;
  azimuthDeg: number;
  /** DC nameplate, kWp; undefined where unknown (SERF East). */
  capacityKwp?: number;
  inverterAcKw?: number;
  /** Where the specs were read. */
  source: string;
}

export interface PvBenchSet {
  key: 'serf' | 'pvod';
  name: string;
  source: string;
  /** How the weather over the horizon relates to a real forecast. */
  feedKind: string;
  /** True when the feed is observed weather used as a forecast (scores are an upper bound). */
  perfectPrognosis: boolean;
  place: PvPlace;
  known: KnownSpecs;
  /** Offset of the local standard time from UTC, hours: origins are at its midnights. */
  utcOffsetHours: number;
  /** Regular 15-minute grid of interval starts (epoch ms) and mean AC power, kW (NaN where missing). */
  t: number[];
  kw: number[];
  feed: FeedRow[];
  /** The first `tuneDays` local days are TUNE (every choice is made there), the rest REPORT. */
  tuneDays: number;
  /** Caveats the report repeats. */
  notes: string[];
}

/** NREL SERF East (pvanalytics' orientation example: tilt 45, azimuth 158); DC capacity not published. */
export const SERF_EAST: Pick<PvBenchSet, 'place' | 'known'> = {
  place: { latitude: 39.742, longitude: -105.1727, elevationM: 1730 },
  known: { tiltDeg: 45, azimuthDeg: 158, source: "pvanalytics' system-orientation example for PVDAQ system 50; DC capacity unknown" },
};

/** SERF East: the first 45 of its 104 days are TUNE. */
export const SERF_TUNE_DAYS = 45;
/** PVOD: the first four months (July to October 2018) are TUNE. */
export const PVOD_TUNE_DAYS = 123;

/** SERF East's power (W to kW) on its interval starts, and PSM3 GHI and air temperature at their stamps. */
export function serfEastSet(): PvBenchSet {
  const rows = readCsv('solar/serf_east_15min_ac_power.csv').filter((r) => r.length >= 2 && r[1] !== '');
  // Stamps close their interval: the interval starts a step earlier.
  const series = regularise(rows.map(([ts, v]) => ({ t: parseTime(ts) - STEP_MS, value: Number(v) / 1000 })));
  const feed: FeedRow[] = readCsv('solar/serf_east_psm3_data.csv').map((r) => ({ stamp: parseTime(r[0]), ghiWm2: Number(r[10]), tempAirC: Number(r[7]), clearSkyGhiWm2: Number(r[9]) }));
  return {
    key: 'serf',
    name: 'NREL SERF East',
    source: 'NREL PVDAQ system 50 AC power and NSRDB PSM3 weather, as shipped in pvlib/pvanalytics (MIT)',
    feedKind: 'PSM3 satellite-derived GHI and air temperature over the horizon: observed weather as the forecast (perfect prognosis), an UPPER BOUND',
    perfectPrognosis: true,
    ...SERF_EAST,
    utcOffsetHours: -7,
    t: series.t,
    kw: series.y,
    feed,
    tuneDays: SERF_TUNE_DAYS,
    notes: ['Night values are slightly negative (inverter self-consumption); they are kept, and the daylight mask leaves them out.', 'PSM3 gives no wind: the model assumes 1 m/s.'],
  };
}

interface PvodMetadata {
  latitude: number;
  longitude: number;
  array_tilt_deg: number;
  array_azimuth_deg: number;
  dc_capacity_kwp_from_modules: number;
  capacity_kw_as_published: number;
}

/** PVOD station01's power on its interval starts (stamps are middles) and its NWP feed at the stamps. */
export function pvodStation01Set(elevationM: number, elevationNote: string): PvBenchSet {
  const meta = JSON.parse(readFileSync(dataFile('solar/pvod_station01_metadata.json'), 'utf8')) as PvodMetadata;
  const c = readCsvColumns('solar/pvod_station01_15min.csv');
  const stamps = c.timestamp.map((s) => Date.parse(s));
  const power = numbers(c.power_kw);
  const series = regularise(stamps.map((s, i) => ({ t: s - STEP_MS / 2, value: power[i] })).filter((p) => Number.isFinite(p.value)));
  const [ghi, direct, temp, wind] = [numbers(c.ghi_nwp_wm2), numbers(c.direct_irr_nwp_wm2), numbers(c.temp_air_nwp_c), numbers(c.wind_speed_nwp_ms)];
  const feed: FeedRow[] = stamps.map((stamp, i) => ({ stamp, ghiWm2: ghi[i], directHorizontalWm2: direct[i], tempAirC: temp[i], windSpeedMs: wind[i] }));
  return {
    key: 'pvod',
    name: 'PVOD station01',
    source: 'PVOD v1.0 station01 (Yao et al., Solar Energy 230:122-130, 2021), 15 min, with its metadata',
    feedKind: "the data set's own NWP (GHI, direct irradiance, air temperature, wind speed): a REAL day-ahead forecast",
    perfectPrognosis: false,
    place: { latitude: meta.latitude, longitude: meta.longitude, elevationM },
    known: {
      tiltDeg: meta.array_tilt_deg,
      azimuthDeg: meta.array_azimuth_deg,
      capacityKwp: meta.dc_capacity_kwp_from_modules,
      inverterAcKw: meta.capacity_kw_as_published,
      source: `PVOD metadata: ${meta.dc_capacity_kwp_from_modules} kWp DC (74,000 x 270 Wp), ${meta.capacity_kw_as_published} kW AC, tilt ${meta.array_tilt_deg}, azimuth ${meta.array_azimuth_deg}`,
    },
    utcOffsetHours: 8,
    t: series.t,
    kw: series.y,
    feed,
    tuneDays: PVOD_TUNE_DAYS,
    notes: [`Elevation: ${elevationNote}.`],
  };
}

/**
 * Every forecasting data set of ../shared/data (its README gives sources, licences and time handling) as
 * regular series with the exogenous arrays under the names the members read, each labelled TUNE or REPORT by
 * the lead's fixed split, with its rolling origins, horizon and the history a user would send at each origin.
 */
import { readFileSync } from 'node:fs';
import { regularise } from '../../shared/domain/forecasting/regularise';
import { stepsPerDay, type Exogenous, type FitContext, type RegularSeries, type SeriesKind } from '../../shared/domain/forecasting/types';
import { dataFile, numbers, parseTime, readCsv, readCsvColumns, SERF_EAST_SITE, serfEastPsm3 } from '../shared-data';
import { hourStarts, localMidnights, spreadOrigins } from './origins';

export type Role = 'TUNE' | 'REPORT';
export type AccuracyKind = Extract<SeriesKind, 'load' | 'price' | 'solar' | 'wind'>;
export const ACCURACY_KINDS: readonly AccuracyKind[] = ['load', 'solar', 'wind', 'price'];

export interface AccuracySet {
  /** Data set and series, e.g. 'gefcom2012 load_zone01_kw'. */
  name: string;
  kind: AccuracyKind;
  role: Role;
  /** What the forecaster is given beyond the history, e.g. 'history only', 'NWP wind speed'. */
  variant: string;
  source: string;
  series: RegularSeries;
  /** Kind, zone, country, coordinates: what a user states in a request. */
  context: FitContext;
  /** Exogenous arrays aligned with the series. */
  exogenous?: Exogenous;
  /** Names of `exogenous` known over the horizon (forecasts); the others are history only. */
  futureNames?: readonly string[];
  origins: number[];
  horizonSteps: number;
  /** Steps of history sent at each origin (fewer where the series starts later). */
  historySteps: number;
  /** Load sets: the R peers run on them. */
  rPeers?: boolean;
}

export interface OriginCounts {
  load: number;
  solar: number;
  wind: number;
  price: number;
  /**
   * Nord Pool's 2017-18 test period with its fundamentals on every one of its 728 days, whatever `price` says: the
   * target and the published LEAR figure it is set against (Lago et al. 2021) are over the whole period, and spread
   * subsets of it swing: LEAR's rMAE there was 0.517 on 14 days, 0.433 on 56 and 0.542 on all 728. With fundamentals
   * the engine's forecast is LEAR's, and a day's folds are the day before's but one, held by LEAR's window cache: about
   * 1.2 s a day, 16 minutes on one worker.
   */
  nordPoolTestEveryDay: boolean;
}

/**
 * Default origins per set: 28 days for load, 56 days for prices, 120 six-hour origins for wind; solar every day SERF
 * East holds after its first 28 (75) and 154 of PVOD's year (twice the count). Solar's coverage is judged per season
 * and third of the day, and a cell's misses come from the few cloudy days in it: on 28 and 56 days, each cell's misses
 * were a handful of days' (PVOD with its NWP read 0.785 in winter on 56 days, 0.899 on 154).
 */
export const DEFAULT_ORIGINS: OriginCounts = { load: 28, solar: 77, wind: 120, price: 56, nordPoolTestEveryDay: true };
export const QUICK_ORIGINS: OriginCounts = { load: 8, solar: 8, wind: 24, price: 8, nordPoolTestEveryDay: false };
/** `full`: every candidate origin (NP's test period: all its days). */
export const FULL_ORIGINS: OriginCounts = { load: Infinity, solar: Infinity, wind: 1000, price: Infinity, nordPoolTestEveryDay: true };

const col = (c: Record<string, string[]>, name: string) => {
  const values = c[name];
  if (!values) throw new Error(`no column ${name}`);
  return values;
};
const isoTimes = (cells: readonly string[]) => cells.map((s) => Date.parse(s.endsWith('Z') || /[+-]\d\d:\d\d$/.test(s) ? s : `${s.replace(' ', 'T')}Z`));
const fahrenheitToCelsius = (f: number) => ((f - 32) * 5) / 9;
const pad = (n: number) => String(n).padStart(2, '0');
const indexAt = (series: RegularSeries, iso: string) => Math.round((Date.parse(iso) - series.t[0]) / (series.stepMinutes * 60_000));

function regular(t: readonly number[], y: readonly number[]): RegularSeries {
  const stepMs = t[1] - t[0];
  for (let i = 1; i < t.length; i++) if (t[i] - t[i - 1] !== stepMs) throw new Error(`irregular step at ${new Date(t[i]).toISOString()}`);
  return { t: [...t], y: [...y], stepMinutes: stepMs / 60_000 };
}

/** Day-ahead origins: local midnights leaving `minHistoryDays` before and a day after, `count` of them spread evenly. */
function dayOrigins(series: RegularSeries, timezone: string, minHistoryDays: number, count: number, from = 0, to = series.t.length - 1): number[] {
  const perDay = stepsPerDay(series.stepMinutes);
  const candidates = localMidnights(series, timezone, Math.max(from, minHistoryDays * perDay), Math.min(to, series.t.length - perDay));
  return spreadOrigins(candidates, count, 7);
}

function loadSets(counts: OriginCounts): AccuracySet[] {
  const sets: AccuracySet[] = [];
  const taylor = readCsv('load/taylor_2000_first8weeks.csv');
  const taylorSeries = regular(
    taylor.map(([ts]) => Date.parse(ts)),
    taylor.map(([, v]) => Number(v)),
  );
  // Eight weeks only: origins on the last 28 days, each with all the weeks before it (28 to 55 days).
  sets.push({
    name: 'taylor england-wales demand',
    kind: 'load',
    role: 'REPORT',
    variant: 'history only',
    source: 'Taylor (2003), R forecast::taylor, half-hourly MW',
    series: taylorSeries,
    context: { kind: 'load', timezone: 'UTC', country: 'GB' },
    origins: dayOrigins(taylorSeries, 'UTC', 28, counts.load),
    horizonSteps: 48,
    historySteps: 56 * 48,
    rPeers: true,
  });
  const g = readCsvColumns('load/gefcom2012_load_temperature_hourly.csv');
  const t = isoTimes(col(g, 'timestamp'));
  const stations = Array.from({ length: 11 }, (_, k) => numbers(col(g, `temp_station${pad(k + 1)}_degf`)));
  // Zones are not matched to stations by the source: the stations' mean, observed, serves every zone.
  const temperature = t.map((_, i) => fahrenheitToCelsius(stations.reduce((s, st) => s + st[i], 0) / stations.length));
  const columns = ['load_total_kw', ...Array.from({ length: 20 }, (_, k) => `load_zone${pad(k + 1)}_kw`)];
  for (const name of columns) {
    const series = regular(t, numbers(col(g, name)));
    const zone = Number(/zone(\d+)/.exec(name)?.[1] ?? 0);
    const base = {
      kind: 'load' as const,
      role: (zone >= 1 && zone <= 10 ? 'TUNE' : 'REPORT') as Role,
      source: 'GEFCom2012 load track (Hong, Pinson & Fan 2014), hourly kW',
      series,
      context: { kind: 'load' as const, timezone: 'UTC', country: 'US' },
      origins: dayOrigins(series, 'UTC', 56, counts.load),
      horizonSteps: 24,
      historySteps: 56 * 24,
    };
    sets.push({ ...base, name: `gefcom2012 ${name}`, variant: 'history only', rPeers: true });
    // Observed temperature over the horizon is a perfect weather forecast: an upper bound, on the total only.
    if (name === 'load_total_kw') sets.push({ ...base, name: `gefcom2012 ${name}`, variant: 'observed temperature (perfect forecast)', exogenous: { temperature_c: temperature }, futureNames: ['temperature_c'] });
  }
  return sets;
}

/** History for prices: as many years as the set has before the origin, up to 4 (and LEAR's week of lags). */
const PRICE_HISTORY_DAYS = 4 * 365 + 7;
/** Price origins leave two years of history before them, so every calibration window up to 728 days is covered. */
const PRICE_MIN_HISTORY_DAYS = 735;

function priceSets(counts: OriginCounts, full: boolean): AccuracySet[] {
  const sets: AccuracySet[] = [];
  const np = readCsvColumns('prices/NP.csv');
  const npSeries = regular(isoTimes(col(np, 'Date')), numbers(col(np, 'Price')));
  const npExogenous = { load_forecast: numbers(col(np, 'Grid load forecast')), wind_forecast: numbers(col(np, 'Wind power forecast')) };
  const belgium = readCsvColumns('prices/belgium_belpex_elia_2015_2020_hourly.csv');
  const beSeries = regular(isoTimes(col(belgium, 'timestamp')), numbers(col(belgium, 'price_eur_mwh')));
  const beExogenous = { load_forecast: numbers(col(belgium, 'load_forecast_da_mw')), solar_forecast: numbers(col(belgium, 'solar_forecast_da_mw')), wind_forecast: numbers(col(belgium, 'wind_forecast_da_mw')) };
  const periods: { market: string; series: RegularSeries; exogenous: Exogenous; timezone: string; role: Role; from: string; to: string; source: string }[] = [
    { market: 'nord pool', series: npSeries, exogenous: npExogenous, timezone: 'UTC', role: 'TUNE', from: '2013-01-01T00:00:00Z', to: '2016-12-26T00:00:00Z', source: 'epftoolbox NP (Lago et al. 2021)' },
    { market: 'nord pool', series: npSeries, exogenous: npExogenous, timezone: 'UTC', role: 'REPORT', from: '2016-12-27T00:00:00Z', to: '2018-12-24T00:00:00Z', source: 'epftoolbox NP (Lago et al. 2021)' },
    { market: 'belgium', series: beSeries, exogenous: beExogenous, timezone: 'Europe/Brussels', role: 'TUNE', from: '2014-12-31T23:00:00Z', to: '2018-12-30T23:00:00Z', source: 'Belpex price, Elia day-ahead forecasts' },
    { market: 'belgium', series: beSeries, exogenous: beExogenous, timezone: 'Europe/Brussels', role: 'REPORT', from: '2018-12-31T23:00:00Z', to: '2020-12-30T23:00:00Z', source: 'Belpex price, Elia day-ahead forecasts' },
  ];
  for (const p of periods) {
    // The full mode gives NP's test period every one of its days; other periods stay subsampled.
    const npTest = p.market === 'nord pool' && p.role === 'REPORT';
    const count = full && !npTest ? DEFAULT_ORIGINS.price * 2 : counts.price;
    const start = indexAt(p.series, p.from);
    const end = indexAt(p.series, p.to);
    const origins = dayOrigins(p.series, p.timezone, PRICE_MIN_HISTORY_DAYS, count, start, end);
    const base = { kind: 'price' as const, role: p.role, source: p.source, series: p.series, context: { kind: 'price' as const, timezone: p.timezone }, origins, horizonSteps: 24, historySteps: PRICE_HISTORY_DAYS * 24 };
    const name = `${p.market} ${p.from.slice(0, 10)}..${p.to.slice(0, 10)}`;
    const withFundamentals = npTest && counts.nordPoolTestEveryDay ? dayOrigins(p.series, p.timezone, PRICE_MIN_HISTORY_DAYS, Infinity, start, end) : origins;
    sets.push({ ...base, origins: withFundamentals, name, variant: `fundamentals (${Object.keys(p.exogenous).join(', ')})`, exogenous: p.exogenous, futureNames: Object.keys(p.exogenous) });
    sets.push({ ...base, name, variant: 'no fundamentals' });
  }
  return sets;
}

/** Solar sets keep 28 days of history before the first origin and send up to 90 (the engine's solar cap). */
const SOLAR_MIN_HISTORY_DAYS = 28;
const SOLAR_HISTORY_DAYS = 90;

function solarSets(counts: OriginCounts): AccuracySet[] {
  const sets: AccuracySet[] = [];
  const rows = readCsv('solar/serf_east_15min_ac_power.csv').filter((r) => r.length >= 2 && r[1] !== '');
  // W as published (slightly negative at night: inverter self-consumption), kept as they are.
  const serf = regularise(rows.map(([ts, v]) => ({ t: parseTime(ts), value: Number(v) })));
  const serfBase = {
    name: 'nrel serf east',
    kind: 'solar' as const,
    role: 'TUNE' as Role,
    source: 'NREL PVDAQ system 50 (pvlib/pvanalytics), 15 min W',
    series: serf,
    context: { kind: 'solar' as const, ...SERF_EAST_SITE, timezone: 'America/Denver' },
    origins: dayOrigins(serf, 'America/Denver', SOLAR_MIN_HISTORY_DAYS, counts.solar),
    horizonSteps: 96,
    historySteps: SOLAR_HISTORY_DAYS * 96,
  };
  sets.push({ ...serfBase, variant: 'history only' });
  // PSM3 is satellite-derived observation: over the horizon, a perfect irradiance forecast (an upper bound).
  sets.push({ ...serfBase, variant: 'PSM3 irradiance (observed, perfect forecast)', exogenous: serfEastPsm3(serf.t), futureNames: ['ghi_wm2', 'temperature_c'] });

  const meta = JSON.parse(readFileSync(dataFile('solar/pvod_station01_metadata.json'), 'utf8')) as { latitude: number; longitude: number };
  const p = readCsvColumns('solar/pvod_station01_15min.csv');
  const pvod = regular(isoTimes(col(p, 'timestamp')), numbers(col(p, 'power_kw')));
  const pvodBase = {
    name: 'pvod station01',
    kind: 'solar' as const,
    role: 'REPORT' as Role,
    source: 'PVOD v1.0 station01 (Yao et al. 2021), 15 min kW',
    series: pvod,
    context: { kind: 'solar' as const, latitude: meta.latitude, longitude: meta.longitude, timezone: 'Asia/Shanghai' },
    // A year: twice the origins, so each season has 14 or so.
    origins: dayOrigins(pvod, 'Asia/Shanghai', SOLAR_MIN_HISTORY_DAYS, counts.solar * 2),
    horizonSteps: 96,
    historySteps: SOLAR_HISTORY_DAYS * 96,
  };
  sets.push({ ...pvodBase, variant: 'history only' });
  // The NWP fields are genuine forecasts: sent over history and horizon alike, as a weather feed would be.
  sets.push({ ...pvodBase, variant: 'NWP irradiance (genuine forecast)', exogenous: { ghi_wm2: numbers(col(p, 'ghi_nwp_wm2')), temperature_c: numbers(col(p, 'temp_air_nwp_c')) }, futureNames: ['ghi_wm2', 'temperature_c'] });
  return sets;
}

/** Six-hour-ahead wind origins at whole hours, leaving `minHistoryDays` before them. */
function hourOrigins(series: RegularSeries, minHistoryDays: number, horizonSteps: number, count: number, last = series.t.length - 1): number[] {
  const perDay = stepsPerDay(series.stepMinutes);
  return spreadOrigins(hourStarts(series, minHistoryDays * perDay, Math.min(last, series.t.length - horizonSteps)), count, 24);
}

const WIND_HISTORY_DAYS = 56;
const WIND_HORIZON_HOURS = 6;

function windSets(counts: OriginCounts): AccuracySet[] {
  const sets: AccuracySet[] = [];
  const g = readCsvColumns('wind/gefcom2012_wind_farms_hourly.csv');
  const t = isoTimes(col(g, 'timestamp'));
  for (let farm = 1; farm <= 7; farm++) {
    const series = regular(t, numbers(col(g, `power_norm_wf${farm}`)));
    const speed = numbers(col(g, `wind_speed_nwp_wf${farm}_ms`));
    // NWP is blank after 2012-06-28 12:00: origins stop where the horizon still has it.
    let lastNwp = speed.length - 1;
    while (lastNwp > 0 && !Number.isFinite(speed[lastNwp])) lastNwp--;
    sets.push({
      name: `gefcom2012 wf${farm}`,
      kind: 'wind',
      role: farm <= 3 ? 'TUNE' : 'REPORT',
      variant: 'NWP wind speed (genuine forecast)',
      source: 'GEFCom2012 wind track (Hong, Pinson & Fan 2014), hourly, normalised power',
      series,
      context: { kind: 'wind', timezone: 'UTC' },
      exogenous: { wind_speed_ms: speed },
      futureNames: ['wind_speed_ms'],
      origins: hourOrigins(series, WIND_HISTORY_DAYS, WIND_HORIZON_HOURS, counts.wind, lastNwp - WIND_HORIZON_HOURS + 1),
      horizonSteps: WIND_HORIZON_HOURS,
      historySteps: WIND_HISTORY_DAYS * 24,
    });
  }
  const h = readCsvColumns('wind/la_haute_borne_2017-08_2018-01_10min.csv');
  const ht = isoTimes(col(h, 'timestamp'));
  for (const [turbine, role] of [['r80721', 'TUNE'], ['r80736', 'REPORT']] as const) {
    const series = regular(ht, numbers(col(h, `power_kw_${turbine}`)));
    const horizonSteps = (WIND_HORIZON_HOURS * 60) / series.stepMinutes;
    sets.push({
      name: `la haute borne ${turbine.toUpperCase()}`,
      kind: 'wind',
      role,
      variant: 'measured wind speed, history only',
      source: 'ENGIE La Haute Borne SCADA, 10 min kW',
      series,
      context: { kind: 'wind', timezone: 'UTC' },
      exogenous: { wind_speed_ms: numbers(col(h, `wind_speed_ms_${turbine}`)) },
      futureNames: [],
      // Five months only: 28 days of history before the first origin, up to 56 sent.
      origins: hourOrigins(series, 28, horizonSteps, counts.wind),
      horizonSteps,
      historySteps: WIND_HISTORY_DAYS * stepsPerDay(series.stepMinutes),
    });
  }
  return sets;
}

/** The sets of the kinds asked for, with their origins. */
export function accuracySets(kinds: readonly AccuracyKind[], counts: OriginCounts, full: boolean): AccuracySet[] {
  const loaders: Record<AccuracyKind, () => AccuracySet[]> = { load: () => loadSets(counts), solar: () => solarSets(counts), wind: () => windSets(counts), price: () => priceSets(counts, full) };
  return kinds.flatMap((k) => loaders[k]());
}


/**
 * Day-ahead evaluation of the price members and the engine on the two price sets of ../shared/data, as
 * epftoolbox evaluates LEAR (Lago, Marcjasz, De Schutter & Weron 2021, Applied Energy 293): for each test
 * day D, every method is fitted afresh on prices up to the end of D-1 (local days) and the fundamentals up
 * to the end of D, and forecasts the hours of D. Scores: MAE, sMAPE and rMAE, the MAE relative to the
 * paper's naive forecast (same hour of D-1 on Tuesday to Friday, of D-7 on Monday and the weekend).
 *
 * Sets (TUNE / REPORT split of issue 18):
 * - Nord Pool system price with its day-ahead load and wind forecasts (NP.csv, the epftoolbox data set):
 *   TUNE 2013-01-01..2016-12-26, REPORT the paper's test period 2016-12-27..2018-12-24 (published LEAR
 *   ensemble with fundamentals: MAE 1.74 EUR/MWh, sMAPE 5.0%, rMAE 0.55);
 * - Belgium, Belpex with Elia's day-ahead load, solar and wind forecasts, on Brussels days: TUNE
 *   2015..2018, REPORT 2019..2020.
 * Each is run with its fundamentals and without. `evaluatePrices` is the forecasting bench's record;
 * `evaluatePriceSet` and `readPriceSet` are what other benches (bench/accuracy) may call. Writes no files.
 *
 * Measured 2026-11-25 (`node --import tsx bench/forecasting-prices.ts NP report 13`, every 13th day: 56 days;
 * 2 cores shared with other jobs, so times are several times the idle ones). rMAE with / without fundamentals:
 * NP 2016-12-27..2018-12-24: price_lear 0.537 / 0.630 (MAE 1.764 / 2.071), price_lear_median 0.547 / 0.642,
 * naive MAE 3.286; Belgium 2019-2020 (55 days): price_lear 0.589 / 0.754, price_lear_median 0.586 / 0.747,
 * naive MAE 8.163. 660 s and 923 s.
 */
import { DateTime } from 'luxon';
import { forecastSeries } from '../shared/domain/forecasting/engine';
import { epftoolboxNaiveMember, LEAR_CALIBRATION_WINDOWS_DAYS, priceLearMedianMember, priceLearMember } from '../shared/domain/forecasting/price';
import type { Exogenous, FitContext, ForecastMember, RegularSeries } from '../shared/domain/forecasting/types';
import { numbers, readCsvColumns } from './shared-data';

/** Published LEAR ensemble on Nord Pool, test period 2016-12-27..2018-12-24 (Lago et al. 2021, table 3). */
export const PUBLISHED_NP_LEAR = { mae: 1.74, smape_percent: 5.0, rmae: 0.55 };

export type PriceSetName = 'NP' | 'BE';

export interface PriceSet {
  name: PriceSetName;
  source: string;
  timezone: string;
  series: RegularSeries;
  /** Day-ahead fundamentals aligned with the series. */
  exogenous: Exogenous;
  /** Local dates (first and last test day) of the TUNE and REPORT periods. */
  periods: Record<'tune' | 'report', [string, string]>;
}

/** The set's series and fundamentals; NP's local market hours are read as UTC labels (24 every day, as epftoolbox). */
export function readPriceSet(name: PriceSetName): PriceSet {
  if (name === 'NP') {
    const np = readCsvColumns('prices/NP.csv');
    const t = np.Date.map((s) => Date.parse(`${s.replace(' ', 'T')}Z`));
    return {
      name,
      source: 'Nord Pool system price, NP.csv (epftoolbox data set, Lago et al. 2021)',
      timezone: 'UTC',
      series: { t, y: numbers(np.Price), stepMinutes: 60 },
      exogenous: { load_forecast: numbers(np['Grid load forecast']), wind_forecast: numbers(np['Wind power forecast']) },
      periods: { tune: ['2015-01-08', '2016-12-26'], report: ['2016-12-27', '2018-12-24'] },
    };
  }
  const be = readCsvColumns('prices/belgium_belpex_elia_2015_2020_hourly.csv');
  return {
    name,
    source: 'Belgium: Belpex day-ahead price with Elia day-ahead load, solar and wind forecasts',
    timezone: 'Europe/Brussels',
    series: { t: be.timestamp.map((s) => Date.parse(s)), y: numbers(be.price_eur_mwh), stepMinutes: 60 },
    exogenous: { load_forecast: numbers(be.load_forecast_da_mw), solar_forecast: numbers(be.solar_forecast_da_mw), wind_forecast: numbers(be.wind_forecast_da_mw) },
    periods: { tune: ['2017-01-03', '2018-12-28'], report: ['2019-01-01', '2020-12-31'] },
  };
}

/** What is forecast: a member alone, or the engine's choice (`ensemble`) over the registry. */
export type PriceMethod = { name: string; member: ForecastMember } | { name: 'engine' };

export const PRICE_MEMBERS: readonly PriceMethod[] = [
  { name: epftoolboxNaiveMember.name, member: epftoolboxNaiveMember },
  { name: priceLearMember.name, member: priceLearMember },
  { name: priceLearMedianMember.name, member: priceLearMedianMember },
];

export type PriceVariant = 'fundamentals' | 'none';

export interface PriceSetOptions {
  /** Local dates of the first and last test day. */
  from: string;
  to: string;
  /** Evaluate every n-th day (n coprime with 7 rotates the weekdays). @default 1 */
  everyNthDay?: number;
  /** With the set's fundamentals over history and horizon, without, or both (on the same days). @default both */
  variants?: readonly PriceVariant[];
  /** @default PRICE_MEMBERS */
  methods?: readonly PriceMethod[];
  /** History sent before each origin, days. @default 4 years and a week, as LEAR's longest paper window */
  historyDays?: number;
  /** Extra member options (e.g. calibrationWindows). */
  options?: Record<string, unknown>;
}

export interface PriceMethodScore {
  mae: number;
  smape_percent: number;
  rmae: number;
  /** Mean fit and forecast time per day; members sharing window models (see price.ts) share the time. */
  mean_ms: number;
}

export interface PriceSetEvaluation {
  set: PriceSetName;
  from: string;
  to: string;
  days: number;
  hours: number;
  /** Scores by variant ('fundamentals', 'none') and method. */
  scores: Partial<Record<PriceVariant, Record<string, PriceMethodScore>>>;
  fundamentals: string[];
  seconds: number;
}

const round = (x: number, digits = 3) => Number(x.toFixed(digits));
const DEFAULT_HISTORY_DAYS = 4 * 365 + 7;

/** Rolling day-ahead evaluation of the methods on one set and period; days whose price is incomplete are skipped. */
export function evaluatePriceSet(set: PriceSet, options: PriceSetOptions): PriceSetEvaluation {
  const methods = options.methods ?? PRICE_MEMBERS;
  const variants = options.variants ?? (['fundamentals', 'none'] as const);
  const every = options.everyNthDay ?? 1;
  const { t, y } = set.series;
  const index = new Map(t.map((time, i) => [time, i]));
  const names = Object.keys(set.exogenous);
  const totals = Object.fromEntries(variants.map((v) => [v, Object.fromEntries(methods.map((m) => [m.name, { absolute: 0, symmetric: 0, ms: 0 }]))]));
  const naive = { absolute: 0 };
  let days = 0;
  let hours = 0;
  const started = performance.now();
  const last = DateTime.fromISO(options.to, { zone: set.timezone });
  for (let day = DateTime.fromISO(options.from, { zone: set.timezone }); day <= last; day = day.plus({ days: every })) {
    const origin = index.get(day.toMillis());
    const next = index.get(day.plus({ days: 1 }).toMillis());
    if (origin === undefined || next === undefined) continue;
    const actual = y.slice(origin, next);
    if (!actual.every(Number.isFinite)) continue;
    const start = Math.max(0, origin - (options.historyDays ?? DEFAULT_HISTORY_DAYS) * 24);
    const history: RegularSeries = { t: t.slice(start, origin), y: y.slice(start, origin), stepMinutes: 60 };
    const steps = next - origin;
    for (const variant of variants) {
      const context: FitContext = {
        kind: 'price',
        timezone: set.timezone,
        ...(variant === 'fundamentals'
          ? { history: Object.fromEntries(names.map((n) => [n, set.exogenous[n].slice(start, origin)])), future: Object.fromEntries(names.map((n) => [n, set.exogenous[n].slice(origin, next)])) }
          : {}),
        options: options.options,
      };
      for (const method of methods) {
        const began = performance.now();
        const forecast = 'member' in method ? method.member.fit(history, context).predict(steps) : forecastSeries(history, { horizonSteps: steps, coverage: 0.9, context }).points.map((p) => p.value);
        const total = totals[variant][method.name];
        total.ms += performance.now() - began;
        actual.forEach((a, h) => {
          total.absolute += Math.abs(a - forecast[h]);
          const denominator = Math.abs(a) + Math.abs(forecast[h]);
          // epftoolbox's sMAPE: mean of |y - f| / ((|y| + |f|) / 2).
          total.symmetric += denominator > 0 ? (2 * Math.abs(a - forecast[h])) / denominator : 0;
        });
      }
    }
    const reference = epftoolboxNaiveMember.fit(history, { kind: 'price', timezone: set.timezone }).predict(steps);
    actual.forEach((a, h) => (naive.absolute += Math.abs(a - reference[h])));
    days++;
    hours += steps;
  }
  const score = (s: { absolute: number; symmetric: number; ms: number }): PriceMethodScore => ({
    mae: round(s.absolute / hours),
    smape_percent: round((100 * s.symmetric) / hours, 2),
    rmae: round(s.absolute / naive.absolute, 4),
    mean_ms: round(s.ms / Math.max(days, 1), 0),
  });
  const scores = Object.fromEntries(Object.entries(totals).map(([variant, byMethod]) => [variant, Object.fromEntries(Object.entries(byMethod).map(([name, s]) => [name, score(s)]))]));
  return { set: set.name, from: options.from, to: options.to, days, hours, scores, fundamentals: variants.includes('fundamentals') ? names : [], seconds: round((performance.now() - started) / 1000, 1) };
}

export interface PriceEvaluationOptions {
  /** Evaluate every n-th day of each REPORT period. @default 18 */
  everyNthDay?: number;
  /** Also run the engine (ensemble, 4 fits of every member a day) on every evaluated day; bench/accuracy does. @default false */
  engine?: boolean;
  /** Kept for the forecasting bench's call; intervals are measured by bench/accuracy. */
  coverageEveryKth?: number;
}

/** The forecasting bench's price record: the REPORT periods of Nord Pool and Belgium, with and without fundamentals. */
export async function evaluatePrices(options: PriceEvaluationOptions = {}): Promise<Record<string, unknown>> {
  const every = options.everyNthDay ?? 18;
  const methods = options.engine ? [...PRICE_MEMBERS, { name: 'engine' } as const] : PRICE_MEMBERS;
  const runs: PriceSetEvaluation[] = [];
  for (const name of ['NP', 'BE'] as const) {
    const set = readPriceSet(name);
    const [from, to] = set.periods.report;
    runs.push(evaluatePriceSet(set, { from, to, everyNthDay: every, methods }));
  }
  return {
    data: 'NP.csv (epftoolbox, Lago et al. 2021); Belgian Belpex prices with Elia forecasts (see ../shared/data/README.md)',
    role: 'REPORT periods of issue 18 (TUNE: NP 2013-2016, Belgium 2015-2018)',
    subset: every === 1 ? 'every day' : `every ${every}th day`,
    lear_calibration_windows_days: [...LEAR_CALIBRATION_WINDOWS_DAYS],
    published_np_lear_ensemble: PUBLISHED_NP_LEAR,
    runs,
  };
}

/** `node --import tsx bench/forecasting-prices.ts [NP|BE] [tune|report] [every] [engine]` from the repository root. */
if (process.argv[1]?.endsWith('forecasting-prices.ts')) {
  const [name = 'NP', period = 'report', every = '1', engine] = process.argv.slice(2);
  const set = readPriceSet(name as PriceSetName);
  const [from, to] = set.periods[period as 'tune' | 'report'];
  const methods = engine === 'engine' ? [...PRICE_MEMBERS, { name: 'engine' } as const] : PRICE_MEMBERS;
  console.log(JSON.stringify(evaluatePriceSet(set, { from, to, everyNthDay: Number(every), methods }), null, 2));
}

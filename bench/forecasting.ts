/**
 * Forecasting benchmark: rolling-origin day-ahead evaluation on the real data in ../shared/data, for each
 * member, the ensemble and the baselines, in the same run (ARCHITECTURE 8):
 *  - solar: NREL PVDAQ system 50, SERF East, Golden CO (15 min AC power; pvlib/pvanalytics, MIT);
 *  - load: England and Wales demand, Taylor (2003), first 8 weeks from 5 June 2000 (R package forecast);
 *  - prices: Nord Pool system price with its load and wind forecasts (epftoolbox, Lago et al. 2021),
 *    LEAR against the paper's naive forecast (bench/forecasting-prices.ts).
 * Writes bench/results/forecasting.{json,md}. The latency of a year of hourly history is ./latency.ts's.
 */
import { forecastSeries, ENSEMBLE } from '../shared/domain/forecasting/engine';
import { mase, mape, rmse, smape } from '../shared/domain/forecasting/metrics';
import { regularise } from '../shared/domain/forecasting/regularise';
import { stepsPerDay, type Exogenous, type FitContext, type RegularSeries } from '../shared/domain/forecasting/types';
import { solarPosition } from '../shared/domain/weather/solar-position';
import { evaluatePrices } from './forecasting-prices';
import { weatherExogenous } from '../shared/services/forecasting/site-model-data';
import { parseTime, readCsv, SERF_EAST_SITE, serfEastHourlyWeather, serfEastPsm3 } from './shared-data';
import { roundHalfUp } from '../shared/domain/rounding';
import { writeResults } from './results-files';

const COVERAGE = 0.9;

interface Scores {
  mase: number | null;
  mape: number | null;
  smape: number | null;
  rmse: number | null;
  rmse_daylight?: number | null;
  coverage: number | null;
  coverage_daylight?: number | null;
  mean_fit_predict_ms: number | null;
}

/** Day-ahead forecasts from `days` origins (the last days of the series), each model through the engine. */
function evaluate(series: RegularSeries, context: FitContext, opts: { days: number; historyDays: number; originOffsetSteps?: number; daylight?: (t: number) => boolean; exogenous?: Exogenous }) {
  const perDay = stepsPerDay(series.stepMinutes);
  const n = series.y.length;
  const firstOrigin = n - opts.days * perDay - (opts.originOffsetSteps ?? 0);
  const collected = new Map<string, { actual: number[]; forecast: number[]; lower: number[]; upper: number[]; t: number[]; ms: number[]; inSample: number[] }>();
  for (let d = 0; d < opts.days; d++) {
    const origin = firstOrigin + d * perDay;
    if (origin + perDay > n) break;
    const from = Math.max(0, origin - opts.historyDays * perDay);
    const history: RegularSeries = { t: series.t.slice(from, origin), y: series.y.slice(from, origin), stepMinutes: series.stepMinutes };
    const actual = series.y.slice(origin, origin + perDay);
    const weather = opts.exogenous;
    const originContext: FitContext = weather ? { ...context, history: sliceExogenous(weather, from, origin), future: sliceExogenous(weather, origin, origin + perDay) } : context;
    const ensembleRun = forecastSeries(history, { horizonSteps: perDay, coverage: COVERAGE, modelType: ENSEMBLE, context: originContext });
    const models = [ENSEMBLE, ...Object.keys(ensembleRun.validation).filter((m) => m !== ENSEMBLE)];
    for (const model of models) {
      const started = performance.now();
      const run = model === ENSEMBLE ? ensembleRun : forecastSeries(history, { horizonSteps: perDay, coverage: COVERAGE, modelType: model, context: originContext });
      const ms = model === ENSEMBLE ? ensembleRun.fitMs : performance.now() - started;
      const c = collected.get(model) ?? { actual: [], forecast: [], lower: [], upper: [], t: [], ms: [], inSample: history.y };
      c.actual.push(...actual);
      c.forecast.push(...run.points.map((p) => p.value));
      c.lower.push(...run.points.map((p) => p.lower));
      c.upper.push(...run.points.map((p) => p.upper));
      c.t.push(...run.points.map((p) => p.t));
      c.ms.push(ms);
      collected.set(model, c);
    }
  }
  const scores: Record<string, Scores> = {};
  for (const [model, c] of collected) {
    const covered = c.actual.map((a, i) => Number.isFinite(a) && a >= c.lower[i] - 1e-9 && a <= c.upper[i] + 1e-9);
    const inside = covered.filter(Boolean).length;
    const finite = c.actual.filter(Number.isFinite).length;
    const day = opts.daylight ? c.t.map(opts.daylight) : undefined;
    scores[model] = {
      mase: roundHalfUp(mase(c.actual, c.forecast, c.inSample, perDay), 3, null),
      mape: roundHalfUp(mape(c.actual, c.forecast), 3, null),
      smape: roundHalfUp(smape(c.actual, c.forecast), 3, null),
      rmse: roundHalfUp(rmse(c.actual, c.forecast), 3, null),
      ...(day ? { rmse_daylight: roundHalfUp(rmse(c.actual.filter((_, i) => day[i]), c.forecast.filter((_, i) => day[i])), 3, null) } : {}),
      coverage: roundHalfUp(inside / finite, 3, null),
      ...(day ? { coverage_daylight: roundHalfUp(covered.filter((x, i) => x && day[i]).length / c.actual.filter((a, i) => Number.isFinite(a) && day[i]).length, 3, null) } : {}),
      mean_fit_predict_ms: roundHalfUp(c.ms.reduce((a, b) => a + b, 0) / c.ms.length, 1, null),
    };
  }
  return scores;
}

const sliceExogenous = (exogenous: Exogenous, from: number, to: number): Exogenous => Object.fromEntries(Object.entries(exogenous).map(([name, values]) => [name, values.slice(from, to)]));

/**
 * NSRDB PSM3 irradiance and temperature aligned with the series (NaN where the file has no row). It is
 * satellite-derived observation, so as the horizon's "forecast" it gives the skill of a perfect weather
 * forecast: an upper bound on what a weather-driven solar forecast reaches, reported beside the
 * history-only run.
 */
function solarWeather(series: RegularSeries): Exogenous {
  return serfEastPsm3(series.t);
}

function solarData() {
  const rows = readCsv('solar/serf_east_15min_ac_power.csv');
  // Values in W as published (slightly negative at night: inverter self-consumption), kept as they are.
  const series = regularise(rows.map(([ts, v]) => ({ t: parseTime(ts), value: Number(v) })));
  const site = SERF_EAST_SITE;
  const daylight = (t: number) => solarPosition(new Date(t), site.latitude, site.longitude).elevationDeg > 0;
  // Origins at local midnight (UTC-7): the series starts at local midnight, so whole days line up.
  return { series, context: { kind: 'solar' as const, ...site, timezone: 'America/Denver' }, daylight };
}

function loadData() {
  const rows = readCsv('load/taylor_2000_first8weeks.csv');
  return { series: regularise(rows.map(([ts, v]) => ({ t: Date.parse(ts), value: Number(v) }))), context: { kind: 'load' as const, timezone: 'UTC', country: 'GB' } };
}

function table(title: string, scores: Record<string, Scores>, extra = ''): string[] {
  const lines = [`### ${title}`, '', `| model | MASE | MAPE % | sMAPE % | RMSE |${extra ? ' daylight RMSE |' : ''} 90% coverage |${extra ? ' daylight coverage |' : ''} fit+predict ms |`, `|---|---|---|---|---|${extra ? '---|---|' : ''}---|---|`];
  for (const [model, s] of Object.entries(scores).sort((a, b) => (a[1].mase ?? 1e9) - (b[1].mase ?? 1e9))) {
    lines.push(`| ${model} | ${s.mase} | ${s.mape} | ${s.smape} | ${s.rmse} |${extra ? ` ${s.rmse_daylight} |` : ''} ${s.coverage} |${extra ? ` ${s.coverage_daylight} |` : ''} ${s.mean_fit_predict_ms} |`);
  }
  return [...lines, ''];
}

/** Origins: solar 60 days (of 105) after 30 days of history; load 28 days (of 56) after 28; enough days for a coverage figure. */
const SOLAR_ORIGINS = 60;
const LOAD_ORIGINS = 28;

export async function benchForecasting(): Promise<void> {
  const solar = solarData();
  const solarScores = evaluate(solar.series, solar.context, { days: SOLAR_ORIGINS, historyDays: 30, daylight: solar.daylight });
  const solarWeatherScores = evaluate(solar.series, solar.context, { days: SOLAR_ORIGINS, historyDays: 30, daylight: solar.daylight, exogenous: solarWeather(solar.series) });
  // The service's path: an hourly feed put on the grid by the function the forecast and training services use.
  const solarHourlyScores = evaluate(solar.series, solar.context, { days: SOLAR_ORIGINS, historyDays: 30, daylight: solar.daylight, exogenous: weatherExogenous(solar.series.t, serfEastHourlyWeather(solar.series.t)) });
  const load = loadData();
  const loadScores = evaluate(load.series, load.context, { days: LOAD_ORIGINS, historyDays: 42 });
  // Every 20th day of the two test years (37 days), the engine's intervals on every third of them: the full
  // period takes about 17 minutes here.
  const prices = await evaluatePrices({ everyNthDay: Number(process.env.BENCH_PRICE_EVERY_NTH_DAY ?? 20), coverageEveryKth: 3 });

  const gain = (s: Record<string, Scores>, base: string, metric: 'mase' | 'rmse_daylight') => roundHalfUp(1 - (s[ENSEMBLE][metric] ?? NaN) / (s[base][metric] ?? NaN), 3, null);
  const results = {
    measured_at: new Date().toISOString(),
    setup: {
      coverage: COVERAGE,
      folds: 'engine defaults (14 validation days; prices 3)',
      solar: `${SOLAR_ORIGINS} day-ahead origins, 30 days of history each; once from the history alone, once with NSRDB PSM3 irradiance over history and horizon (observed, so a perfect weather forecast: an upper bound), at 15 minutes and as an hourly feed placed by the service`,
      load: `${LOAD_ORIGINS} day-ahead origins, up to 42 days of history each`,
    },
    solar: solarScores,
    solar_with_irradiance: solarWeatherScores,
    solar_with_hourly_irradiance: solarHourlyScores,
    load: loadScores,
    prices,
    targets: {
      solar_ensemble_vs_seasonal_naive_mase_gain: gain(solarScores, 'seasonal_naive', 'mase'),
      solar_ensemble_vs_smart_persistence_daylight_rmse_gain: gain(solarScores, 'smart_persistence', 'rmse_daylight'),
      solar_with_irradiance_ensemble_vs_seasonal_naive_mase_gain: gain(solarWeatherScores, 'seasonal_naive', 'mase'),
      solar_with_irradiance_ensemble_vs_smart_persistence_daylight_rmse_gain: gain(solarWeatherScores, 'smart_persistence', 'rmse_daylight'),
      solar_with_hourly_irradiance_ensemble_vs_smart_persistence_daylight_rmse_gain: gain(solarHourlyScores, 'smart_persistence', 'rmse_daylight'),
      load_ensemble_vs_seasonal_naive_mase_gain: gain(loadScores, 'seasonal_naive', 'mase'),
      wanted: 'MASE gain >= 0.15 on every data set; solar daylight RMSE gain >= 0.10; 90% coverage in 0.85..0.95',
    },
  };
  const t = results.targets;
  const md = [
    `# Forecasting benchmark (${results.measured_at})`,
    '',
    `Day-ahead, rolling origin; intervals at ${COVERAGE * 100}% from the engine's validation folds (14 days; prices 3) per origin. MASE scaled by the in-sample daily seasonal naive.`,
    '',
    ...table(`Solar: NREL PVDAQ SERF East, 15 min, W (${SOLAR_ORIGINS} origins ending 2016-10-13), from the history alone`, solarScores, 'daylight'),
    ...table('Solar, the same origins with NSRDB PSM3 irradiance over history and horizon (observed irradiance as a perfect forecast: an upper bound)', solarWeatherScores, 'daylight'),
    ...table('Solar, the same with PSM3 as an hourly feed (hour-ending means, as Open-Meteo delivers) put on the grid by the service (weatherExogenous)', solarHourlyScores, 'daylight'),
    'Night values of SERF East are slightly negative (inverter self-consumption) while solar forecasts and their intervals are 0 at night, so the all-hours coverage counts every night point as a miss; the daylight columns are the meaningful ones.',
    '',
    ...table(`Load: England and Wales demand, 30 min, MW (last ${LOAD_ORIGINS} days of the 8 weeks)`, loadScores),
    '### Prices: Nord Pool day-ahead, LEAR vs the naive of the paper',
    '',
    '```json',
    JSON.stringify(prices, null, 2),
    '```',
    '',
    'The latency of a year of hourly history and a 48-hour horizon is `npm run bench -- latency` (bench/results/latency.md).',
    '',
    `Ensemble vs seasonal naive, MASE gain: solar ${t.solar_ensemble_vs_seasonal_naive_mase_gain} (with irradiance ${t.solar_with_irradiance_ensemble_vs_seasonal_naive_mase_gain}), load ${t.load_ensemble_vs_seasonal_naive_mase_gain} (target >= 0.15). Solar ensemble vs smart persistence, daylight RMSE gain: ${t.solar_ensemble_vs_smart_persistence_daylight_rmse_gain} (with irradiance ${t.solar_with_irradiance_ensemble_vs_smart_persistence_daylight_rmse_gain}; target >= 0.10).`,
    '',
  ].join('\n');
  writeResults('forecasting', results, md);
}

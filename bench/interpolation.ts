/**
 * Interpolation benchmark: on NREL SERF East (15 min AC power, Golden CO; pvlib/pvanalytics, MIT), gaps of
 * 1, 3 and 6 hours hidden at seeded random daylight positions (200 per length), filled by each method and
 * scored against the hidden values, all methods in the same run; and the time to clean 100,000 rows.
 * Each method runs on the history alone, and `irradiance` and `adaptive` again with a weather feed as
 * `weather_correlation` gives one: the site's NSRDB PSM3 irradiance (satellite-derived, observed, 30 min
 * interpolated to 15 by the source), at 15 minutes and as the hourly means an hourly feed such as Open-Meteo's
 * delivers (labelled at the hour's end, put on the grid by the service's own weatherOnGrid).
 * The best configuration's error is also split into each gap's mean (level) and the rest (shape), which tells
 * how well the gaps' levels would have to be known to meet a target.
 * Writes bench/results/interpolation.{json,md}.
 */
import { cleanSeries, evaluateByHiding, type CleanOptions, type FillMethod } from '../shared/domain/interpolation';
import { regularise } from '../shared/domain/forecasting/regularise';
import { weatherOnGrid } from '../shared/domain/weather/hourly-on-grid';
import { mulberry32 } from '../shared/domain/seeded-random';
import { parseTime, readCsv, SERF_EAST_SITE, serfEastHourlyWeather, serfEastPsm3 } from './shared-data';
import { pairedRatioInterval, requestLatencyMs } from './accuracy/gaps';
import { roundHalfUp } from '../shared/domain/rounding';
import { writeResults } from './results-files';

const METHODS: FillMethod[] = ['linear', 'pchip', 'seasonal_profile', 'clear_sky_ratio', 'blend', 'analog_days', 'envelope_kriging', 'adaptive'];
const WEATHER_METHODS: FillMethod[] = ['irradiance', 'adaptive'];
/** Each trial sees the whole series (105 days) with only its gap hidden, as a cleaning of the full history would; analog days need the other days. */
const WINDOW_DAYS = 120;
/** Gap lengths in hours, each with the wanted adaptive RMSE over linear with the weather feed (issue #7; 3 h restated from 0.70 to 0.75 by issue #18). */
const TARGET_BY_GAP_HOURS: Record<number, number> = { 1: 1.0, 3: 0.75, 6: 0.7 };
/** The same from the history alone (issue #18). */
const HISTORY_TARGET_BY_GAP_HOURS: Record<number, number> = { 1: 1.0, 3: 0.85, 6: 0.75 };
const GAPS_PER_LENGTH = 200;

function serfEast() {
  // kW; night values slightly negative as published (inverter self-consumption).
  return regularise(readCsv('solar/serf_east_15min_ac_power.csv').map(([ts, v]) => ({ t: parseTime(ts), value: Number(v) / 1000 })));
}

function speedOn100kRows(): { rows: number; ms: number; filled: number } {
  const random = mulberry32(5);
  const n = 100_000;
  const t = Array.from({ length: n }, (_, i) => Date.UTC(2024, 0, 1) + i * 5 * 60_000);
  const y = t.map((_, i) => 50 + 20 * Math.sin((2 * Math.PI * i) / 288) + 3 * (random() - 0.5));
  // About 5% missing, in gaps of 1 to 24 steps.
  for (let i = 0; i < n; ) {
    if (random() < 0.004) {
      const len = 1 + Math.floor(random() * 24);
      for (let k = 0; k < len && i + k < n; k++) y[i + k] = NaN;
      i += len + 1;
    } else i++;
  }
  const started = performance.now();
  const out = cleanSeries({ t, y, stepMinutes: 5 }, { maxGapSteps: 72, detectOutliers: true, seasonalAdjustment: true, kind: 'load' });
  return { rows: n, ms: Math.round(performance.now() - started), filled: out.quality.filter((q) => q === 'interpolated').length };
}

type PerGap = ReturnType<typeof evaluateByHiding>['perGap'];

type Scores = Record<string, { rmse_kw: number | null; mae_kw: number | null; level_rmse_kw: number | null; shape_rmse_kw: number | null; gaps: number }>;

/**
 * Where adaptive's error lies (its best configuration, with the hourly feed the service uses): each gap's mean
 * error (level) and the rest (shape), rmse^2 = level^2 + shape^2. `with_level_exact` is the ratio to linear a fill
 * with adaptive's shape and each gap's true mean would reach; `level_needed_kw`, the level RMSE at which adaptive
 * would reach the gap length's target with its shape unchanged.
 */
function levelAndShape(row: Scores, target: number) {
  const best = row['adaptive + PSM3 hourly'];
  const linear = row.linear.rmse_kw ?? NaN;
  const shape = best.shape_rmse_kw ?? NaN;
  const room = (target * linear) ** 2 - shape ** 2;
  return { target, level_rmse_kw: best.level_rmse_kw, shape_rmse_kw: best.shape_rmse_kw, linear_level_rmse_kw: row.linear.level_rmse_kw, with_level_exact: roundHalfUp(shape / linear, 3, null), level_needed_kw: room > 0 ? roundHalfUp(Math.sqrt(room), 3, null) : 0 };
}

function splitLines(split: Record<string, ReturnType<typeof levelAndShape>>): string[] {
  const lines = ['| adaptive + PSM3 hourly | level RMSE (kW) | shape RMSE (kW) | linear\'s level RMSE (kW) | / linear with each gap\'s true mean | target | level RMSE that would meet it (kW) |', '|---|---|---|---|---|---|---|'];
  for (const [gap, s] of Object.entries(split)) lines.push(`| ${gap} | ${s.level_rmse_kw} | ${s.shape_rmse_kw} | ${s.linear_level_rmse_kw} | ${s.with_level_exact} | ${s.target} | ${s.level_needed_kw} |`);
  return ['Level (each gap\'s mean error) and shape (the rest) of the error; rmse^2 = level^2 + shape^2.', '', ...lines];
}

export async function benchInterpolation(): Promise<void> {
  const series = serfEast();
  const psm3 = serfEastPsm3(series.t).ghi_wm2;
  const base: CleanOptions = { maxGapSteps: 24, detectOutliers: false, seasonalAdjustment: true, kind: 'solar', ...SERF_EAST_SITE };
  const configurations = [
    { label: '', methods: METHODS, options: base },
    { label: ' + PSM3 15 min', methods: WEATHER_METHODS, options: { ...base, exogenous: { ghi_wm2: psm3 } } },
    { label: ' + PSM3 hourly', methods: WEATHER_METHODS, options: { ...base, exogenous: { ghi_wm2: weatherOnGrid(series.t, serfEastHourlyWeather(series.t)).ghi_wm2 } } },
  ];
  const columns = configurations.flatMap((c) => c.methods.map((m) => `${m}${c.label}`));
  const table: Record<string, Scores> = {};
  const ratios: Record<string, Record<string, number | null>> = {};
  const split: Record<string, ReturnType<typeof levelAndShape>> = {};
  const intervals: Record<string, Record<string, [number | null, number | null]>> = {};
  for (const hours of Object.keys(TARGET_BY_GAP_HOURS).map(Number)) {
    const gapSteps = (hours * 60) / series.stepMinutes;
    const row: Scores = {};
    const perGap: Record<string, PerGap> = {};
    for (const { label, methods, options } of configurations) {
      for (const method of methods) {
        const r = evaluateByHiding(series, { ...options, method }, { gapSteps, count: GAPS_PER_LENGTH, seed: 42 + hours, daylightOnly: true, windowDays: WINDOW_DAYS });
        perGap[`${method}${label}`] = r.perGap;
        row[`${method}${label}`] = { rmse_kw: roundHalfUp(r.rmse, 3, null), mae_kw: roundHalfUp(r.mae, 3, null), level_rmse_kw: roundHalfUp(r.levelRmse, 3, null), shape_rmse_kw: roundHalfUp(r.shapeRmse, 3, null), gaps: r.gaps };
      }
    }
    table[`${hours}h`] = row;
    ratios[`${hours}h`] = Object.fromEntries(configurations.map(({ label }) => [`adaptive${label}`, roundHalfUp((row[`adaptive${label}`].rmse_kw ?? NaN) / (row.linear.rmse_kw ?? NaN), 3, null)]));
    intervals[`${hours}h`] = Object.fromEntries(configurations.map(({ label }) => [`adaptive${label}`, pairedRatioInterval(perGap[`adaptive${label}`], perGap.linear)]));
    split[`${hours}h`] = levelAndShape(row, TARGET_BY_GAP_HOURS[hours]);
  }
  const speed = speedOn100kRows();
  const latency = requestLatencyMs();
  const out = {
    measured_at: new Date().toISOString(),
    data: 'NREL PVDAQ SERF East, 15 min AC power (kW), 2016-07-01 to 2016-10-13; gaps hidden at seeded daylight positions, each filled with the rest of the series known; weather: the site\'s NSRDB PSM3 GHI',
    gaps_per_length: GAPS_PER_LENGTH,
    results: table,
    adaptive_rmse_over_linear: ratios,
    adaptive_rmse_over_linear_95ci: intervals,
    adaptive_level_and_shape: split,
    speed_100k_rows: speed,
    latency_288_points: latency,
    targets: { wanted: 'adaptive RMSE / linear: history only <= 1.0, 0.85, 0.75 on 1, 3, 6 h gaps; with the weather feed <= 1.0, 0.75, 0.70; 3 days at 15 min under 300 ms; 100,000 rows under 1 s' },
  };
  const lines = ['# Interpolation benchmark', '', `${out.data}; ${GAPS_PER_LENGTH} gaps per length. RMSE / MAE in kW.`, '', '| gap | ' + columns.join(' | ') + ' |', '|---|' + columns.map(() => '---').join('|') + '|'];
  for (const [gap, row] of Object.entries(table)) lines.push(`| ${gap} | ` + columns.map((c) => `${row[c].rmse_kw} / ${row[c].mae_kw}`).join(' | ') + ' |');
  lines.push('', '| adaptive RMSE / linear | ' + configurations.map(({ label }) => label.trim() || 'history only').join(' | ') + ' |', '|---|' + configurations.map(() => '---').join('|') + '|');
  for (const [gap, r] of Object.entries(ratios)) lines.push(`| ${gap} | ` + Object.entries(r).map(([k, v]) => `${v} (${intervals[gap][k].join('-')})`).join(' | ') + ' |');
  const wanted = (targets: Record<number, number>) => Object.entries(targets).map(([h, t]) => `<= ${t} on ${h} h`).join(', ');
  lines.push('', 'In brackets: 95% interval over the gaps (paired bootstrap, 2000 resamples).', '', `Wanted: history only ${wanted(HISTORY_TARGET_BY_GAP_HOURS)}; with the weather feed ${wanted(TARGET_BY_GAP_HOURS)}.`, '', ...splitLines(split), '', `100,000 rows (5 min, 5% missing, outliers on): ${speed.ms} ms, ${speed.filled} values filled (wanted under 1 s).`, `One 288-point request (3 days at 15 min, quality_enhancement, accuracy measured): median ${latency.median_ms} ms, first call ${latency.cold_ms} ms (wanted under 300 ms).`, '');
  writeResults('interpolation', out, lines.join('\n'));
}

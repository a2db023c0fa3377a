/**
 * Observe-stage benchmark (asset operations, ARCHITECTURE 7), on the real data in ../shared/data:
 *  - speed: detection over one year of 15-minute data (35,136 steps, 2016) for one asset, time and RSS growth;
 *  - accuracy: precision and recall per kind against hand labels, spikes and impossible values against the
 *    `outlier` column of inverter 7539, straight lines against the `interpolated_data_mask` of inverter 2173
 *    (both pvlib/pvanalytics, MIT, normalised power: capacity 1, site estimated from the data).
 * The year is synthesised at the SERF East site (Golden CO, 39.74 N, 105.18 W): clear-sky output (Ineichen &
 * Perez GHI x 5.4 kW / 1000 W/m2) times the clear-sky index measured on SERF East (NREL PVDAQ system 50,
 * pvlib/pvanalytics, MIT) at the same time of day, its 104 days tiled over the year: real clouds, the seasons of
 * the clear sky. Four faults are injected (a trip, a stuck reading, spikes, a month of soiling) and whether each
 * is found is reported. Returns the figures; the caller writes them.
 */
import { clearSkyProfile } from '../shared/domain/forecasting/solar';
import { detectAnomalies, type Anomaly, type AnomalyKind, type OutputSeries } from '../shared/domain/operations/detection';
import { scoreAgainstLabels } from '../shared/domain/operations/detection-score';
import { diagnose } from '../shared/domain/operations/diagnosis';
import { expectedOutput } from '../shared/domain/operations/expected-output';
import { mulberry32 } from '../shared/domain/seeded-random';
import { parseTime, readCsv, SERF_EAST_SITE } from './shared-data';
import { roundHalfUp } from '../shared/domain/rounding';
import { DAY_MS } from '../shared/domain/time';

const SERF_CAPACITY_KW = 5.4;
const STEP_MINUTES = 15;
const STEP_MS = STEP_MINUTES * 60_000;
/** The year's timestamps are UTC; SERF East's are local standard time, UTC-7. */
const LOCAL_OFFSET_MS = -7 * 3_600_000;
/** Clear-sky index kept in [0, MAX_INDEX] when tiled (15-minute cloud enhancement rarely exceeds it). */
const MAX_INDEX = 1.3;
const SPIKES = 10;

/** Precision and recall of flagged steps against labels, rounded for the report. */
function score(t: readonly number[], labels: readonly boolean[], anomalies: readonly Anomaly[], kinds: readonly AnomalyKind[]) {
  const s = scoreAgainstLabels(t, labels, anomalies, kinds);
  return { ...s, precision: roundHalfUp(s.precision, 3, null), recall: roundHalfUp(s.recall, 3, null) };
}

function labelledFile(file: string) {
  const rows = readCsv(file);
  return { t: rows.map((r) => parseTime(r[0])), y: rows.map((r) => Number(r[1])), label: rows.map((r) => r[2].trim().toLowerCase() === 'true') };
}

/** SERF East: the measured clear-sky index per step (measured over the fitted expected output), by day and time of day. */
function serfClearSkyIndex(): number[][] {
  const rows = readCsv('solar/serf_east_15min_ac_power.csv');
  const series: OutputSeries = { t: rows.map((r) => parseTime(r[0])), powerKw: rows.map((r) => Number(r[1]) / 1000), stepMinutes: STEP_MINUTES };
  const model = expectedOutput(series, { capacityKw: SERF_CAPACITY_KW, ...SERF_EAST_SITE });
  const perDay = DAY_MS / STEP_MS;
  const days: number[][] = [];
  series.t.forEach((t, i) => {
    const local = t + LOCAL_OFFSET_MS;
    const day = Math.floor(local / DAY_MS) - Math.floor((series.t[0] + LOCAL_OFFSET_MS) / DAY_MS);
    const slot = Math.round((((local % DAY_MS) + DAY_MS) % DAY_MS) / STEP_MS);
    days[day] ??= new Array<number>(perDay).fill(NaN);
    const e = model.expectedKw[i];
    if (e > 0.05 * SERF_CAPACITY_KW) days[day][slot] = Math.min(MAX_INDEX, Math.max(0, series.powerKw[i] / e));
  });
  return days.filter((d) => d.filter(Number.isFinite).length > 20);
}

/** The synthetic year with its injected faults. */
function syntheticYear() {
  const index = serfClearSkyIndex();
  const start = Date.UTC(2016, 0, 1, 7);
  const n = (366 * DAY_MS) / STEP_MS;
  const t = Array.from({ length: n }, (_, i) => start + i * STEP_MS);
  const clear = clearSkyProfile(t, STEP_MINUTES, { ...SERF_EAST_SITE, estimated: false }, 'instant');
  const perDay = DAY_MS / STEP_MS;
  const powerKw = clear.map((ghi, i) => {
    if (ghi === 0) return -0.003; // inverter self-consumption at night
    const k = index[Math.floor(i / perDay) % index.length][i % perDay];
    return ((SERF_CAPACITY_KW * 0.9 * ghi) / 1000) * (Number.isFinite(k) ? k : 1);
  });
  const at = (day: number, hour: number) => day * perDay + Math.floor((hour * 60) / STEP_MINUTES);
  // A trip: zero from 12:00 to 14:00 local on day 100.
  for (let i = at(100, 12); i <= at(100, 14); i++) powerKw[i] = 0;
  // A stuck reading: day 200 from 11:00 to 17:00 holds the 11:00 value.
  for (let i = at(200, 11) + 1; i <= at(200, 17); i++) powerKw[i] = powerKw[at(200, 11)];
  // Soiling: -0.5%/day from day 250 for 30 days, then washed off.
  for (let i = at(250, 0); i < at(280, 0); i++) if (powerKw[i] > 0) powerKw[i] *= 1 - (0.005 * (i - at(250, 0))) / perDay;
  // Spikes: a tripled reading at SPIKES random noon-time steps.
  const random = mulberry32(7539);
  const spikes: number[] = [];
  while (spikes.length < SPIKES) {
    const i = at(Math.floor(random() * 366), 10 + random() * 4);
    if (powerKw[i] > 0.3 * SERF_CAPACITY_KW && !spikes.includes(i) && Math.floor(i / perDay) !== 100 && Math.floor(i / perDay) !== 200) spikes.push(i);
  }
  for (const i of spikes) powerKw[i] *= 3;
  return { series: { t, powerKw, stepMinutes: STEP_MINUTES } satisfies OutputSeries, faults: { trip: t[at(100, 13)], stuck: t[at(200, 14)], soiled: t[at(275, 13)], spikes: spikes.map((i) => t[i]) } };
}

/** Figures of the benchmark: detection time and memory on a year, precision and recall per kind on the labelled files. */
export async function benchDetection(): Promise<Record<string, unknown>> {
  const { series, faults } = syntheticYear();
  const asset = { capacityKw: SERF_CAPACITY_KW, ...SERF_EAST_SITE, timezone: 'America/Denver' };
  detectAnomalies({ ...series, t: series.t.slice(0, 96 * 14), powerKw: series.powerKw.slice(0, 96 * 14) }, asset); // warm-up (JIT)
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const result = detectAnomalies(series, asset);
  const detectionMs = performance.now() - started;
  const rssGrowthMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
  const diagnosisStarted = performance.now();
  const diagnosis = diagnose(result.anomalies, series, asset, result.expectedKw);
  const diagnosisMs = performance.now() - diagnosisStarted;
  const found = (t: number, kinds: AnomalyKind[]) => result.anomalies.some((a) => kinds.includes(a.kind) && a.start <= t && a.end >= t);
  const counts: Record<string, number> = {};
  for (const a of result.anomalies) counts[a.kind] = (counts[a.kind] ?? 0) + 1;

  const outliers = labelledFile('solar/ac_power_inv_7539_outliers.csv');
  const outlierResult = detectAnomalies({ t: outliers.t, powerKw: outliers.y, stepMinutes: STEP_MINUTES }, { capacityKw: 1 });
  const interpolated = labelledFile('solar/ac_power_inv_2173_interpolated_data.csv');
  const interpolatedResult = detectAnomalies({ t: interpolated.t, powerKw: interpolated.y, stepMinutes: STEP_MINUTES }, { capacityKw: 1 });

  return {
    year: {
      data: 'synthetic 2016 at SERF East: Ineichen clear sky x SERF East clear-sky index tiled from its 104 days; trip, stuck reading, soiling and 10 spikes injected',
      steps: series.t.length,
      detection_ms: roundHalfUp(detectionMs, 1, null),
      diagnosis_ms: roundHalfUp(diagnosisMs, 1, null),
      rss_growth_mb: roundHalfUp(rssGrowthMb, 1, null),
      anomalies: counts,
      injected_found: {
        trip_as_zero_output: found(faults.trip, ['zero_output']),
        stuck_as_flatline: found(faults.stuck, ['flatline']),
        soiling_as_underperformance: found(faults.soiled, ['underperformance']),
        spikes_found: faults.spikes.filter((t) => found(t, ['spike', 'impossible_value'])).length,
        spikes_injected: faults.spikes.length,
      },
      diagnosis: { fault_family: diagnosis.faultFamily, confidence: diagnosis.confidence, candidates: diagnosis.evidence.candidates },
    },
    labelled: {
      'inverter_7539_outliers (500 steps, 6 labelled)': {
        spike_or_impossible_value: score(outliers.t, outliers.label, outlierResult.anomalies, ['spike', 'impossible_value']),
        spike: score(outliers.t, outliers.label, outlierResult.anomalies, ['spike']),
        impossible_value: score(outliers.t, outliers.label, outlierResult.anomalies, ['impossible_value']),
      },
      'inverter_2173_interpolated (3,000 steps, 1,254 labelled)': {
        straight_line: score(interpolated.t, interpolated.label, interpolatedResult.anomalies, ['straight_line']),
      },
    },
  };
}

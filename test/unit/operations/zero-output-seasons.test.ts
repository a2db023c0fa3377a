/**
 * Zero output judged against the season's own clear sky (issue 21): a dead inverter is caught on a winter day
 * whose clear-sky peak is a quarter of the rating, and two dark hours under an October overcast are not an outage.
 * The series: a 10 kW array in Berlin, Ineichen-Perez clear sky x 0.85 kW per kW/m2, times a seeded sky (clear,
 * broken and overcast days, as a Berlin autumn brings them), night self-consumption -2 W.
 */
import { detectAnomalies, type OutputSeries } from '../../../shared/domain/operations/detection';
import { diagnose } from '../../../shared/domain/operations/diagnosis';
import { clearSkyGhiAt } from '../../../shared/domain/weather/clear-sky';
import { mulberry32 } from '../../helpers/seeded-random';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const BERLIN = { capacityKw: 10, latitude: 52.52, longitude: 13.405, timezone: 'Europe/Berlin' };

/** Clear-sky index per day and hour: a third of the days clear, a third broken, a third overcast. */
function berlinSky(seed: number) {
  const random = mulberry32(seed);
  const days = new Map<number, { kind: number; level: number }>();
  const hours = new Map<number, number>();
  return (t: number) => {
    const day = Math.floor(t / DAY_MS);
    const d = days.get(day) ?? days.set(day, { kind: Math.floor(random() * 3), level: random() }).get(day)!;
    const hour = Math.floor(t / HOUR_MS);
    if (!hours.has(hour)) hours.set(hour, d.kind === 0 ? 0.95 + 0.05 * random() : d.kind === 1 ? 0.35 + 0.6 * random() : 0.12 + 0.2 * d.level + 0.05 * random());
    return hours.get(hour)!;
  };
}

/** A month of output; `edit` rewrites a step (kW) from its time, its index and its value. */
function berlin(from: number, days: number, stepMinutes: number, edit: (t: number, kw: number) => number = (_, kw) => kw): OutputSeries {
  const sky = berlinSky(from);
  const t: number[] = [];
  const powerKw: number[] = [];
  for (let x = from; x < from + days * DAY_MS; x += stepMinutes * 60_000) {
    const ghi = clearSkyGhiAt(new Date(x), BERLIN);
    const kw = ghi > 0 ? (0.85 * BERLIN.capacityKw * ghi * sky(x)) / 1000 : -0.002;
    t.push(x);
    powerKw.push(Math.round(edit(x, kw) * 1000) / 1000);
  }
  return { t, powerKw, stepMinutes };
}

/** The first day of the month whose sky is clear around noon (hours before and after solar noon sunny). */
function firstClearDay(from: number, stepMinutes: number): number {
  const s = berlin(from, 30, stepMinutes);
  const ratioAt = (t: number) => s.powerKw[s.t.indexOf(t)] / ((0.85 * BERLIN.capacityKw * clearSkyGhiAt(new Date(t), BERLIN)) / 1000);
  const day = [...Array(30).keys()].find((d) => [9, 10, 11, 12, 13].every((h) => ratioAt(from + d * DAY_MS + h * HOUR_MS) > 0.9));
  if (day === undefined) throw new Error('the seeded sky has no clear day');
  return from + day * DAY_MS;
}

describe('zero output against the day’s own clear sky', () => {
  it('catches a 10 kW Berlin inverter dead for four November days, which never expects 30% of its rating', () => {
    const from = Date.UTC(2026, 10, 1);
    const deadFrom = from + 20 * DAY_MS;
    const deadTo = from + 24 * DAY_MS;
    const series = berlin(from, 30, 60, (t, kw) => (t >= deadFrom && t < deadTo && kw > 0 ? 0 : kw));

    const result = detectAnomalies(series, BERLIN);

    // The winter sun never gives 30% of the rating: the rule that missed this asset could not have fired.
    expect(Math.max(...result.expectedKw)).toBeLessThan(0.3 * BERLIN.capacityKw);
    const zeros = result.anomalies.filter((a) => a.kind === 'zero_output');
    expect(zeros).toHaveLength(1);
    expect(zeros[0].severity).toBe('critical');
    expect(zeros[0].start).toBeGreaterThanOrEqual(deadFrom);
    expect(zeros[0].start).toBeLessThan(deadFrom + 10 * HOUR_MS);
    expect(zeros[0].end).toBeGreaterThan(deadTo - DAY_MS);
    expect(zeros[0].end).toBeLessThan(deadTo);
    expect(zeros[0].evidence.whole_day).toBe('yes');
    // Energy lost: the clear-sky expectation over the four days' daylight, 6-10 kWh a day at this rating.
    expect(zeros[0].energyAtRiskKwh).toBeGreaterThan(20);
    expect(zeros[0].energyAtRiskKwh).toBeLessThan(45);

    const diagnosis = diagnose(result.anomalies, series, BERLIN, result.expectedKw);
    expect(diagnosis.faultFamily).toBe('inverter_trip');
    expect(diagnosis.severityLabel).toBe('critical');
    expect(diagnosis.energyAtRiskKw).toBeGreaterThan(0.5);
  });

  it('catches a two-hour trip at noon on a clear December day, on 15-minute data', () => {
    const from = Date.UTC(2026, 11, 1);
    // 10:30-12:30 UTC is around Berlin's solar noon (11:06 UTC).
    const tripFrom = firstClearDay(from, 15) + 10.5 * HOUR_MS;
    const tripTo = tripFrom + 2 * HOUR_MS;
    const series = berlin(from, 30, 15, (t, kw) => (t >= tripFrom && t < tripTo ? 0 : kw));

    const zeros = detectAnomalies(series, BERLIN).anomalies.filter((a) => a.kind === 'zero_output');

    expect(zeros).toHaveLength(1);
    expect(zeros[0]).toMatchObject({ start: tripFrom, end: tripTo - 15 * 60_000, steps: 8, severity: 'critical' });
  });

  it('does not call two dark hours under an October overcast an outage (it did, critical, when zero was judged against capacity)', () => {
    const from = Date.UTC(2026, 9, 1);
    const day = from + 10 * DAY_MS;
    // A thunderstorm afternoon: the output dims over the overcast (10-15% of clear sky), then 2% for two hours.
    const series = berlin(from, 30, 60, (t, kw) => {
      if (t < day || t >= day + DAY_MS || kw <= 0) return kw;
      const hour = (t - day) / HOUR_MS;
      const clear = (0.85 * BERLIN.capacityKw * clearSkyGhiAt(new Date(t), BERLIN)) / 1000;
      return clear * (hour >= 11 && hour < 13 ? 0.02 : 0.12);
    });

    const result = detectAnomalies(series, BERLIN);

    const dark = result.anomalies.filter((a) => a.start <= day + 13 * HOUR_MS && a.end >= day + 11 * HOUR_MS);
    expect(dark.filter((a) => a.kind === 'zero_output')).toEqual([]);
    expect(result.anomalies.filter((a) => a.severity === 'critical')).toEqual([]);
    // The expected output in those hours is above 30% of the rating: the old rule judged them, and flagged them.
    const noon = series.t.indexOf(day + 11 * HOUR_MS);
    expect(result.expectedKw[noon]).toBeGreaterThan(0.3 * BERLIN.capacityKw);
    expect(series.powerKw[noon]).toBeLessThanOrEqual(0.01 * BERLIN.capacityKw);
  });

  it('judges the same dark hours an outage when the sun is out on both sides of them', () => {
    const from = Date.UTC(2026, 9, 1);
    const clearDay = firstClearDay(from, 60);
    const series = berlin(from, 30, 60, (t, kw) => (t >= clearDay + 11 * HOUR_MS && t < clearDay + 13 * HOUR_MS ? 0 : kw));

    const zeros = detectAnomalies(series, BERLIN).anomalies.filter((a) => a.kind === 'zero_output');

    expect(zeros).toHaveLength(1);
    expect(zeros[0]).toMatchObject({ start: clearDay + 11 * HOUR_MS, steps: 2, severity: 'critical' });
  });
});

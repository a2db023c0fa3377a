import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { seasonalNaiveMember, smartPersistenceMember } from '../../../shared/domain/forecasting/baselines';
import { forecastSeries, recurringMinimum, windowStart } from '../../../shared/domain/forecasting/engine';
import { ALL_MEMBERS } from '../../../shared/domain/forecasting/members';
import { ForecastInputError, regularise } from '../../../shared/domain/forecasting/regularise';
import { solarClearSkyMember } from '../../../shared/domain/forecasting/solar';
import type { ForecastMember, RegularSeries } from '../../../shared/domain/forecasting/types';
import { clearFoldCache } from '../../../shared/domain/forecasting/validation';
import { clearSkyGhiAt } from '../../../shared/domain/weather/clear-sky';

const GOLDEN = { latitude: 39.74, longitude: -105.18 };

/** The NREL PVDAQ SERF East slice: 3 days of 15-minute AC power (W), 1-3 July 2016. */
function serfEast(): RegularSeries {
  const csv = readFileSync(join(__dirname, '../../fixtures/vendors/nrel-pvdaq-serf-east-3days.csv'), 'utf8');
  const points = csv
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [time, power] = line.split(',');
      return { t: Date.parse(time.replace(' ', 'T')), value: Number(power) };
    });
  return regularise(points);
}

describe('forecastSeries end to end', () => {
  it('forecasts the next day of the SERF East slice: night 0 with [0, 0] intervals, bounds around every point', () => {
    const series = serfEast();

    const result = forecastSeries(series, { horizonSteps: 96, coverage: 0.9, context: { kind: 'solar', ...GOLDEN } });

    expect(series.stepMinutes).toBe(15);
    expect(result.modelUsed).toBe('ensemble');
    expect(result.points).toHaveLength(96);
    expect(result.points[0].t).toBe(series.t[series.t.length - 1] + 15 * 60_000);
    expect(Object.values(result.weights).reduce((s, w) => s + w, 0)).toBeCloseTo(1, 12);
    expect(Object.keys(result.validation)).toEqual(expect.arrayContaining(['ensemble', 'persistence', 'mean_profile_7d', 'seasonal_naive', 'smart_persistence', 'solar_clear_sky']));
    expect(Object.keys(result.validation).every((name) => name === 'ensemble' || ALL_MEMBERS.some((m) => m.name === name && m.supports('solar')))).toBe(true);
    for (const p of result.points) {
      expect(p.lower).toBeLessThanOrEqual(p.value);
      expect(p.value).toBeLessThanOrEqual(p.upper);
      // Never below the meter's own least reading (the inverter's draw, about -6 W on this slice).
      expect(p.lower).toBeGreaterThanOrEqual(Math.min(0, ...series.y.filter(Number.isFinite)));
      const sunDown = clearSkyGhiAt(new Date(p.t), GOLDEN) === 0 && clearSkyGhiAt(new Date(p.t - 15 * 60_000), GOLDEN) === 0;
      if (sunDown) expect([p.value, p.lower, p.upper]).toEqual([0, 0, 0]);
    }
    // A summer day of a ~5 kW array: a midday peak in the kW range, not a flat line.
    expect(Math.max(...result.points.map((p) => p.value))).toBeGreaterThan(1000);
    expect(result.fitMs).toBeGreaterThan(0);
  });

  it('lets the intervals reach the inverter\'s recurring night draw, not a single glitch far below it', () => {
    const series = serfEast();
    const draw = Math.min(...series.y.filter(Number.isFinite));
    const y = [...series.y];
    // A night reading of the last day turned into -1e6 (a glitch): the floor stays the nights' draw.
    const night = y.findLastIndex((v) => v <= 0);
    y[night] = -1e6;

    const result = forecastSeries({ ...series, y }, { horizonSteps: 96, coverage: 0.9, context: { kind: 'solar', ...GOLDEN } });

    expect(draw).toBeLessThan(0);
    expect(recurringMinimum(y)).toBe(draw);
    for (const p of result.points) expect(p.lower).toBeGreaterThanOrEqual(draw);
  });

  it('forecasts the SERF slice without coordinates (geometry estimated from the data)', () => {
    const result = forecastSeries(serfEast(), { horizonSteps: 96, coverage: 0.8, modelType: 'solar_clear_sky', context: { kind: 'solar' } });

    expect(result.modelUsed).toBe('solar_clear_sky');
    expect(result.weights).toEqual({ solar_clear_sky: 1 });
    // Golden, Colorado: solar midnight is near 07:00 UTC; a 15-minute step there is night.
    const night = result.points.filter((p) => new Date(p.t).getUTCHours() === 7);
    expect(night.every((p) => p.value === 0 && p.upper === 0)).toBe(true);
  });

  it('on 14 clear days weights the clear-sky members and forecasts the next day almost exactly with tight intervals', () => {
    const t = Array.from({ length: 15 * 24 }, (_, i) => Date.parse('2024-06-01T00:00:00Z') + i * 3_600_000);
    const y = t.map((x) => (5 * clearSkyGhiAt(new Date(x), GOLDEN)) / 1000);
    const series = { t: t.slice(0, 14 * 24), y: y.slice(0, 14 * 24), stepMinutes: 60 };

    const result = forecastSeries(series, { horizonSteps: 24, coverage: 0.9, context: { kind: 'solar', ...GOLDEN } });

    // Both clear-sky-based members are exact here (smart persistence uses the clear-sky profile with coordinates);
    // seasonal naive misses the sun's daily drift.
    expect(result.weights.solar_clear_sky + result.weights.smart_persistence).toBeGreaterThan(0.99);
    expect(result.weights.seasonal_naive).toBeLessThan(0.01);
    result.points.forEach((p, j) => {
      expect(p.value).toBeCloseTo(y[14 * 24 + j], 3);
      expect(p.upper - p.lower).toBeLessThan(0.01);
    });
  });

  it('uses only the baselines (and members that support it) for a generic series', () => {
    const t0 = Date.parse('2024-01-01T00:00:00Z');
    const y = Array.from({ length: 4 * 24 }, (_, i) => 10 + Math.sin((2 * Math.PI * i) / 24));

    const result = forecastSeries({ t: y.map((_, i) => t0 + i * 3_600_000), y, stepMinutes: 60 }, { horizonSteps: 24, coverage: 0.9, context: { kind: 'generic' } });

    const supporting = ALL_MEMBERS.filter((m) => m.supports('generic') && m.minHistory(60) <= 96).map((m) => m.name);
    expect(Object.keys(result.weights).sort()).toEqual(supporting.sort());
    expect(supporting).toEqual(expect.arrayContaining(['seasonal_naive', 'smart_persistence']));
    expect(supporting).not.toContain(solarClearSkyMember.name);
    result.points.forEach((p, j) => expect(p.value).toBeCloseTo(10 + Math.sin((2 * Math.PI * j) / 24), 6));
  });

  describe('input errors the endpoint turns into 400s', () => {
    const t0 = Date.parse('2024-01-01T00:00:00Z');
    const y = Array.from({ length: 3 * 24 }, (_, i) => i % 24);
    const series = { t: y.map((_, i) => t0 + i * 3_600_000), y, stepMinutes: 60 };
    const members = [seasonalNaiveMember, smartPersistenceMember, solarClearSkyMember];

    it('names the models available when the one asked for is unknown or does not apply', () => {
      expect(() => forecastSeries(series, { horizonSteps: 24, coverage: 0.9, modelType: 'prophet', members, context: { kind: 'generic' } })).toThrow(
        new ForecastInputError("Unknown model 'prophet'; use one of: ensemble, seasonal_naive, smart_persistence"),
      );
      expect(() => forecastSeries(series, { horizonSteps: 24, coverage: 0.9, modelType: 'solar_clear_sky', members, context: { kind: 'generic' } })).toThrow(
        "Model 'solar_clear_sky' does not forecast generic series; use one of: ensemble, seasonal_naive, smart_persistence",
      );
    });

    it('rejects a coverage outside (0, 1) and a horizon longer than the history allows', () => {
      expect(() => forecastSeries(series, { horizonSteps: 24, coverage: 90, context: { kind: 'generic' } })).toThrow('Coverage must be strictly between 0 and 1 (e.g. 0.9 for a 90% interval), got 90');
      expect(() => forecastSeries(series, { horizonSteps: 96, coverage: 0.9, context: { kind: 'generic' } })).toThrow('History too short: 72 hours given, at least 96 hours are needed for a 96-hour horizon');
    });
  });
});

describe('the history window on a weekly grid', () => {
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;
  const WEEK = 7 * DAY;
  /** Hourly times of `days` days ending at `endDay` (days since the epoch, exclusive). */
  const hours = (endDay: number, days: number) => Array.from({ length: days * 24 }, (_, i) => (endDay - days) * DAY + i * HOUR);

  it('starts on a week boundary, 56 to 63 days back, and keeps that start a day later', () => {
    const t = hours(20_000, 200);
    const later = hours(20_001, 201);

    const start = t[windowStart(t, 60, 56)];
    const startLater = later[windowStart(later, 60, 56)];

    expect(start % WEEK).toBe(0);
    expect(20_000 * DAY - start).toBeGreaterThanOrEqual(56 * DAY);
    expect(20_000 * DAY - start).toBeLessThan(63 * DAY);
    expect(startLater).toBe(start);
  });

  it('keeps the start of a client sending its last 8 weeks each day from the first boundary in them', () => {
    const windows = [0, 1, 2].map((k) => hours(20_003 + k, 56));

    const starts = windows.map((t) => t[windowStart(t, 60, 56)]);

    expect(starts[0] % WEEK).toBe(0);
    expect(starts[1]).toBe(starts[0]);
    expect(starts[2]).toBe(starts[0]);
    expect(20_003 * DAY - starts[0]).toBeGreaterThanOrEqual(49 * DAY);
  });

  it('keeps a short history whole', () => {
    const t = hours(20_000, 30);
    expect(windowStart(t, 60, 56)).toBe(0);
  });

  it('revalidates only the newest fold of a forecast made a day after another', () => {
    // Prepare: a member that counts its fits, on 70 days of hourly data and the same plus a day.
    let fits = 0;
    const counting: ForecastMember = { ...seasonalNaiveMember, name: 'counting_naive', fit: (h, c) => (fits++, seasonalNaiveMember.fit(h, c)) };
    const y = Array.from({ length: 71 * 24 }, (_, i) => 100 + 20 * Math.sin((2 * Math.PI * i) / 24) + (i % 7));
    const t = hours(20_000, 71);
    const series = (days: number): RegularSeries => ({ t: t.slice(0, days * 24), y: y.slice(0, days * 24), stepMinutes: 60 });
    const request = { horizonSteps: 24, coverage: 0.9, context: { kind: 'load' as const }, members: [counting, smartPersistenceMember] };
    clearFoldCache();
    forecastSeries(series(70), request);
    fits = 0;

    // Act
    forecastSeries(series(71), request);

    // Assess: the new fold and the final fit; a cold forecast fits every fold (load: 28) and the final fit.
    expect(fits).toBe(2);
    clearFoldCache();
    fits = 0;
    forecastSeries(series(71), request);
    expect(fits).toBe(29);
  });
});

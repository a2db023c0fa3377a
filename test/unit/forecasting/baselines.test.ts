import { fitSeasonalNaive, fitSmartPersistence, seasonalNaiveMember, smartPersistenceMember } from '../../../shared/domain/forecasting/baselines';
import type { RegularSeries } from '../../../shared/domain/forecasting/types';
import { clearSkyGhiAt } from '../../../shared/domain/weather/clear-sky';

const T0 = Date.parse('2024-06-01T00:00:00Z');
const series = (values: number[], stepMinutes = 60): RegularSeries => ({ t: values.map((_, i) => T0 + i * stepMinutes * 60_000), y: values, stepMinutes });
const dailySine = (i: number, perDay = 24) => 10 + 5 * Math.sin((2 * Math.PI * i) / perDay);

describe('seasonal_naive', () => {
  it('reproduces a pure daily sine exactly, over two days ahead', () => {
    const history = series(Array.from({ length: 96 }, (_, i) => dailySine(i)));

    const forecast = seasonalNaiveMember.fit(history, { kind: 'generic' }).predict(48);

    forecast.forEach((v, j) => expect(v).toBeCloseTo(dailySine(96 + j), 12));
  });

  it('reproduces a 15-minute daily sine exactly', () => {
    const history = series(Array.from({ length: 3 * 96 }, (_, i) => dailySine(i, 96)), 15);

    const forecast = fitSeasonalNaive(history).predict(96);

    expect(Math.max(...forecast.map((v, j) => Math.abs(v - dailySine(3 * 96 + j, 96))))).toBeLessThan(1e-12);
  });

  it('falls back to a week earlier, then to the time-of-day mean, when yesterday is missing', () => {
    const values = Array.from({ length: 8 * 24 }, (_, i) => i); // value = index
    values[7 * 24 + 5] = NaN; // yesterday's 05:00 missing -> a week before the target: index 8*24+5-168 = 29
    values[7 * 24 + 6] = NaN;
    values[24 + 6] = NaN; // a week before the 06:00 target missing too -> mean of the other 06:00 values
    const forecast = fitSeasonalNaive(series(values)).predict(24);

    expect(forecast[0]).toBe(7 * 24);
    expect(forecast[5]).toBe(29);
    const sixes = [6, 2 * 24 + 6, 3 * 24 + 6, 4 * 24 + 6, 5 * 24 + 6, 6 * 24 + 6];
    expect(forecast[6]).toBeCloseTo(sixes.reduce((s, v) => s + v, 0) / sixes.length, 12);
  });
});

describe('smart_persistence', () => {
  it('decays the last departure from the time-of-day mean toward that mean (generic series)', () => {
    // A daily sine plus an AR(1) departure (phi 0.8) from a seeded generator, ending 5 above the usual level.
    let seed = 1;
    const noise = () => ((seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647 - 0.5) * 2;
    let departure = 0;
    const values = Array.from({ length: 7 * 24 }, (_, i) => dailySine(i) + (departure = 0.8 * departure + noise()));
    values[values.length - 1] += 5;

    const model = smartPersistenceMember.fit(series(values), { kind: 'generic' });
    const forecast = model.predict(48);

    // Time-of-day means over the 7 days, as the member computes them.
    const meanAt = (slot: number) => [0, 1, 2, 3, 4, 5, 6].reduce((s, d) => s + values[d * 24 + slot], 0) / 7;
    const lastAnomaly = values[values.length - 1] - meanAt(23);
    const decay = (forecast[0] - meanAt(0)) / lastAnomaly;
    expect(decay).toBeGreaterThan(0.5);
    expect(decay).toBeLessThan(1);
    forecast.forEach((v, j) => expect(v - meanAt(j % 24)).toBeCloseTo(lastAnomaly * decay ** (j + 1), 9));
    expect(Math.abs(forecast[47] - meanAt(23))).toBeLessThan(0.01);
  });

  it('for solar without coordinates scales the 7-day mean profile by the last day energy', () => {
    const day = Array.from({ length: 24 }, (_, h) => Math.max(0, Math.sin(((h - 6) * Math.PI) / 12)));
    const values = Array.from({ length: 7 }, (_, d) => day.map((v) => (d === 6 ? 0.5 : 1) * v)).flat();

    const forecast = fitSmartPersistence(series(values), { kind: 'solar' }).predict(24);

    // mean day = (6 x 1 + 0.5) / 7 = 6.5/7 of the profile; last day / mean = 0.5 / (6.5 / 7)
    forecast.forEach((v, h) => expect(v).toBeCloseTo(0.5 * day[h], 12));
  });

  it('for solar with coordinates is the last day clear-sky index times the clear-sky profile (0 at night)', () => {
    const site = { latitude: 39.74, longitude: -105.18 };
    const values = Array.from({ length: 3 * 24 }, (_, i) => (0.7 * clearSkyGhiAt(new Date(T0 + i * 3_600_000), site)) / 1000);

    const forecast = fitSmartPersistence(series(values), { kind: 'solar', ...site }).predict(24);

    forecast.forEach((v, h) => expect(v).toBeCloseTo((0.7 * clearSkyGhiAt(new Date(T0 + (72 + h) * 3_600_000), site)) / 1000, 4));
    expect(forecast.filter((v) => v === 0).length).toBeGreaterThan(6);
  });
});

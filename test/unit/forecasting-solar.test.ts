import { memberNamed } from '../../shared/domain/forecasting/members';
import { fitSolar } from '../../shared/domain/forecasting/solar';
import { fitIndexBlend, LEAD_BLOCK_HOURS } from '../../shared/domain/forecasting/solar-blend';
import { fitIrradianceModel } from '../../shared/domain/forecasting/solar-irradiance';
import { clearSkyIndexPersistenceMember, fitClearSkyIndexPersistence } from '../../shared/domain/forecasting/solar-persistence';
import type { RegularSeries } from '../../shared/domain/forecasting/types';
import { clearSkyGhiAt } from '../../shared/domain/weather/clear-sky';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// NREL's campus in Golden, Colorado (UTC-7: local noon is 19:00 UTC).
const SITE = { latitude: 39.74, longitude: -105.18 };

/** Park-Miller generator and Box-Muller normals: reproducible noise. */
function normals(seed: number): () => number {
  let state = seed;
  const uniform = () => (state = (state * 16807) % 2147483647) / 2147483647;
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** A daily clear-sky index following an AR(1) around `mean` with lag-1 correlation `rho`. */
function dailyIndex(days: number, rho: number, seed: number, mean = 0.7, sd = 0.2): number[] {
  const z = normals(seed);
  const out: number[] = [];
  let x = 0;
  for (let d = 0; d < days; d++) {
    x = rho * x + Math.sqrt(1 - rho * rho) * sd * z();
    out.push(Math.min(1.15, Math.max(0.05, mean + x)));
  }
  return out;
}

/** A fake sun for hourly steps from midnight: up from 06:00 to 18:00 with a half-sine profile, 1000 at noon. */
const fakeSun = (hours: number) => Array.from({ length: hours }, (_, h) => Math.max(0, 1000 * Math.sin((Math.PI * ((h % 24) - 6)) / 12)));
const blockOf = (leadHours: number) => LEAD_BLOCK_HOURS.findIndex((bound) => leadHours <= bound);
// With one index per day, yesterday's last daylight hours and its whole day say the same: the weight is their sum.
const persistenceWeight = ({ weights }: ReturnType<typeof fitIndexBlend>) => weights[blockOf(18)].recent + weights[blockOf(18)].day;

describe('fitIndexBlend: climatology and persistence weights estimated from the history', () => {
  it('weights yesterday by about its lag-1 correlation when the daily index persists, and not at all when it does not', () => {
    const days = 90;
    const expected = fakeSun(days * 24);
    const future = fakeSun(24);
    const weightFor = (rho: number, seed: number) => {
      const index = dailyIndex(days, rho, seed);
      const production = expected.map((e, i) => e * index[Math.floor(i / 24)]);
      return persistenceWeight(fitIndexBlend(production, expected, future, 60, 1.2));
    };

    const persistent = [1, 2, 3].map((seed) => weightFor(0.6, seed));
    const independent = [1, 2, 3].map((seed) => weightFor(0, seed));

    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    // A moving-window climatology includes yesterday, so the estimate sits somewhat under rho.
    expect(mean(persistent)).toBeGreaterThan(0.35);
    expect(mean(persistent)).toBeLessThan(0.8);
    expect(mean(independent)).toBeLessThan(0.15);
  });

  it('expects the time-of-day pattern of the index (a hazy morning, clear afternoons), not its daily mean', () => {
    const days = 40;
    const expected = fakeSun(days * 24);
    const pattern = (h: number) => (h < 12 ? 0.5 : 1);
    const production = expected.map((e, i) => e * pattern(i % 24));

    const { index } = fitIndexBlend(production, expected, fakeSun(24), 60, 1.2);

    // To 0.01: where the pooled neighbours straddle the change of pattern, days carry a small constant anomaly.
    expect(index[9]).toBeCloseTo(0.5, 2);
    expect(index[15]).toBeCloseTo(1, 2);
  });

  it("reads the evening before a night origin: tomorrow's morning follows yesterday's last daylight hours", () => {
    // The weather arrives in the afternoon and stays the night: each morning's index is the previous afternoon's.
    const days = 60;
    const expected = fakeSun(days * 24);
    const afternoons = dailyIndex(days, 0, 12, 0.6, 0.3);
    const index = (d: number, h: number) => (h >= 12 ? afternoons[d] : d > 0 ? afternoons[d - 1] : 0.6);
    const production = expected.map((e, i) => e * index(Math.floor(i / 24), i % 24));

    const blend = fitIndexBlend(production, expected, fakeSun(24), 60, 1.2);

    const last = afternoons[days - 1];
    // The climatology alone would say about 0.6; the origin's last clock hour (midnight) holds nothing.
    expect(Math.abs(last - 0.6)).toBeGreaterThan(0.15);
    expect(blend.index[9]).toBeCloseTo(last, 1);
    expect(blend.weights[blockOf(9)].recent).toBeGreaterThan(0.7);
  });

  it('shrinks the weights toward climatology when the history holds few days', () => {
    const expected = fakeSun(10 * 24);
    const index = dailyIndex(10, 0.9, 7);
    const production = expected.map((e, i) => e * index[Math.floor(i / 24)]);
    const long = dailyIndex(90, 0.9, 7);
    const longExpected = fakeSun(90 * 24);
    const longProduction = longExpected.map((e, i) => e * long[Math.floor(i / 24)]);

    const few = persistenceWeight(fitIndexBlend(production, expected, fakeSun(24), 60, 1.2));
    const many = persistenceWeight(fitIndexBlend(longProduction, longExpected, fakeSun(24), 60, 1.2));

    expect(many).toBeGreaterThan(0.5);
    expect(few).toBeLessThan(many);
  });
});

describe('fitIrradianceModel: production from forecast irradiance, shrunk toward clear sky as the history says', () => {
  const days = 14;
  const expected = fakeSun(days * 24).map((e) => e * 0.005);
  const z = normals(3);
  const clearSky = fakeSun(days * 24);
  const ghi = clearSky.map((c) => c * Math.min(1, Math.max(0, 0.6 + 0.3 * z())));

  it('takes production per unit GHI when the irradiance explains the production', () => {
    const production = ghi.map((g) => 0.004 * g);

    const model = fitIrradianceModel(production, ghi, expected, 60)!;

    expect(model.perGhi[12]).toBeCloseTo(0.004, 6);
    expect(model.perExpected[12]).toBeCloseTo(0, 6);
  });

  it('leans on the expected clear-sky production when the irradiance is a poor forecast', () => {
    // Production follows clouds the "forecast" does not know: its own draws, 0.6 of clear sky on average.
    const w = normals(11);
    const production = expected.map((e) => e * Math.min(1, Math.max(0, 0.6 + 0.3 * w())));

    const model = fitIrradianceModel(production, ghi, expected, 60)!;

    // Mostly the clear-sky term: the GHI term explains little (its share of the noon forecast under a third).
    const noonGhi = model.perGhi[12] * 600;
    const noonExpected = model.perExpected[12] * 5;
    expect(noonExpected).toBeGreaterThan(2 * noonGhi);
  });

  it('is null without irradiance', () => {
    expect(fitIrradianceModel([1, 2], [NaN, NaN], [1, 1], 60)).toBeNull();
  });
});

/** Clear-sky production (5 kW per 1000 W/m2 of clear-sky GHI, instants) times a daily index. */
function siteSeries(days: number, stepMinutes: number, index: readonly number[]): RegularSeries {
  const start = Date.parse('2024-05-01T07:00:00Z'); // local midnight at Golden
  const stepMs = stepMinutes * 60_000;
  const t = Array.from({ length: (days * DAY) / stepMs }, (_, i) => start + i * stepMs);
  return { t, y: t.map((x) => (5 * clearSkyGhiAt(new Date(x), SITE) * index[Math.floor((x - start) / DAY)]) / 1000), stepMinutes };
}

const split = (s: RegularSeries, days: number): [RegularSeries, number[]] => {
  const k = (days * DAY) / (s.stepMinutes * 60_000);
  return [{ t: s.t.slice(0, k), y: s.y.slice(0, k), stepMinutes: s.stepMinutes }, s.y.slice(k)];
};
const rmse = (a: readonly number[], b: readonly number[]) => Math.sqrt(a.reduce((s, v, i) => s + (v - b[i]) ** 2, 0) / a.length);

describe('clear_sky_index_persistence', () => {
  it('is registered for solar only', () => {
    expect(memberNamed('clear_sky_index_persistence')).toBe(clearSkyIndexPersistenceMember);
    expect(clearSkyIndexPersistenceMember.supports('solar')).toBe(true);
    expect(clearSkyIndexPersistenceMember.supports('load')).toBe(false);
  });

  it("carries yesterday's clear-sky index over the clear-sky profile of the horizon", () => {
    const index = [...new Array<number>(13).fill(1), 0.4, 1];
    const [history, truth] = split(siteSeries(15, 60, index), 14);

    const withCoordinates = fitClearSkyIndexPersistence(history, { kind: 'solar', ...SITE }).predict(24);
    const estimated = fitClearSkyIndexPersistence(history, { kind: 'solar' }).predict(24);

    const expected = truth.map((v) => 0.4 * v);
    const peak = Math.max(...truth);
    expect(rmse(withCoordinates, expected) / peak).toBeLessThan(1e-6);
    // The geometry estimated from the production is close, not exact.
    expect(rmse(estimated, expected) / peak).toBeLessThan(0.03);
  });
});

describe('solar_clear_sky without irradiance: the blend on a persistent daily index', () => {
  it('blends climatology and persistence after three dull days: between yesterday and the windows\' mean', () => {
    // Eleven clear days, three at 40% of clear sky: windows of 7, 14 and 30 days (cut to the 14 held) give indices
    // 5.2/7, 12.2/14 and 12.2/14, mean 0.829. The pseudo-origins saw dull days follow dull days, so yesterday's
    // anomaly (0.4 - 0.829) gets some weight, shrunk on so few days.
    const index = [...new Array<number>(11).fill(1), 0.4, 0.4, 0.4, 1];
    const [history, truth] = split(siteSeries(15, 60, index), 14);

    const model = fitSolar(history, { kind: 'solar', ...SITE });

    expect(model.fit.clearSkyIndex).toBeCloseTo(12.2 / 14, 2);
    const noon = truth.indexOf(Math.max(...truth));
    const ratio = model.predict(24)[noon] / truth[noon];
    expect(ratio).toBeGreaterThan(0.45);
    expect(ratio).toBeLessThan(0.78);
  });

  it('beats clear-sky-index persistence and 24-hour persistence day ahead over 20 origins', () => {
    const days = 80;
    const index = dailyIndex(days, 0.5, 5);
    const series = siteSeries(days, 60, index);
    const errors = { member: 0, csi: 0, day: 0 };
    for (let d = 60; d < days; d++) {
      const [history, rest] = split(series, d);
      const truth = rest.slice(0, 24);
      const context = { kind: 'solar' as const, ...SITE };
      errors.member += rmse(fitSolar(history, context).predict(24), truth) ** 2;
      errors.csi += rmse(fitClearSkyIndexPersistence(history, context).predict(24), truth) ** 2;
      errors.day += rmse(history.y.slice(-24), truth) ** 2;
    }

    expect(errors.member).toBeLessThan(0.9 * errors.csi);
    expect(errors.member).toBeLessThan(0.9 * errors.day);
  });
});

import { accuracySets, DEFAULT_ORIGINS, QUICK_ORIGINS } from '../../bench/accuracy/datasets';
import { bootstrap, pairedRatio } from '../../bench/accuracy/bootstrap';
import { hourStarts, localMidnights, spreadOrigins } from '../../bench/accuracy/origins';
import { pairSums } from '../../bench/accuracy/scores';
import type { RegularSeries } from '../../shared/domain/forecasting/types';
import { mulberry32 } from '../../shared/domain/seeded-random';

const HOUR = 3_600_000;

describe('spreadOrigins', () => {
  it('picks the asked number of candidates spread from the first to the last, in order', () => {
    const candidates = Array.from({ length: 101 }, (_, i) => 1000 + 10 * i);
    const picked = spreadOrigins(candidates, 11, 1);
    expect(picked).toEqual(Array.from({ length: 11 }, (_, i) => 1000 + 100 * i));
  });

  it('rotates the weekday when the even spacing is a whole number of weeks', () => {
    // 365 daily candidates, 27 origins: an even spacing of exactly 14 days would land on one weekday only.
    const days = Array.from({ length: 365 }, (_, i) => i);
    const picked = spreadOrigins(days, 27, 7);
    expect(picked).toHaveLength(27);
    expect(new Set(picked.map((d) => d % 7)).size).toBe(7);
    expect(picked[0]).toBe(0);
    expect(Math.max(...picked)).toBeLessThanOrEqual(364);
    expect([...picked].sort((a, b) => a - b)).toEqual(picked);
  });

  it('returns every candidate when fewer than asked, and none for a count of 0', () => {
    expect(spreadOrigins([3, 5, 8], 10)).toEqual([3, 5, 8]);
    expect(spreadOrigins([3, 5, 8], 0)).toEqual([]);
  });
});

describe('origin candidates', () => {
  const hourly: RegularSeries = { t: Array.from({ length: 24 * 5 }, (_, i) => Date.UTC(2019, 2, 29) + i * HOUR), y: [], stepMinutes: 60 };

  it('finds local midnights across a DST change (Brussels, 31 March 2019)', () => {
    const midnights = localMidnights(hourly, 'Europe/Brussels', 0, hourly.t.length - 1).map((i) => new Date(hourly.t[i]).toISOString());
    expect(midnights).toEqual(['2019-03-29T23:00:00.000Z', '2019-03-30T23:00:00.000Z', '2019-03-31T22:00:00.000Z', '2019-04-01T22:00:00.000Z', '2019-04-02T22:00:00.000Z']);
  });

  it('finds whole hours of a 10-minute series', () => {
    const tenMinutes: RegularSeries = { t: Array.from({ length: 30 }, (_, i) => Date.UTC(2017, 8, 1, 0, 10) + i * 600_000), y: [], stepMinutes: 10 };
    expect(hourStarts(tenMinutes, 0, 29)).toEqual([5, 11, 17, 23, 29]);
  });
});

describe('bootstrap', () => {
  it('brackets the mean of normal draws with about its 95% interval', () => {
    const random = mulberry32(7);
    const values = Array.from({ length: 400 }, () => random() * 2 - 1 + 5);
    const mean = (w: readonly number[]) => w.reduce((s, k, i) => s + k * values[i], 0) / w.reduce((s, k) => s + k, 0);
    const e = bootstrap(values.length, mean, { resamples: 2000, seed: 3 });
    // Uniform(-1, 1): sd 0.577, standard error 0.0289, half-width about 0.057.
    expect(e.estimate).toBeCloseTo(mean(values.map(() => 1)), 12);
    expect(e.lo).toBeLessThan(e.estimate);
    expect(e.hi).toBeGreaterThan(e.estimate);
    expect(e.hi - e.lo).toBeGreaterThan(0.09);
    expect(e.hi - e.lo).toBeLessThan(0.14);
  });

  it('repeats exactly with the same seed', () => {
    const stat = (w: readonly number[]) => w[0] - w[1];
    expect(bootstrap(5, stat, { seed: 9 })).toEqual(bootstrap(5, stat, { seed: 9 }));
  });

  it('pairs the resampled origins: a model uniformly 20% worse has ratio 1.2 with a zero-width interval', () => {
    const random = mulberry32(1);
    const b = Array.from({ length: 50 }, () => 1 + 10 * random());
    const e = pairedRatio({ a: b.map((x) => 1.2 * x), b });
    expect(e.estimate).toBeCloseTo(1.2, 12);
    expect(e.lo).toBeCloseTo(1.2, 12);
    expect(e.hi).toBeCloseTo(1.2, 12);
  });

  it('takes the root of squared-error ratios, and its interval widens with origin-to-origin disagreement', () => {
    const e = pairedRatio({ a: [4, 1, 4, 1, 4, 1], b: [1, 1, 1, 1, 1, 1] }, { root: true });
    expect(e.estimate).toBeCloseTo(Math.sqrt(15 / 6), 12);
    expect(e.lo).toBeLessThan(e.estimate);
    expect(e.hi).toBeGreaterThan(e.estimate);
  });
});

describe('pairSums', () => {
  it('sums both models over the steps both forecast, leaving out an origin either failed', () => {
    const actuals = [
      [1, 2, NaN],
      [1, 1, 1],
      [2, 2, 2],
    ];
    const a = [[1, 3, 0], null, [2, 2, 5]];
    const b = [[2, NaN, 0], [1, 1, 1], [1, 1, 1]];
    const sums = pairSums(actuals, a, b, (y, f) => Math.abs(y - f));
    // Origin 0: only lead 0 (lead 1 b is NaN, lead 2 the actual); origin 1: a failed; origin 2: all three.
    expect(sums).toEqual({ a: [0, 3], b: [1, 3], steps: 4 });
  });
});

describe('the price sets', () => {
  it("give Nord Pool's 2017-18 test period with fundamentals every one of its days, except in quick mode", () => {
    const npTest = (counts: typeof DEFAULT_ORIGINS) => accuracySets(['price'], counts, false).filter((s) => s.name === 'nord pool 2016-12-27..2018-12-24');
    const [withFundamentals, without] = npTest(DEFAULT_ORIGINS);
    expect(withFundamentals.variant).toMatch(/^fundamentals/);
    expect(withFundamentals.origins.length).toBe(728);
    expect(without.origins.length).toBe(DEFAULT_ORIGINS.price);
    expect(npTest(QUICK_ORIGINS).map((s) => s.origins.length)).toEqual([QUICK_ORIGINS.price, QUICK_ORIGINS.price]);
    expect(npTest({ ...DEFAULT_ORIGINS, nordPoolTestEveryDay: false })[0].origins.length).toBe(DEFAULT_ORIGINS.price);
  });
});

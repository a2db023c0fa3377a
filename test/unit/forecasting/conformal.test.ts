import { seasonalNaiveMember, smartPersistenceMember } from '../../../shared/domain/forecasting/baselines';
import { conformalIntervals, pooledResiduals, residualQuantiles } from '../../../shared/domain/forecasting/conformal';
import { forecastSeries } from '../../../shared/domain/forecasting/engine';
import type { RegularSeries } from '../../../shared/domain/forecasting/types';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('residualQuantiles (finite-sample corrected order statistics)', () => {
  it('takes the floor((n+1) alpha/2)-th and ceil((n+1)(1 - alpha/2))-th residuals', () => {
    // n = 39, 90%: floor(40 x 0.05) = 2nd, ceil(40 x 0.95) = 38th
    expect(residualQuantiles(range(1, 39), 0.9)).toEqual({ lo: 2, hi: 38 });
    // n = 19: floor(1) = 1st, ceil(19) = 19th, the sample's range
    expect(residualQuantiles(range(1, 19).reverse(), 0.9)).toEqual({ lo: 1, hi: 19 });
    // n = 5: the upper order statistic ceil(6 x 0.95) = 6 > n is clamped to the largest
    expect(residualQuantiles([3, -1, 2, 0, 1], 0.9)).toEqual({ lo: -1, hi: 3 });
  });

  it('takes the levels from the number of exchangeable units when given', () => {
    // 40 residuals from 19 units: levels floor(20 x 0.05) / 19 and ceil(20 x 0.95) / 19 = 1 -> 3rd and 40th
    expect(residualQuantiles(range(1, 40), 0.9, 19)).toEqual({ lo: 3, hi: 40 });
  });

  it('rejects a coverage outside (0, 1)', () => {
    expect(() => residualQuantiles([1], 1)).toThrow(RangeError);
  });
});

describe('conformalIntervals', () => {
  it('pools neighbouring leads until there are enough residuals', () => {
    const byLead = [[1], [2], [3], [4]];

    expect(pooledResiduals(byLead, 0, 3).residuals.sort()).toEqual([1, 2, 3]);
    expect(pooledResiduals(byLead, 2, 3).residuals.sort()).toEqual([2, 3, 4]);
    expect(pooledResiduals(byLead, 3, 10)).toEqual({ residuals: [4, 3, 2, 1], folds: 1 });
  });

  it('counts folds, not pooled points, in the finite-sample correction', () => {
    // 3 folds x 13 leads pooled: 39 residuals but 3 exchangeable days, so the interval is their whole range.
    const byLead = Array.from({ length: 13 }, (_, j) => [j - 19, j, j + 7]);

    const { lower, upper } = conformalIntervals(new Array(13).fill(0), byLead, 0.9, { minResiduals: 39 });

    expect(lower[6]).toBe(-19);
    expect(upper[6]).toBe(19);
  });

  it('adds the residual quantiles to the point, clips at 0 and forces [0, 0] where the point is 0', () => {
    const residuals = [range(-19, 19), range(-19, 19), range(-19, 19)]; // n = 39 -> 2nd = -18, 38th = 18

    const { lower, upper } = conformalIntervals([100, 5, 0], residuals, 0.9, { nonNegative: true, zeroWherePointZero: true, minResiduals: 1 });

    expect(lower).toEqual([82, 0, 0]);
    expect(upper).toEqual([118, 23, 0]);
  });

  it('keeps lower <= point <= upper even when every residual has one sign', () => {
    const { lower, upper } = conformalIntervals([10], [[1, 2, 3, 4]], 0.5, { minResiduals: 1 });

    expect(lower[0]).toBe(10);
    expect(upper[0]).toBeGreaterThan(10);
  });
});

describe('coverage on held-out data (daily pattern + Gaussian noise, seeded)', () => {
  // Park-Miller generator and Box-Muller: reproducible noise.
  let seed = 42;
  const uniform = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
  const gaussian = () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  const days = 70;
  const t0 = Date.parse('2024-01-01T00:00:00Z');
  const y = Array.from({ length: days * 24 }, (_, i) => 50 + 20 * Math.sin((2 * Math.PI * i) / 24) + 3 * gaussian());
  const t = y.map((_, i) => t0 + i * 3_600_000);

  it.each([
    ['seasonal_naive', [seasonalNaiveMember]],
    ['ensemble', [seasonalNaiveMember, smartPersistenceMember]],
  ])('a 90%% interval of %s covers 85-95%% of 30 held-out days', (modelType, members) => {
    let inside = 0;
    let total = 0;
    for (let day = days - 30; day < days; day++) {
      const history: RegularSeries = { t: t.slice(0, day * 24), y: y.slice(0, day * 24), stepMinutes: 60 };
      const result = forecastSeries(history, { horizonSteps: 24, coverage: 0.9, folds: 20, modelType, members, context: { kind: 'generic' } });
      result.points.forEach((p, j) => {
        const actual = y[day * 24 + j];
        if (actual >= p.lower && actual <= p.upper) inside++;
        total++;
      });
    }

    expect(total).toBe(720);
    expect(inside / total).toBeGreaterThanOrEqual(0.85);
    expect(inside / total).toBeLessThanOrEqual(0.95);
  });
});

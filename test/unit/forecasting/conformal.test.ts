import { seasonalNaiveMember, smartPersistenceMember } from '../../../shared/domain/forecasting/baselines';
import { absoluteQuantile, pooledResiduals, profileUnits, regimeIntervals, residualQuantiles } from '../../../shared/domain/forecasting/conformal';
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

describe('absoluteQuantile (the symmetric score)', () => {
  it('takes the ceil((n+1) coverage)-th absolute residual for both sides', () => {
    // n = 39, 90%: ceil(40 x 0.9) = 36th of |r| = 1..39
    expect(absoluteQuantile(range(1, 39).map((r, i) => (i % 2 ? -r : r)), 0.9)).toEqual({ lo: -36, hi: 36 });
    // 40 residuals from 19 units: level ceil(20 x 0.9) / 19 = 18 / 19 -> the 38th of 40
    expect(absoluteQuantile(range(1, 40), 0.9, 19)).toEqual({ lo: -38, hi: 38 });
  });

  it('centres the interval on the point when regimeIntervals asks for it (symmetric)', () => {
    // 39 folds whose errors were all above the forecast, 1..39: per tail [p + 2, p + 38]; symmetric p -+ 36.
    const calibration = { predictions: range(1, 39).map(() => [0]), actuals: range(1, 39).map((r) => [r]) };

    expect(regimeIntervals([100], calibration, 0.9, { regime: { kind: 'additive' } })).toEqual({ lower: [100], upper: [138] });
    expect(regimeIntervals([100], calibration, 0.9, { regime: { kind: 'additive' }, symmetric: true })).toEqual({ lower: [64], upper: [136] });
  });
});

describe('pooledResiduals', () => {
  it('pools neighbouring leads until there are enough residuals', () => {
    const byLead = [[1], [2], [3], [4]];

    expect(pooledResiduals(byLead, 0, 3).residuals.sort()).toEqual([1, 2, 3]);
    expect(pooledResiduals(byLead, 2, 3).residuals.sort()).toEqual([2, 3, 4]);
    expect(pooledResiduals(byLead, 3, 10)).toEqual({ residuals: [4, 3, 2, 1], folds: 1 });
  });
});

describe('regimeIntervals', () => {
  // 39 folds of one lead each: residuals -19..19 around a forecast of 100.
  const folds = range(-19, 19).map((r) => ({ p: 100, a: 100 + r }));
  const calibration = { predictions: folds.map((f) => [f.p]), actuals: folds.map((f) => [f.a]) };

  it('adds the residual quantiles to the point additively (n = 39: the 2nd and 38th)', () => {
    const { lower, upper } = regimeIntervals([50], calibration, 0.9, { regime: { kind: 'additive' } });

    expect(lower).toEqual([32]);
    expect(upper).toEqual([68]);
  });

  it('scales the quantiles with the level of the forecast when errors are relative', () => {
    const { lower, upper } = regimeIntervals([50], calibration, 0.9, { regime: { kind: 'relative' } });

    // Scores are residual / 100 (-0.18 .. 0.18), applied to a forecast of 50.
    expect(lower[0]).toBeCloseTo(41, 9);
    expect(upper[0]).toBeCloseTo(59, 9);
  });

  it('scales with a given profile, gives [0, 0] where the point is 0 and clips at 0 and the upper bound', () => {
    const two = { predictions: folds.map((f) => [f.p, f.p, f.p]), actuals: folds.map((f) => [f.a, f.a, f.a]) };

    const { lower, upper } = regimeIntervals([5, 0, 100], two, 0.9, { regime: { kind: 'profile', scale: [1, 1, 2] }, nonNegative: true, zeroWherePointZero: true, upperBound: 110, minScores: 1 });

    // The same scale at a lead in the folds and in the forecast: its own errors come back (82..118), clipped at 110.
    expect(lower).toEqual([0, 0, 82]);
    expect(upper).toEqual([23, 0, 110]);
  });

  it('clips at the series\' own least reading instead of 0 when it is negative (an inverter\'s draw), never above 0', () => {
    const below = regimeIntervals([5], calibration, 0.9, { regime: { kind: 'additive' }, nonNegative: true, lowerBound: -6 });
    const above = regimeIntervals([5], calibration, 0.9, { regime: { kind: 'additive' }, nonNegative: true, lowerBound: 3 });

    // 5 - 18 = -13, clipped at -6; a least reading above 0 still clips at 0.
    expect(below.lower).toEqual([-6]);
    expect(above.lower).toEqual([0]);
  });

  it('counts sqrt(folds x points) units for a profile: the upper bound is not the largest pooled score', () => {
    // 20 folds of 10 leads, residuals a permutation of -100..99 (coprime stride): all pooled, 200 points.
    const predictions = range(0, 19).map(() => range(0, 9).map(() => 500));
    const actuals = range(0, 19).map((f) => range(0, 9).map((j) => 500 + (((f * 10 + j) * 37) % 200) - 100));

    const { lower, upper } = regimeIntervals(range(0, 9).map(() => 500), { predictions, actuals }, 0.9, { regime: { kind: 'profile', scale: range(0, 9).map(() => 1) }, minScores: 200 });

    // Counted as 20 folds, the levels were 1/20 and 20/20: the 10th smallest score and the largest (99).
    expect(profileUnits(20, 200)).toBeCloseTo(Math.sqrt(4000), 12);
    expect(upper[0]).toBeLessThan(599);
    expect(upper[0]).toBeGreaterThanOrEqual(590);
    expect(lower[0]).toBeGreaterThan(400);
    expect(lower[0]).toBeLessThanOrEqual(410);
  });

  it('scales with the error of the forecast level tercile (level): narrow where the output barely moves', () => {
    // 90 folds: forecasts of 0, 50 and 100 in turn; errors of +-1 at 0 and 100, +-10 at 50.
    const levels = range(0, 89).map((i) => [0, 50, 100][i % 3]);
    const spread = (p: number) => (p === 50 ? 10 : 1);
    const byLevel = { predictions: levels.map((p) => [p]), actuals: levels.map((p, i) => [p + (i % 2 ? 1 : -1) * spread(p)]) };

    const { lower, upper } = regimeIntervals([0, 50, 100], { predictions: byLevel.predictions.map((f) => [f[0], f[0], f[0]]), actuals: byLevel.actuals.map((f) => [f[0], f[0], f[0]]) }, 0.9, { regime: { kind: 'level' } });

    // Each tercile's scores are its errors over its own mean absolute error (+-1): the intervals are +-1 and +-10.
    expect(upper[0] - lower[0]).toBeCloseTo(2, 9);
    expect(upper[1] - lower[1]).toBeCloseTo(20, 9);
    expect(upper[2] - lower[2]).toBeCloseTo(2, 9);
  });

  it('keeps lower <= point <= upper even when every residual has one sign', () => {
    const { lower, upper } = regimeIntervals([10], { predictions: [[0], [0], [0], [0]], actuals: [[1], [2], [3], [4]] }, 0.5, { regime: { kind: 'additive' } });

    expect(lower[0]).toBe(10);
    expect(upper[0]).toBeGreaterThan(10);
  });

  it('pools neighbouring leads until it has enough scores', () => {
    const calibrationByLead = { predictions: [[0, 0, 0]], actuals: [[1, 2, 3]] };

    const alone = regimeIntervals([0, 0, 0], calibrationByLead, 0.5, { regime: { kind: 'additive' }, minScores: 1 });
    const pooled = regimeIntervals([0, 0, 0], calibrationByLead, 0.5, { regime: { kind: 'additive' }, minScores: 3 });

    expect(alone.upper).toEqual([1, 2, 3]);
    expect(pooled.upper[0]).toBe(3);
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

import { accuracyOf, intervalScore, isNightPoint } from '../../../shared/domain/training/evaluation';

const point = (predicted: number, actual: number | null, lower: number, upper: number) => ({ predicted, actual, lower, upper });

describe('scoring stored forecasts', () => {
  it('calls a point night only when nothing was forecast and nothing produced', () => {
    expect(isNightPoint(point(0, 0, 0, 0))).toBe(true);
    expect(isNightPoint(point(0, 0, 0, 0.4))).toBe(true);
    expect(isNightPoint(point(0.2, 0, 0, 0))).toBe(true);
    // A dead inverter by day: something was forecast, nothing produced.
    expect(isNightPoint(point(2, 0, 1, 3))).toBe(false);
    expect(isNightPoint(point(0, 0.3, 0, 0))).toBe(false);
    expect(isNightPoint(point(0, null, 0, 0))).toBe(false);
  });

  it('leaves night points out of the interval hit rate, and says how many', () => {
    const points = [point(0, 0, 0, 0), point(0, 0, 0, 0), point(3, 2.5, 2, 4), point(3, 5, 2, 4), point(1, null, 0, 2)];

    const score = intervalScore(points);

    expect(score).toEqual({ hitRate: 0.5, scored: 2, outside: 1, nightExcluded: 2 });
  });

  it('has no hit rate when only night points have actuals', () => {
    expect(intervalScore([point(0, 0, 0, 0)])).toEqual({ hitRate: null, scored: 0, outside: 0, nightExcluded: 1 });
  });

  it('measures accuracy as 1 - WAPE over the points with actuals', () => {
    // |3 - 2| + |1 - 2| = 2 over |2| + |2| = 4: 0.5.
    expect(accuracyOf([point(3, 2, 0, 5), point(1, 2, 0, 5), point(9, null, 0, 9)])).toBeCloseTo(0.5, 12);
    expect(accuracyOf([point(0, 0, 0, 0)])).toBeNull();
  });
});

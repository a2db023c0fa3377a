import { fitDirect, leadGrid, modelAt, predictLead, trailingMean } from '../../shared/domain/forecasting/wind-direct';
import { ar1 } from './forecasting-wind-synthetic';
import { gaussian } from '../helpers/seeded-random';

describe('direct multi-step regression', () => {
  it('averages the finite values of a trailing window', () => {
    expect(Array.from(trailingMean([1, 2, NaN, 4, 5], 2))).toEqual([1, 1.5, 2, 4, 4.5]);
    expect(Array.from(trailingMean([NaN, NaN, 3], 2)).slice(0, 2)).toEqual([NaN, NaN]);
  });

  it('fits every lead up to six, then leads about 20% apart, ending at the horizon', () => {
    expect(leadGrid(4)).toEqual([1, 2, 3, 4]);
    expect(leadGrid(36)).toEqual([1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 18, 22, 27, 33, 36]);
    expect(leadGrid(288)[leadGrid(288).length - 1]).toBe(288);
  });

  it('recovers the direct coefficients of an AR(1): y(t+k) = mean + phi^k (y(t) - mean)', () => {
    const y = ar1(20_000, 0.9, 100, 10, 11);

    const fit = fitDirect([y], y, [1, 2, 6], 0)!;

    [1, 2, 6].forEach((k, g) => {
      expect(fit.plain[g].beta[0]).toBeCloseTo(0.9 ** k, 1);
      expect(fit.plain[g].intercept).toBeCloseTo(100 * (1 - 0.9 ** k), -1);
    });
  });

  it("gives a lead's own regressor its weight when it carries the future", () => {
    // y(t+k) is known up to noise from z_k(t): the fit should lean on z and drop the lag.
    const e = gaussian(12);
    const y = ar1(5000, 0.5, 0, 1, 13);
    const extra = (k: number) => Float64Array.from(y, (_, i) => (i + k < y.length ? y[i + k] + 0.01 * e() : NaN));

    const fit = fitDirect([y], y, [1, 3], 0, extra)!;

    for (const model of fit.withExtra!) {
      expect(model.gamma).toBeCloseTo(1, 1);
      expect(Math.abs(model.beta[0])).toBeLessThan(0.05);
    }
  });

  it('chooses among nested models by their error on the latest rows', () => {
    // 20 noise columns over 400 rows overfit; a column that leads y by one step does not.
    const noise = gaussian(14);
    const y = ar1(400, 0.8, 0, 1, 15);
    const junk = Array.from({ length: 20 }, () => Float64Array.from(y, () => noise()));
    const ahead = Float64Array.from(y, (_, i) => (i + 1 < y.length ? y[i + 1] + 0.1 * noise() : NaN));

    const withJunk = fitDirect([y, ...junk], y, [1], 0, undefined, [1, 21])!;
    const withAhead = fitDirect([y, ahead], y, [1], 0, undefined, [1, 2])!;

    expect(Array.from(withJunk.plain[0].beta.subarray(1)).every((b) => b === 0)).toBe(true);
    expect(withAhead.plain[0].beta[1]).toBeGreaterThan(0.8);
  });

  it('interpolates the coefficients of leads between grid leads', () => {
    const a = { intercept: 0, beta: Float64Array.of(1), gamma: 0 };
    const b = { intercept: 10, beta: Float64Array.of(0), gamma: 2 };

    const mid = modelAt([2, 6], [a, b], 3);

    expect(mid.intercept).toBe(2.5);
    expect(mid.beta[0]).toBe(0.75);
    expect(mid.gamma).toBe(0.5);
    expect(modelAt([2, 6], [a, b], 9)).toBe(b);
  });

  it('predicts from the origin features, with the extra regressor only when it is finite', () => {
    const fit = { grid: [1], plain: [{ intercept: 1, beta: Float64Array.of(2), gamma: 0 }], withExtra: [{ intercept: 0, beta: Float64Array.of(1), gamma: 3 }] };

    expect(predictLead(fit, 1, [5])).toBe(11);
    expect(predictLead(fit, 1, [5], 2)).toBe(11);
    expect(predictLead(fit, 1, [5], NaN)).toBe(11);
    expect(predictLead(fit, 1, [4], 1)).toBe(7);
  });

  it('declines a history too short to fit', () => {
    expect(fitDirect([[1, 2, 3]], [1, 2, 3], [1], 0)).toBeNull();
  });
});

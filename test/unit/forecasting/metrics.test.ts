import { mae, mape, mapeDetail, mase, pinball, pointMetrics, r2, rmse, seasonalNaiveMae, smape } from '../../../shared/domain/forecasting/metrics';

const actual = [1, 2, 3, 4];
const forecast = [2, 2, 2, 2];

describe('point metrics against hand-computed values', () => {
  it('computes MAE, RMSE, R2', () => {
    // errors -1, 0, 1, 2: |e| mean 4/4 = 1; e^2 mean 6/4 = 1.5; SStot = 5 -> R2 = 1 - 6/5 = -0.2
    expect(mae(actual, forecast)).toBe(1);
    expect(rmse(actual, forecast)).toBeCloseTo(Math.sqrt(1.5), 12);
    expect(r2(actual, forecast)).toBeCloseTo(-0.2, 12);
    expect(r2(actual, actual)).toBe(1);
  });

  it('computes MAPE in percent and skips zero actuals, saying how many', () => {
    // |1-2|/1 = 1, 0, |3-2|/3 = 1/3, |4-2|/4 = 1/2 -> mean 11/24 = 45.833%
    expect(mape(actual, forecast)).toBeCloseTo((100 * 11) / 24, 10);
    expect(mapeDetail([0, 2, 4], [1, 1, 1])).toEqual({ value: (100 * (0.5 + 0.75)) / 2, skippedZeroActuals: 1 });
    expect(mape([0, 0], [1, 2])).toBeNaN();
  });

  it('computes sMAPE with 2|a-f|/(|a|+|f|), both-zero pairs counting as 0', () => {
    // 2/3, 0, 2/5, 4/6 -> sum 26/15 -> mean 26/60 -> 43.33%
    expect(smape(actual, forecast)).toBeCloseTo((100 * 26) / 60, 10);
    expect(smape([0, 2], [0, 2])).toBe(0);
    expect(smape([1], [0])).toBe(200);
  });

  it('scales MASE by the in-sample seasonal naive MAE', () => {
    const inSample = [0, 10, 2, 14]; // season 2: |2-0| = 2, |14-10| = 4 -> scale 3
    expect(seasonalNaiveMae(inSample, 2)).toBe(3);
    expect(mase(actual, forecast, inSample, 2)).toBeCloseTo(1 / 3, 12);
    expect(mase(actual, forecast, [5, 5, 5], 1)).toBeNaN();
  });

  it('computes the pinball loss of a quantile forecast', () => {
    // q = 0.9, errors a - f: -1, 0, 1, 2 -> 0.1*1, 0, 0.9*1, 0.9*2 = 0.1 + 0.9 + 1.8 = 2.8 -> 0.7
    expect(pinball(actual, forecast, 0.9)).toBeCloseTo(0.7, 12);
    // q = 0.5 is half the MAE
    expect(pinball(actual, forecast, 0.5)).toBeCloseTo(0.5, 12);
    expect(() => pinball(actual, forecast, 1)).toThrow(RangeError);
  });

  it('skips pairs with a NaN on either side', () => {
    expect(mae([1, NaN, 3], [2, 5, NaN])).toBe(1);
    expect(rmse([NaN], [1])).toBeNaN();
    const all = pointMetrics([1, NaN, 3, 4], [2, 0, 2, 2], [0, 10, 2, 14], 2);
    expect(all.mae).toBeCloseTo(4 / 3, 12);
    expect(all.mase).toBeCloseTo(4 / 9, 12);
  });

  it('rejects arrays of different lengths', () => {
    expect(() => mae([1, 2], [1])).toThrow(RangeError);
  });
});

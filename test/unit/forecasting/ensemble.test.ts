import { seasonalNaiveMember, smartPersistenceMember } from '../../../shared/domain/forecasting/baselines';
import { combineForecasts, ensembleValidation, ensembleWeights } from '../../../shared/domain/forecasting/ensemble';
import type { PointMetrics } from '../../../shared/domain/forecasting/metrics';
import type { ForecastMember } from '../../../shared/domain/forecasting/types';
import { validateMember, type MemberValidation } from '../../../shared/domain/forecasting/validation';

const metrics = (rmse: number): PointMetrics => ({ rmse, mae: rmse, mape: NaN, smape: NaN, mase: NaN, r2: NaN });
const record = (member: string, rmse: number, predictions: number[][] = [[0]], actuals: number[][] = [[0]]): MemberValidation => ({
  member,
  origins: predictions.map((_, i) => 100 - i),
  predictions,
  actuals,
  residualsByLead: [],
  metrics: metrics(rmse),
  meanMs: 1,
});

describe('ensembleWeights', () => {
  it('weights inversely to the validation MSE: RMSE 1 and 2 give 0.8 and 0.2', () => {
    const weights = ensembleWeights([record('good', 1), record('poor', 2)]);

    expect(weights.good).toBeCloseTo(0.8, 12);
    expect(weights.poor).toBeCloseTo(0.2, 12);
  });

  it('keeps the best k and gives the rest 0', () => {
    const weights = ensembleWeights([record('a', 1), record('b', 2), record('c', 3), record('d', NaN)], 2);

    expect(weights).toEqual({ a: 0.8, b: 0.2, c: 0, d: 0 });
  });

  it('gives a perfect member all the weight', () => {
    expect(ensembleWeights([record('exact', 0), record('other', 0.5)])).toEqual({ exact: 1, other: 0 });
  });

  it('favours the better member on real validation of a noisy daily pattern', () => {
    let seed = 7;
    const noise = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647 - 0.5;
    const t0 = Date.parse('2024-01-01T00:00:00Z');
    const y = Array.from({ length: 14 * 24 }, (_, i) => 10 + 5 * Math.sin((2 * Math.PI * i) / 24) + 2 * noise());
    // The same as seasonal naive, always 1 too high.
    const biased: ForecastMember = { ...seasonalNaiveMember, name: 'biased', fit: (h, c) => ({ predict: (s) => seasonalNaiveMember.fit(h, c).predict(s).map((v) => v + 1) }) };
    const series = { t: y.map((_, i) => t0 + i * 3_600_000), y, stepMinutes: 60 };
    const validations = [seasonalNaiveMember, smartPersistenceMember, biased].map((m) => validateMember(series, m, { kind: 'generic' }, { horizonSteps: 24, folds: 5 }));

    const weights = ensembleWeights(validations);

    // Yesterday's value carries yesterday's noise too (error variance 2 sigma^2); a 7-day mean much less.
    expect(weights.smart_persistence).toBeGreaterThan(weights.seasonal_naive);
    expect(weights.seasonal_naive).toBeGreaterThan(weights.biased);
    const mse = validations.map((v) => v.metrics.rmse ** 2);
    expect(weights.smart_persistence / weights.seasonal_naive).toBeCloseTo(mse[0] / mse[1], 10);
    expect(weights.smart_persistence + weights.seasonal_naive + weights.biased).toBeCloseTo(1, 12);
  });
});

describe('the ensemble validation record', () => {
  it('combines the members fold forecasts with the weights, so its residuals are its own', () => {
    const a = record('a', 1, [[10, 20]], [[12, 18]]);
    const b = record('b', 2, [[14, 24]], [[12, 18]]);
    const weights = ensembleWeights([a, b]); // 0.8, 0.2

    const combined = ensembleValidation([a, b], weights, [0, 1, 2, 3], 1);

    expect(combined.predictions[0][0]).toBeCloseTo(10.8, 12);
    expect(combined.predictions[0][1]).toBeCloseTo(20.8, 12);
    expect(combined.metrics.mae).toBeCloseTo((1.2 + 2.8) / 2, 12);
  });

  it('leaves out a NaN forecast and renormalises', () => {
    expect(combineForecasts({ a: [1, NaN], b: [3, 5] }, { a: 0.5, b: 0.5 }, 2)).toEqual([2, 5]);
  });
});

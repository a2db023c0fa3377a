import { candidateMembers, dayAheadOnWindow, MODEL_COVERAGES, trainModel, TrainingDataError, type TrainingOptions } from '../../../shared/domain/training/train';
import { forecastWithModel } from '../../../shared/domain/training/serve';
import type { RegularSeries } from '../../../shared/domain/forecasting/types';
import { mulberry32 } from '../../helpers/seeded-random';

const HOUR = 3_600_000;
const START = Date.UTC(2024, 2, 4); // a Monday

function loadLike(days: number, seed: number, noise = 0.5): RegularSeries {
  const random = mulberry32(seed);
  const t = Array.from({ length: days * 24 }, (_, i) => START + i * HOUR);
  const y = t.map((x) => {
    const d = new Date(x);
    return 50 + 20 * Math.sin((2 * Math.PI * (d.getUTCHours() - 6)) / 24) - (d.getUTCDay() % 6 === 0 ? 8 : 0) + noise * (random() - 0.5);
  });
  return { t, y, stepMinutes: 60 };
}

const options = (over: Partial<TrainingOptions> = {}): TrainingOptions => ({
  modelType: 'ensemble',
  folds: 7,
  validationSplit: 0.3,
  testSplit: 0.15,
  minimumPoints: 168,
  features: { lagHours: [24, 168], rollingHours: [24], calendar: true, weather: false },
  horizonSteps: 48,
  ...over,
});

describe('trainModel', () => {
  it('chooses and weights members by cross-validation and reports the held-out test', async () => {
    const series = loadLike(42, 1);

    const report = await trainModel(series, { kind: 'load', timezone: 'UTC' }, options());

    expect(report.crossValidationScores).toHaveLength(7);
    report.crossValidationScores.forEach((s) => expect(s).toBeGreaterThan(0.95));
    expect(Object.values(report.artifact.weights).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    expect(report.test.days).toBe(6); // 15% of 42 days
    expect(report.test.accuracy).toBeGreaterThan(0.98);
    expect(Object.keys(report.artifact.intervals)).toEqual(MODEL_COVERAGES.map(String));
    expect(report.artifact.intervals['0.9'].lo).toHaveLength(48);
    expect(report.artifact.featureModel?.names).toContain('lag_168h');
    expect(report.trainingPoints).toBe(42 * 24);
  });

  it('fails with the reason when the data is too short or the model unknown', async () => {
    await expect(trainModel(loadLike(5, 2), { kind: 'load' }, options({ minimumPoints: 500 }))).rejects.toThrow(new TrainingDataError('The site has 120 data points; this training needs at least 500 (data_requirements.minimum_data_points)'));
    await expect(trainModel(loadLike(20, 2), { kind: 'load' }, options({ modelType: 'price_lear' }))).rejects.toThrow(/Unknown model_type 'price_lear' for a load series/);
  });

  it('serves from the artifact: members refitted on the latest data, intervals from training', async () => {
    const series = loadLike(42, 3);
    const report = await trainModel(series, { kind: 'load', timezone: 'UTC' }, options());
    const next = loadLike(44, 3);

    const points = forecastWithModel(report.artifact, series, { kind: 'load', timezone: 'UTC' }, 48);

    expect(points).toHaveLength(48);
    points.forEach((p, j) => {
      expect(p.t).toBe(series.t[series.t.length - 1] + (j + 1) * HOUR);
      expect(Math.abs(p.value - next.y[series.y.length + j])).toBeLessThan(2);
      expect(p.lower).toBeLessThanOrEqual(p.value);
      expect(p.upper).toBeGreaterThanOrEqual(p.value);
    });
  });

  it('scores a configuration day ahead on a window, as champion and challenger are compared', () => {
    const series = loadLike(30, 4);
    const members = candidateMembers('load', options().features, 'ensemble');

    const naive = dayAheadOnWindow(series, { kind: 'load' }, members, { seasonal_naive: 1 }, 23 * 24);

    expect(naive.days).toBe(7);
    // Seasonal naive repeats the same hour of the day before.
    expect(naive.forecast.slice(0, 24)).toEqual(series.y.slice(22 * 24, 23 * 24));
    expect(naive.actual).toEqual(series.y.slice(23 * 24));
  });
});

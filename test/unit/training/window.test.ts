import { ForecastInputError, MAX_GRID_POINTS, regularise } from '../../../shared/domain/forecasting/regularise';
import type { RegularSeries } from '../../../shared/domain/forecasting/types';
import { MODEL_MIN_STEP_MINUTES, modelStepMinutes, resampleMean, TRAINING_WINDOW_DAYS, trainingWindowStart } from '../../../shared/domain/training/window';

const MINUTE = 60_000;
const DAY = 86_400_000;
const START = Date.UTC(2024, 0, 1);

const fiveMinute = (values: number[], start = START): RegularSeries => ({ t: values.map((_, i) => start + i * 5 * MINUTE), y: values, stepMinutes: 5 });

describe('the training window', () => {
  it('is 400 days ending at the latest point, and fits regularise at 5-minute steps', () => {
    const last = Date.UTC(2034, 5, 30, 23, 55);

    expect(TRAINING_WINDOW_DAYS).toBe(400);
    expect(trainingWindowStart(last)).toBe(last - 400 * DAY);
    expect(TRAINING_WINDOW_DAYS * 288).toBeLessThanOrEqual(MAX_GRID_POINTS);
    // The whole window of 5-minute points regularises (what training reads, whatever the site's history).
    const points = Array.from({ length: TRAINING_WINDOW_DAYS * 288 + 1 }, (_, i) => ({ t: last - 400 * DAY + i * 5 * MINUTE, value: i % 7 }));
    expect(regularise(points).y).toHaveLength(115_201);
  });

  it('fits members on 15-minute or coarser steps', () => {
    expect(MODEL_MIN_STEP_MINUTES).toBe(15);
    expect([5, 10, 15, 30, 60, 7].map(modelStepMinutes)).toEqual([15, 20, 15, 30, 60, 7]);
  });
});

describe('resampleMean', () => {
  it('averages 5-minute values to 15 minutes on the UTC grid, each bucket labelled by its start', () => {
    // Starts at 00:05, so the first bucket [00:00, 00:15) holds two values.
    const series = fiveMinute([1, 2, 3, 4, 5, 6, 7, 8], START + 5 * MINUTE);

    const out = resampleMean(series, 15);

    expect(out.stepMinutes).toBe(15);
    expect(out.t).toEqual([START, START + 15 * MINUTE, START + 30 * MINUTE]);
    expect(out.y).toEqual([1.5, 4, 7]);
  });

  it('averages the known values only and leaves an empty bucket missing', () => {
    const series = fiveMinute([2, NaN, 4, NaN, NaN, NaN, 9, 9, 12]);

    const out = resampleMean(series, 15);

    expect(out.y[0]).toBe(3);
    expect(out.y[1]).toBeNaN();
    expect(out.y[2]).toBe(10);
  });

  it('keeps a series already at the step, and refuses a step that is not a whole multiple', () => {
    const series = fiveMinute([1, 2, 3]);

    expect(resampleMean(series, 5)).toBe(series);
    expect(() => resampleMean({ ...series, stepMinutes: 15 }, 20)).toThrow(ForecastInputError);
    expect(() => resampleMean({ ...series, stepMinutes: 15 }, 20)).toThrow('A 15-minute series cannot be averaged to 20-minute steps; the step must be a whole multiple of the series\' step');
  });

  it('keeps the mean over a day: 288 values become 96', () => {
    const values = Array.from({ length: 288 }, (_, i) => Math.sin(i / 10) + 2);

    const out = resampleMean(fiveMinute(values), 15);

    expect(out.y).toHaveLength(96);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(out.y)).toBeCloseTo(mean(values), 12);
  });
});

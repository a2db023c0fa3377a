import { featureLayout, featureRegressionMember, fitFeatureModel, heldOutRows, permutationImportance, type FeatureConfig } from '../../../shared/domain/training/feature-model';
import type { RegularSeries } from '../../../shared/domain/forecasting/types';
import { mulberry32 } from '../../helpers/seeded-random';

const HOUR = 3_600_000;
const START = Date.UTC(2024, 0, 1); // a Monday

function hourly(days: number, value: (t: number, i: number) => number): RegularSeries {
  const t = Array.from({ length: days * 24 }, (_, i) => START + i * HOUR);
  return { t, y: t.map(value), stepMinutes: 60 };
}

const calendarOnly: FeatureConfig = { lagHours: [], rollingHours: [], calendar: true, weather: false };

describe('feature regression', () => {
  it('lays out one column per lag and window, 32 calendar columns and one per weather variable', () => {
    const layout = featureLayout({ lagHours: [1, 24], rollingHours: [24], calendar: true, weather: true }, ['temperature_c']);

    expect(layout.names).toHaveLength(3 + 32 + 1);
    expect(layout.groups).toMatchObject({ lag_1h: [0], lag_24h: [1], rolling_mean_24h: [2], holiday: [34], weather_temperature_c: [35] });
    expect(layout.groups.hour_of_day).toHaveLength(24);
  });

  it('recovers a pure hour-of-day and weekday profile from the calendar features', () => {
    const profile = (t: number) => 10 + 5 * Math.sin((2 * Math.PI * new Date(t).getUTCHours()) / 24) + (new Date(t).getUTCDay() === 0 ? -3 : 0);
    const history = hourly(28, profile);

    const forecast = fitFeatureModel(history, { kind: 'load' }, calendarOnly).predict(48);

    forecast.forEach((v, j) => expect(v).toBeCloseTo(profile(history.t[history.t.length - 1] + (j + 1) * HOUR), 2));
  });

  it('forecasts recursively from its own lags: an AR(1) decays toward its mean', () => {
    // y_t = 2 + 0.8 (y_{t-1} - 2) with a seeded shock: the forecast from the last value converges to 2.
    const random = mulberry32(7);
    const y: number[] = [5];
    for (let i = 1; i < 24 * 30; i++) y.push(2 + 0.8 * (y[i - 1] - 2) + 0.2 * (random() - 0.5));
    const history = { t: y.map((_, i) => START + i * HOUR), y, stepMinutes: 60 };

    const forecast = fitFeatureModel(history, { kind: 'generic' }, { lagHours: [1], rollingHours: [], calendar: false, weather: false }).predict(48);

    expect(forecast[0]).toBeCloseTo(2 + 0.8 * (y[y.length - 1] - 2), 1);
    expect(Math.abs(forecast[47] - 2)).toBeLessThan(0.05);
  });

  it('uses the weather of the horizon when the history carries it', () => {
    const random = mulberry32(3);
    const temperature = Array.from({ length: 24 * 30 + 24 }, () => 30 * random());
    const history = hourly(30, (_, i) => 100 + 4 * temperature[i]);

    const model = fitFeatureModel(history, { kind: 'load', history: { temperature_c: temperature.slice(0, 24 * 30) }, future: { temperature_c: temperature.slice(24 * 30) } }, { lagHours: [], rollingHours: [], calendar: false, weather: true });

    expect(model.weatherVariables).toEqual(['temperature_c']);
    model.predict(24).forEach((v, j) => expect(v).toBeCloseTo(100 + 4 * temperature[24 * 30 + j], 3));
  });

  it('ranks the feature the series depends on first in permutation importance', () => {
    const random = mulberry32(11);
    const profile = (t: number) => 10 + 8 * Math.sin((2 * Math.PI * new Date(t).getUTCHours()) / 24) + 0.3 * (random() - 0.5);
    const series = hourly(35, profile);
    const config: FeatureConfig = { lagHours: [168], rollingHours: [], calendar: true, weather: false };
    const cut = 28 * 24;
    const model = fitFeatureModel({ t: series.t.slice(0, cut), y: series.y.slice(0, cut), stepMinutes: 60 }, { kind: 'load' }, config);
    const held = heldOutRows(series, { kind: 'load' }, config, model, cut);

    const importance = permutationImportance(model, held.rows, held.targets);

    expect(Object.keys(importance).sort()).toEqual(['holiday', 'hour_of_day', 'lag_168h', 'weekday']);
    expect(importance.hour_of_day).toBeGreaterThan(0.5);
    expect(importance.hour_of_day).toBeGreaterThan(importance.weekday);
    expect(Object.values(importance).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 3);
  });

  it('needs enough history for its longest lag', () => {
    expect(featureRegressionMember({ lagHours: [168], rollingHours: [24], calendar: true, weather: false }).minHistory(60)).toBe(3 * 24 + 168);
  });
});

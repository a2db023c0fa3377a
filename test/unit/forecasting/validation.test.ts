import { foldOrigins, validateMember } from '../../../shared/domain/forecasting/validation';
import type { ForecastMember } from '../../../shared/domain/forecasting/types';

describe('rolling-origin validation', () => {
  it('puts origins at the last k days, one day apart, leaving the minimum history', () => {
    expect(foldOrigins(24 * 5, 60, 3, 24)).toEqual([96, 72, 48]);
    expect(foldOrigins(24 * 5, 60, 6, 48)).toEqual([96, 72, 48]);
  });

  it('fits on the history before each origin and collects residuals per lead', () => {
    const t0 = Date.parse('2024-01-01T00:00:00Z');
    const y = Array.from({ length: 24 * 5 }, (_, i) => i);
    const seen: { length: number; future?: number[]; measuredOnly?: number[] }[] = [];
    // Forecasts the last history value: residual at lead j is (origin + j) - (origin - 1) = j + 1.
    const last: ForecastMember = {
      name: 'last',
      supports: () => true,
      minHistory: () => 24,
      fit: (history, context) => {
        seen.push({ length: history.y.length, future: context.future?.temperature_c, measuredOnly: context.future?.anemometer_ms });
        return { predict: (steps) => new Array(steps).fill(history.y[history.y.length - 1]) };
      },
    };
    const temperature = y.map((v) => v * 10);

    const context = { kind: 'generic' as const, history: { temperature_c: temperature, anemometer_ms: temperature }, future: { temperature_c: new Array<number>(36).fill(0) } };
    const result = validateMember({ t: y.map((_, i) => t0 + i * 3_600_000), y, stepMinutes: 60 }, last, context, { horizonSteps: 36, folds: 3 });

    expect(seen.map((s) => s.length)).toEqual([96, 72, 48]);
    // The observed weather over each fold's horizon stands in for its forecast.
    expect(seen[0].future).toEqual(temperature.slice(96, 120));
    // A variable the forecast has only in its history (a measured wind speed) is not known ahead in a fold either.
    expect(seen.every((s) => s.measuredOnly === undefined)).toBe(true);
    // Lead 30 exists only for the folds whose horizon stays inside the series (origins 72 and 48).
    expect(result.residualsByLead[0]).toEqual([1, 1, 1]);
    expect(result.residualsByLead[30]).toEqual([31, 31]);
    expect(result.metrics.mae).toBeCloseTo((24 * 12.5 + 36 * 18.5 * 2) / (24 + 72), 10);
    expect(result.meanMs).toBeGreaterThanOrEqual(0);
  });
});

import { forecastTiming } from '../../../shared/domain/forecasting/forecast-timing';

const HOUR = 3_600_000;
const ORIGIN = Date.UTC(2016, 5, 30, 23);
const steps = (origin: number, n: number) => Array.from({ length: n }, (_, j) => origin + (j + 1) * HOUR);

describe('forecast timing', () => {
  it('states the start and the data age, and warns when the whole forecast lies before the request', () => {
    const now = Date.UTC(2026, 10, 27, 12);

    const timing = forecastTiming(ORIGIN, steps(ORIGIN, 48), now, 'upload recent data');

    expect(timing.forecast_start).toBe('2016-07-01T00:00:00.000Z');
    expect(timing.data_end).toBe('2016-06-30T23:00:00.000Z');
    expect(timing.data_age_hours).toBe((now - ORIGIN) / HOUR);
    expect(timing.warnings).toEqual([expect.stringMatching(/^the data ends at 2016-06-30T23:00:00.000Z, \d+ hours before this request: the whole forecast \(2016-07-01T00:00:00.000Z to 2016-07-02T23:00:00.000Z\) lies before the request; upload recent data$/)]);
  });

  it('counts the steps already past when only some are', () => {
    const now = ORIGIN + 5.5 * HOUR;

    expect(forecastTiming(ORIGIN, steps(ORIGIN, 24), now, 'x')).toMatchObject({ data_age_hours: 5.5, warnings: [expect.stringContaining('the first 5 of 24 forecast steps lie before the request')] });
  });

  it('warns about nothing when the data reaches the request', () => {
    expect(forecastTiming(ORIGIN, steps(ORIGIN, 24), ORIGIN + 0.25 * HOUR, 'x')).toEqual({ forecast_start: '2016-07-01T00:00:00.000Z', data_end: '2016-06-30T23:00:00.000Z', data_age_hours: 0.3, warnings: [] });
  });
});

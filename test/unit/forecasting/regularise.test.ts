import { checkHistory, ForecastInputError, regularise } from '../../../shared/domain/forecasting/regularise';

const T0 = Date.parse('2024-03-01T00:00:00Z');
const MIN = 60_000;
const points = (minutes: number[], value = 1) => minutes.map((m) => ({ t: T0 + m * MIN, value }));

describe('regularise', () => {
  it('infers the most common step and places values on the grid with NaN gaps', () => {
    const series = regularise([...points([0, 15, 30]), { t: T0 + 60 * MIN, value: 7 }]);

    expect(series.stepMinutes).toBe(15);
    expect(series.t).toEqual([0, 15, 30, 45, 60].map((m) => T0 + m * MIN));
    expect(series.y).toEqual([1, 1, 1, NaN, 7]);
  });

  it('snaps a timestamp a little off the grid (under a quarter step)', () => {
    const series = regularise(points([0, 60, 121, 180]));

    expect(series.y).toEqual([1, 1, 1, 1]);
  });

  it('rejects a duplicated timestamp, naming it', () => {
    const act = () => regularise(points([0, 15, 15, 30]));

    expect(act).toThrow(ForecastInputError);
    expect(act).toThrow('Timestamp 2024-03-01T00:15:00.000Z appears more than once; send one value per interval (merge or drop the duplicate)');
  });

  it('rejects a decreasing timestamp, saying to sort', () => {
    expect(() => regularise(points([0, 30, 15]))).toThrow('Timestamp 2024-03-01T00:15:00.000Z comes after 2024-03-01T00:30:00.000Z; sort the points by time, oldest first');
  });

  it('rejects irregular timestamps off the inferred grid', () => {
    expect(() => regularise(points([0, 15, 30, 45, 52, 60]))).toThrow('Timestamp 2024-03-01T00:52:00.000Z is off the 15-minute grid that starts at 2024-03-01T00:00:00.000Z; resample the series to a regular 15-minute step');
  });

  it('rejects a step outside 5..60 minutes', () => {
    expect(() => regularise(points([0, 1, 2, 3]))).toThrow('The most common interval between points is 1 minutes; resample to a regular step of 5 to 60 whole minutes');
    expect(() => regularise(points([0, 120, 240]))).toThrow(/is 120 minutes/);
  });

  it('rejects non-numeric values, naming the point', () => {
    const bad = [{ t: T0, value: 1 }, { t: T0 + 15 * MIN, value: '3' as unknown as number }];

    expect(() => regularise(bad)).toThrow('Point 1 at 2024-03-01T00:15:00.000Z has a non-numeric value ("3"); send numbers only and leave missing intervals out');
    expect(() => regularise([{ t: T0, value: NaN }, { t: T0 + 15 * MIN, value: 1 }])).toThrow(/Point 0 .* non-numeric value/);
    expect(() => regularise([{ t: NaN, value: 1 }, { t: T0, value: 1 }])).toThrow(/Point 0 has no valid timestamp/);
  });
});

describe('checkHistory', () => {
  const hourly = (hours: number, missingFrom = Infinity) => ({
    t: Array.from({ length: hours }, (_, i) => T0 + i * 60 * MIN),
    y: Array.from({ length: hours }, (_, i) => (i >= missingFrom ? NaN : i)),
    stepMinutes: 60,
  });

  it('accepts two days of hourly history for a day ahead', () => {
    expect(() => checkHistory(hourly(48), 24)).not.toThrow();
  });

  it('says how much history is given and needed', () => {
    expect(() => checkHistory(hourly(36), 24)).toThrow(new ForecastInputError('History too short: 36 hours given, at least 48 hours are needed for a 24-hour horizon'));
    expect(() => checkHistory(hourly(60), 72)).toThrow('History too short: 60 hours given, at least 72 hours are needed for a 72-hour horizon');
  });

  it('needs half of the last 48 hours present', () => {
    expect(() => checkHistory(hourly(96, 70), 24)).toThrow('Too many missing values: 46% of the last 48 hours have values, at least 50% are needed; fill the gaps or send more recent data');
  });

  it('rejects a horizon that is not a positive whole number of steps', () => {
    expect(() => checkHistory(hourly(48), 0)).toThrow(ForecastInputError);
  });
});

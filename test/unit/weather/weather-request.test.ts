import { BadRequest } from '../../../shared/errors';
import { parseWith } from '../../../shared/validation';
import { WEATHER_PARAMETERS, WeatherDataRequest } from '../../../shared/schemas/weather';
import { localDayRange } from '../../../shared/services/weather/weather-data';

const valid = { location: { latitude: 52.52, longitude: 13.405, timezone: 'Europe/Berlin' }, date_range: { start_date: '2024-06-20', end_date: '2024-06-21' } };

function failure(input: unknown): BadRequest {
  try {
    parseWith(WeatherDataRequest, input, 'body');
  } catch (err) {
    return err as BadRequest;
  }
  throw new Error('expected a failure');
}

describe('weather-data request', () => {
  it('defaults to every parameter and forecast_mode false, drops duplicates and canonicalises the zone', () => {
    expect(parseWith(WeatherDataRequest, valid, 'body')).toMatchObject({ parameters: [...WEATHER_PARAMETERS], forecast_mode: false });
    const parsed = parseWith(WeatherDataRequest, { ...valid, location: { ...valid.location, timezone: 'europe/berlin' }, parameters: ['wind_speed', 'wind_speed'] }, 'body');
    expect(parsed.parameters).toEqual(['wind_speed']);
    expect(parsed.location.timezone).toBe('Europe/Berlin');
  });

  it.each([
    [{ ...valid, date_range: { start_date: '2024-06-21', end_date: '2024-06-20' } }, 'Invalid request: date_range.end_date must not be before start_date'],
    [{ ...valid, date_range: { start_date: '2024-01-01', end_date: '2025-01-01' } }, 'Invalid request: date_range.end_date must be at most 366 days from start_date, both included'],
    [{ ...valid, date_range: { start_date: '2024-02-30', end_date: '2024-03-01' } }, 'Invalid request: date_range.start_date must be a valid date'],
    [{ ...valid, location: { ...valid.location, latitude: 91 } }, 'Invalid request: location.latitude must be at most 90'],
    [{ ...valid, location: { ...valid.location, longitude: -181 } }, 'Invalid request: location.longitude must be at least -180'],
    [{ ...valid, location: { ...valid.location, timezone: 'Mars/Olympus_Mons' } }, 'Invalid request: location.timezone must be an IANA time zone such as Europe/Berlin'],
    [{ ...valid, parameters: ['rain'] }, 'Invalid request: parameters.0 must be one of "temperature", "solar_radiation", "wind_speed", "cloud_cover", "humidity", "pressure"'],
    [{ ...valid, parameters: [] }, 'Invalid request: parameters must have at least 1 item(s)'],
    [{ date_range: valid.date_range }, 'Invalid request: location is required'],
  ])('refuses %j', (input, message) => {
    expect(failure(input).message).toBe(message);
  });

  it('accepts a full leap year (366 days, both ends included)', () => {
    expect(() => parseWith(WeatherDataRequest, { ...valid, date_range: { start_date: '2024-01-01', end_date: '2024-12-31' } }, 'body')).not.toThrow();
  });

  it('turns local calendar days into UTC instants, the end date included, across a DST change', () => {
    expect(localDayRange('2024-06-20', '2024-06-21', 'Europe/Berlin')).toEqual({ start: new Date('2024-06-19T22:00:00Z'), end: new Date('2024-06-21T22:00:00Z') });
    const spring = localDayRange('2024-03-31', '2024-03-31', 'Europe/Berlin'); // clocks go forward: a 23-hour day
    expect((spring.end.getTime() - spring.start.getTime()) / 3_600_000).toBe(23);
  });
});

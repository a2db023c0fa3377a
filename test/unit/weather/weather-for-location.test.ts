import { BadRequest } from '../../../shared/errors';
import { useWeatherProvider } from '../../helpers/weather-provider';
import { weatherForLocation } from '../../../shared/services/weather/weather-data';

useWeatherProvider('offline');

describe('weatherForLocation (for enriching uploads)', () => {
  it('resolves a free-text place and returns its hourly points over [start, end)', async () => {
    const { points, source } = await weatherForLocation('Berlin, DE', new Date('2024-06-20T00:00:00Z'), new Date('2024-06-20T06:00:00Z'));
    expect(source).toBe('offline-climatology');
    expect(points.map((p) => p.timestamp)).toEqual(Array.from({ length: 6 }, (_, h) => new Date(Date.UTC(2024, 5, 20, h)).toISOString()));
    expect(points[0].solar_radiation_wm2).toBe(0); // 02:00 CEST
    expect(points[5].solar_radiation_wm2).toBeGreaterThan(50); // the hour to 07:00 CEST
  });

  it('accepts "lat,lon" too', async () => {
    const { points } = await weatherForLocation('-33.92,18.42', new Date('2024-12-21T10:00:00Z'), new Date('2024-12-21T11:00:00Z'));
    expect(points).toHaveLength(1);
    expect(points[0].solar_radiation_wm2).toBeGreaterThan(700); // Cape Town midsummer noon
  });

  it('throws 400 Unknown location for a place it cannot resolve', async () => {
    await expect(weatherForLocation('Atlantis', new Date(0), new Date(3_600_000))).rejects.toEqual(new BadRequest('Unknown location: Atlantis'));
    await expect(weatherForLocation('Atlantis', new Date(0), new Date(3_600_000))).rejects.toMatchObject({ status: 400 });
  });
});

import type { WeatherPoint } from '../../../shared/domain/weather/types';
import type { OpenMeteoProvider } from '../../../shared/weather-providers/open-meteo';
import { CachedOpenMeteo, weatherCell, type WeatherDayStore } from '../../../shared/weather-providers/weather-cell-cache';

describe('weatherCell', () => {
  it('rounds to the 0.1-degree cell and asks for its centre', () => {
    expect(weatherCell(52.52, 13.405)).toEqual({ key: '52.5,13.4', latitude: 52.5, longitude: 13.4 });
    expect(weatherCell(52.549, 13.449)).toEqual(weatherCell(52.52, 13.405));
    expect(weatherCell(52.551, 13.405).key).toBe('52.6,13.4');
    expect(weatherCell(-33.9249, 18.4241)).toEqual({ key: '-33.9,18.4', latitude: -33.9, longitude: 18.4 });
  });

  it('has no negative zero and wraps longitude into [-180, 180)', () => {
    expect(weatherCell(-0.04, -0.04).key).toBe('0.0,0.0');
    expect(weatherCell(10, 179.97).key).toBe('10.0,-180.0');
    expect(weatherCell(10, 190.02).key).toBe('10.0,-170.0');
    expect(weatherCell(90, -180).key).toBe('90.0,-180.0');
  });
});

describe('CachedOpenMeteo', () => {
  it('shares a fetch with a request whose cache read began before that fetch stored the day', async () => {
    // Arrange: one day of hourly points upstream; the second request's store read is held until the first has fetched.
    const day = '2026-06-01';
    const points: WeatherPoint[] = Array.from({ length: 24 }, (_, h) => ({ timestamp: `${day}T${String(h).padStart(2, '0')}:00:00.000Z`, temperature_c: h }) as WeatherPoint);
    let calls = 0;
    const upstream = { hourly: async () => (calls++, points) } as unknown as OpenMeteoProvider;
    const stored = new Map<string, WeatherPoint[]>();
    let releaseSlowRead!: () => void;
    const slowRead = new Promise<void>((resolve) => (releaseSlowRead = resolve));
    let reads = 0;
    const store: WeatherDayStore = {
      read: async (_mode, _cell, days) => {
        const snapshot = new Map(days.filter((d) => stored.has(d)).map((d) => [d, stored.get(d)!]));
        if (++reads === 2) await slowRead;
        return snapshot;
      },
      write: async (_mode, _cell, d, dayPoints) => void stored.set(d, [...dayPoints]),
    };
    const provider = new CachedOpenMeteo(upstream, store);
    const query = { latitude: 52.52, longitude: 13.405, start: new Date(`${day}T00:00:00Z`), end: new Date(`${day}T23:59:59Z`), mode: 'forecast' as const };

    // Act
    const first = provider.hourly(query);
    const second = provider.hourly(query);
    await first;
    releaseSlowRead();

    // Assert
    expect(await second).toEqual(await first);
    expect(calls).toBe(1);
  });
});

import { NEAREST_PLACE_MAX_KM, terrainElevation } from '../../../shared/weather-providers/terrain-elevation';

describe('terrain elevation from the GeoNames gazetteer', () => {
  // Reference elevations: the cities' commonly published altitudes.
  it.each([
    ['Nairobi', -1.2864, 36.8172, 1500, 1900],
    ['Denver', 39.7392, -104.9903, 1500, 1800],
    ['La Paz', -16.5, -68.15, 3300, 4100],
    ['Berlin', 52.52, 13.405, 20, 70],
    ['Amsterdam', 52.37, 4.89, -10, 15],
  ])('%s lies between %i and %i m', (_name, lat, lon, low, high) => {
    const found = terrainElevation(lat, lon)!;
    expect(found.elevationM).toBeGreaterThanOrEqual(low);
    expect(found.elevationM).toBeLessThanOrEqual(high);
    expect(found.distanceKm).toBeLessThan(5);
  });

  it('finds nothing in mid-ocean, farther than NEAREST_PLACE_MAX_KM from any place', () => {
    expect(NEAREST_PLACE_MAX_KM).toBe(30);
    expect(terrainElevation(0, -30)).toBeUndefined();
  });
});

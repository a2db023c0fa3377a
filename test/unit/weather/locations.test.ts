import { distanceKm, nauticalTimezone, resolveLocation, timezoneAt } from '../../../shared/domain/locations';

describe('resolveLocation: city names', () => {
  it('finds Berlin case-insensitively with its zone and country', () => {
    const berlin = resolveLocation('  berLIN ');
    expect(berlin).toMatchObject({ name: 'Berlin', timezone: 'Europe/Berlin', country: 'Germany', countryCode: 'DE' });
    expect(distanceKm(berlin!.latitude, berlin!.longitude, 52.52, 13.405)).toBeLessThan(5);
  });

  it('folds accents both ways', () => {
    expect(resolveLocation('Zurich')).toMatchObject({ name: 'Zürich', timezone: 'Europe/Zurich' });
    expect(resolveLocation('São Paulo')).toMatchObject({ name: 'Sao Paulo', timezone: 'America/Sao_Paulo' });
  });

  it('disambiguates by ISO code, country name or province; a qualifier with no such city finds nothing', () => {
    expect(resolveLocation('Paris, FR')).toMatchObject({ name: 'Paris', country: 'France', timezone: 'Europe/Paris' });
    // The gazetteer (Natural Earth populated places) has no Paris in the United States (Paris, Texas is too small).
    expect(resolveLocation('Paris, US')).toBeUndefined();
    expect(resolveLocation('London, CA')).toMatchObject({ country: 'Canada', timezone: 'America/Toronto' });
    expect(resolveLocation('London, United Kingdom')).toMatchObject({ country: 'United Kingdom', timezone: 'Europe/London' });
    expect(resolveLocation('London, US')).toMatchObject({ country: 'United States of America', timezone: 'America/New_York' });
    expect(resolveLocation('Springfield, Illinois')).toMatchObject({ timezone: 'America/Chicago' });
    expect(resolveLocation('Portland, Oregon, US')).toMatchObject({ timezone: 'America/Los_Angeles' });
    expect(resolveLocation('Portland, Maine, FR')).toBeUndefined();
  });

  it('gives the ISO 3166-1 code that holidays are looked up by, for names and for coordinates near a city', () => {
    expect(resolveLocation('London, CA')?.countryCode).toBe('CA');
    expect(resolveLocation('Chicago, US')?.countryCode).toBe('US');
    expect(resolveLocation('48.14,11.58')).toMatchObject({ timezone: 'Europe/Berlin', countryCode: 'DE' }); // Munich
    expect(resolveLocation('0,-30')).not.toHaveProperty('countryCode'); // mid-Atlantic: a nautical zone, no country
  });

  it('takes the most populous of equal names', () => {
    expect(resolveLocation('London')).toMatchObject({ country: 'United Kingdom' }); // not London, Ontario or Kentucky
    expect(resolveLocation('Springfield')).toMatchObject({ timezone: 'America/New_York' }); // Springfield MA, the largest of five
  });

  it('answers undefined to what it cannot resolve', () => {
    expect(resolveLocation('Atlantis')).toBeUndefined();
    expect(resolveLocation('')).toBeUndefined();
    expect(resolveLocation('Berlin,')).toBeUndefined();
  });
});

describe('resolveLocation: coordinates', () => {
  it('parses "lat,lon" with or without spaces and takes the nearest city’s zone', () => {
    expect(resolveLocation('52.52,13.405')).toEqual({ name: '52.52,13.405', latitude: 52.52, longitude: 13.405, timezone: 'Europe/Berlin', countryCode: 'DE' });
    expect(resolveLocation(' -33.92 , 18.42 ')).toMatchObject({ latitude: -33.92, longitude: 18.42, timezone: 'Africa/Johannesburg' });
    expect(resolveLocation('40.7128 -74.006')).toMatchObject({ timezone: 'America/New_York' });
  });

  it('refuses coordinates out of range', () => {
    expect(resolveLocation('95,10')).toBeUndefined();
    expect(resolveLocation('10,181')).toBeUndefined();
    expect(resolveLocation('-90.5,0')).toBeUndefined();
  });

  it('falls back to the nautical zone more than 500 km from any city (IANA Etc signs are inverted)', () => {
    expect(timezoneAt(0, -150)).toBe('Etc/GMT+10'); // mid-Pacific, UTC-10
    expect(timezoneAt(-45, 90)).toBe('Etc/GMT-6'); // southern Indian Ocean, UTC+6
    expect(nauticalTimezone(7)).toBe('Etc/GMT');
    expect(nauticalTimezone(-180)).toBe('Etc/GMT+12');
  });
});

describe('distanceKm', () => {
  it('gives the haversine distance: Berlin to Paris about 878 km, a quarter meridian 10,008 km', () => {
    expect(distanceKm(52.52, 13.405, 48.8566, 2.3522)).toBeCloseTo(878, -1);
    expect(distanceKm(0, 0, 90, 0)).toBeCloseTo(10_007.6, 0);
  });
});

import {
  clearSkyGhiAt,
  dayOfYear,
  extraterrestrialIrradiance,
  haurwitzGhi,
  ineichenPerez,
  meanClearSkyGhi,
  relativeAirmass,
} from '../../../shared/domain/weather/clear-sky';

const BERLIN = { latitude: 52.52, longitude: 13.405 };

describe('Haurwitz clear-sky GHI', () => {
  it('gives 1098 cos z exp(-0.057 / cos z), by hand at z = 60 and z = 0', () => {
    // z = 60: 1098 * 0.5 * exp(-0.114) = 549 * 0.8922580... = 489.8496
    expect(haurwitzGhi(60)).toBeCloseTo(489.8496, 3);
    // z = 0: 1098 * exp(-0.057) = 1098 * 0.9445941... = 1037.1643
    expect(haurwitzGhi(0)).toBeCloseTo(1037.1643, 3);
  });

  it('is exactly 0 at and below the horizon', () => {
    expect(haurwitzGhi(90)).toBe(0);
    expect(haurwitzGhi(95)).toBe(0);
    expect(haurwitzGhi(150)).toBe(0);
  });
});

describe('Ineichen-Perez clear-sky irradiance', () => {
  it('reproduces pvlib for z = 10, absolute air mass 1, Linke turbidity 3, 1370 W/m2 (test_clearsky.py test_ineichen_nans)', () => {
    const sky = ineichenPerez(10, { airmassAbsolute: 1, linkeTurbidity: 3, dniExtra: 1370 });
    expect(sky.ghi).toBeCloseTo(1042.72590228, 6);
    expect(sky.dni).toBeCloseTo(946.35279683, 6);
    expect(sky.dhi).toBeCloseTo(110.75033088, 6);
  });

  it('is exactly 0 when the sun is at or below the horizon', () => {
    expect(ineichenPerez(90)).toEqual({ ghi: 0, dni: 0, dhi: 0 });
    expect(ineichenPerez(100, { altitudeM: 2000 })).toEqual({ ghi: 0, dni: 0, dhi: 0 });
  });

  it('gives more light to a high site and less through a turbid sky', () => {
    const base = ineichenPerez(30).ghi;
    expect(ineichenPerez(30, { altitudeM: 2000 }).ghi).toBeGreaterThan(base);
    expect(ineichenPerez(30, { linkeTurbidity: 6 }).ghi).toBeLessThan(base);
    expect(ineichenPerez(60).ghi).toBeLessThan(base);
  });
});

describe('air mass and extraterrestrial irradiance', () => {
  it('follows Kasten & Young (1989): about 1 at the zenith, 1.9943 at 60 degrees, 37.92 at the horizon', () => {
    expect(relativeAirmass(0)).toBeCloseTo(0.99971, 5);
    expect(relativeAirmass(60)).toBeCloseTo(1.99429, 5);
    expect(relativeAirmass(90)).toBeCloseTo(37.92, 2);
    expect(relativeAirmass(91)).toBe(Infinity);
  });

  it('follows Spencer (1971): 1 January 1366.1 * (1.00011 + 0.034221 + 0.000719) = 1413.98, aphelion about 3.3% below the constant', () => {
    expect(extraterrestrialIrradiance(1)).toBeCloseTo(1413.98, 2);
    const july = extraterrestrialIrradiance(dayOfYear(new Date('2024-07-04T12:00:00Z')));
    expect(july / 1366.1).toBeCloseTo(0.9666, 3);
  });

  it('counts days of the year from 1 January', () => {
    expect(dayOfYear(new Date('2024-01-01T00:00:00Z'))).toBe(1);
    expect(dayOfYear(new Date('2024-12-31T23:59:59Z'))).toBe(366);
  });
});

describe('clear-sky GHI at a place and time', () => {
  it('is 0 at Berlin midnight and about 850 W/m2 at the June noon', () => {
    expect(clearSkyGhiAt(new Date('2024-06-20T22:00:00Z'), BERLIN)).toBe(0);
    const noon = clearSkyGhiAt(new Date('2024-06-20T11:07:00Z'), BERLIN); // solar noon 13:07 CEST
    expect(noon).toBeGreaterThan(800);
    expect(noon).toBeLessThan(900);
  });

  it('averages over the hour before the timestamp: the sunrise hour lies between 0 and the value at its end', () => {
    const end = new Date('2024-06-20T03:00:00Z'); // sunrise in Berlin about 02:43 UTC
    const mean = meanClearSkyGhi(end, 60, BERLIN);
    expect(mean).toBeGreaterThan(0);
    expect(mean).toBeLessThan(clearSkyGhiAt(end, BERLIN));
    expect(meanClearSkyGhi(new Date('2024-06-20T01:00:00Z'), 60, BERLIN)).toBe(0);
  });
});

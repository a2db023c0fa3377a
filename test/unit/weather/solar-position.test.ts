/**
 * solarPosition against published references. The brief's bound is 0.05 degrees; astronomy-engine agrees with
 * NREL's SPA to about 0.0002 degrees, so the SPA comparisons use 0.005 (a dropped aberration or nutation term,
 * 0.006 degrees or more, fails them) and the solstice-noon comparisons 0.01 (their own approximations add
 * up to about 0.003 degrees).
 */
import { solarPosition } from '../../../shared/domain/weather/solar-position';

const SPA_TOLERANCE = 0.005;
const NOON_TOLERANCE = 0.01;

/** Reda & Andreas eq. 43 refraction at pressure P (mbar) and temperature T (C), scaled to SPA's 1010 mbar, 10 C. */
const toStandardRefraction = (refraction: number, pressure: number, temperature: number) => refraction * (1010 / pressure) * ((273 + temperature) / 283);

describe('solar position against NREL SPA', () => {
  // Reda & Andreas (2004, rev. 2008), Table A4.1: 2003-10-17 12:30:30 at UTC-7, Golden CO, 39.742476 N,
  // 105.1786 W, 1830.14 m, 820 mbar, 11 C, delta T 67 s: topocentric zenith 50.11162, azimuth 194.34024.
  // The unrefracted elevation 39.872046 and refracted 39.888378 are SPA's own outputs for the same inputs, as
  // pvlib's test_solarposition.py (expected_solpos) records them.
  const golden = { latitude: 39.742476, longitude: -105.1786, elevation: 1830.14 };
  const table = solarPosition(new Date('2003-10-17T19:30:30Z'), golden.latitude, golden.longitude, golden.elevation);

  it('matches Table A4.1: true elevation, azimuth, and the zenith with the same refraction applied', () => {
    expect(Math.abs(table.trueElevationDeg - 39.872046)).toBeLessThan(SPA_TOLERANCE);
    expect(Math.abs(table.azimuthDeg - 194.34024)).toBeLessThan(SPA_TOLERANCE);
    // Both use Saemundsson's refraction: SPA's at 820 mbar, 11 C; ours at 1010 mbar, 10 C. Same refraction applied:
    const standardRefraction = toStandardRefraction(39.888378 - 39.872046, 820, 11);
    expect(Math.abs(table.zenithDeg - (90 - 39.872046 - standardRefraction))).toBeLessThan(SPA_TOLERANCE);
    // Without that care the difference is the pressure effect, about 0.004 degrees: still inside the brief's bound.
    expect(Math.abs(table.zenithDeg - 50.11162)).toBeLessThan(0.05);
    expect(table.zenithDeg).toBeCloseTo(90 - table.elevationDeg, 12);
  });

  it.each([
    // pvlib test_solarposition.py expected_solpos_multi: SPA, same site and conditions, the next day.
    ['2003-10-18T19:30:30Z', 39.742476, -105.1786, 1830.14, 39.505196, 194.311132],
    // NREL's SPA web calculator (midcdmz.nrel.gov/apps/spa.pl), Golden 39.743 N 105.178 W, 1829 m, delta T 64.797 s,
    // columns "Top. elevation angle (uncorrected)" and "Top. azimuth angle"; the query and its answer are kept in
    // s-bear/sun-position, sunposition_test.txt.
    ['2020-01-01T19:00:00Z', 39.743, -105.178, 1829, 27.251439, 178.919784],
    ['2020-01-01T21:00:00Z', 39.743, -105.178, 1829, 21.696144, 208.655357],
    ['2020-01-01T22:20:00Z', 39.743, -105.178, 1829, 12.431549, 225.303246],
    ['2020-01-01T23:00:00Z', 39.743, -105.178, 1829, 6.637454, 232.554972],
  ])('at %s (%f, %f) matches SPA', (iso, lat, lon, height, elevation, azimuth) => {
    const sun = solarPosition(new Date(iso), lat, lon, height);
    expect(Math.abs(sun.trueElevationDeg - elevation)).toBeLessThan(SPA_TOLERANCE);
    expect(Math.abs(sun.azimuthDeg - azimuth)).toBeLessThan(SPA_TOLERANCE);
  });

  it('puts the sun below the horizon at night', () => {
    // SPA web calculator, same query: 2020-01-01 00:00 UTC, uncorrected elevation -3.213247, azimuth 242.384141.
    const sun = solarPosition(new Date('2020-01-01T00:00:00Z'), 39.743, -105.178, 1829);
    expect(Math.abs(sun.trueElevationDeg - -3.213247)).toBeLessThan(SPA_TOLERANCE);
    expect(Math.abs(sun.azimuthDeg - 242.384141)).toBeLessThan(SPA_TOLERANCE);
  });
});

/** The highest true elevation of the sun within [from, from + 24 h): coarse scan, then golden-section search. */
function noonElevation(from: Date, latitude: number, longitude: number) {
  const at = (t: number) => solarPosition(new Date(t), latitude, longitude);
  let best = from.getTime();
  for (let t = best; t < from.getTime() + 86_400_000; t += 600_000) if (at(t).trueElevationDeg > at(best).trueElevationDeg) best = t;
  let [a, b] = [best - 600_000, best + 600_000];
  const r = (Math.sqrt(5) - 1) / 2;
  while (b - a > 100) {
    const [c, d] = [b - r * (b - a), a + r * (b - a)];
    if (at(c).trueElevationDeg > at(d).trueElevationDeg) b = d;
    else a = c;
  }
  return at((a + b) / 2);
}

describe('solar noon elevation at the seasons, both hemispheres', () => {
  // At a solstice the sun's apparent declination equals the true obliquity of the ecliptic (its ecliptic latitude
  // is under 1"), and at an equinox it is 0. Instants from USNO "Earth's Seasons" for 2024: March equinox
  // 20 Mar 03:06 UT, June solstice 20 Jun 20:51 UT, December solstice 21 Dec 09:20 UT. True obliquity from
  // the IAU 1980 mean obliquity (Lieske et al. 1977) plus nutation in obliquity (Meeus 1998, ch. 22):
  // 23.43611 + 0.00234 = 23.43845 degrees in June 2024, 23.43604 + 0.00237 = 23.43841 in December 2024.
  // Within half a day of a solstice the declination moves less than 0.001 degrees; the noon elevation is then
  // 90 - |latitude - declination|, less up to 0.0024 degrees of topocentric parallax.
  const JUNE = 23.43845;
  const DECEMBER = -23.43841;

  it.each([
    ['Berlin, June solstice', '2024-06-20T00:00:00Z', 52.52, 13.405, JUNE, 180],
    ['Cape Town, June solstice (winter)', '2024-06-20T00:00:00Z', -33.9249, 18.4241, JUNE, 0],
    ['Cape Town, December solstice (summer)', '2024-12-21T00:00:00Z', -33.9249, 18.4241, DECEMBER, 0],
    ['Nairobi, December solstice', '2024-12-21T00:00:00Z', -1.2864, 36.8172, DECEMBER, 180],
    ['Tromso, December solstice (polar night)', '2024-12-21T00:00:00Z', 69.6496, 18.956, DECEMBER, 180],
  ])('%s', (_label, day, lat, lon, declination, meridianAzimuth) => {
    const noon = noonElevation(new Date(day), lat, lon);
    const expected = 90 - Math.abs(lat - declination);
    expect(Math.abs(noon.trueElevationDeg - expected)).toBeLessThan(NOON_TOLERANCE);
    // The sun culminates on the meridian: due south or due north.
    const azimuthError = Math.abs(((noon.azimuthDeg - meridianAzimuth + 540) % 360) - 180);
    expect(azimuthError).toBeLessThan(0.5);
  });

  it('puts the equinox sun on the equator: noon elevation 90 - latitude where noon falls at the equinox instant', () => {
    // Longitude 135.4 E: apparent noon at 12:00 - 9 h 01.6 min + 7.4 min (equation of time) = 03:06 UT.
    const noon = noonElevation(new Date('2024-03-19T15:00:00Z'), 40, 135.4);
    expect(Math.abs(noon.trueElevationDeg - 50)).toBeLessThan(NOON_TOLERANCE);
    expect(Math.abs(noon.azimuthDeg - 180)).toBeLessThan(0.5);
  });

  it('keeps the sun below the horizon all day in polar night, apparent elevation included', () => {
    const day = Array.from({ length: 24 }, (_, h) => solarPosition(new Date(Date.UTC(2024, 11, 21, h)), 69.6496, 18.956));
    expect(Math.max(...day.map((s) => s.elevationDeg))).toBeLessThan(0);
  });
});

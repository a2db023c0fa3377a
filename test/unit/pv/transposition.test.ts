/**
 * Transposition against pvlib's test values (tests/test_irradiance.py). Its fixtures are Tucson (32.2 N, 111 W,
 * 700 m) on 2014-06-24 at 06, 12 and 18 h local time, a 40-degree south-facing plane, DNI_extra 1321.1655834833093.
 */
import { cosAngleOfIncidence } from '../../../shared/domain/pv/solar-geometry';
import { beamOnPlane, groundDiffuse, hayDaviesSkyDiffuse, isotropicSkyDiffuse, perezSkyDiffuse, planeOfArray } from '../../../shared/domain/pv/transposition';

const DNI_EXTRA = 1321.1655834833093;
// irrad_data and ephem_data fixture rows (the night row 0 aside): ghi, dni, dhi, apparent zenith, azimuth, relative air mass.
const FIXTURE = {
  morning: { ghi: 79.73860422, dni: 316.1949056, dhi: 40.46149818, zenith: 82.85457044, azimuth: 66.71410338, airmass: 7.58831596 },
  noon: { ghi: 1042.48031487, dni: 939.95469881, dhi: 118.45831879, zenith: 10.56413562, azimuth: 144.76567754, airmass: 1.01688136 },
  evening: { ghi: 257.20751138, dni: 646.22886049, dhi: 62.03376265, zenith: 72.41687122, azimuth: 287.04104128, airmass: 3.27930443 },
};
const cosAoi40 = (row: { zenith: number; azimuth: number }) => cosAngleOfIncidence(40, 180, row.zenith, row.azimuth);
const perez40 = (row: (typeof FIXTURE)['noon']) => perezSkyDiffuse(40, row.dhi, row.dni, DNI_EXTRA, row.zenith, cosAoi40(row), row.airmass);

describe('Perez et al. (1990), allsitescomposite1990', () => {
  // Totals: test_poa_components, which pvlib checks to full precision. Components: test_perez_components, whose
  // expected values (from pvlib's MATLAB ancestor) pvlib itself checks to 2 decimals only.
  it('morning: 31.4635077 (test_poa_components) = 26.84 isotropic + 0 circumsolar + 4.62 horizon (test_perez_components)', () => {
    const sky = perez40(FIXTURE.morning);
    expect(sky.total).toBeCloseTo(31.4635077, 6);
    expect(sky.isotropic).toBeCloseTo(26.84138589, 2);
    expect(sky.circumsolar).toBe(0);
    expect(sky.horizon).toBeCloseTo(4.62212181, 2);
    expect(sky.isotropic + sky.circumsolar + sky.horizon).toBeCloseTo(sky.total, 10);
  });

  it('evening: 45.45978964 (test_poa_components) = 31.73 + 4.48 + 9.25 (test_perez_components)', () => {
    const sky = perez40(FIXTURE.evening);
    expect(sky.total).toBeCloseTo(45.45978964, 6);
    expect(sky.isotropic).toBeCloseTo(31.72696071, 2);
    expect(sky.circumsolar).toBeCloseTo(4.47966439, 2);
    expect(sky.horizon).toBeCloseTo(9.25316454, 2);
  });

  it('noon: 109.084332 (test_perez_scalar; test_poa_components 109.08433162)', () => {
    expect(perez40(FIXTURE.noon).total).toBeCloseTo(109.08433162, 6);
  });

  // test_perez_negative_horizon: Goodwin Creek, 2019-01-01 11:30-15:30 CST, a 34-degree south-facing plane, DNI_extra 1414.
  it.each([
    [158, 249, 57.746951, 171.003315, 1.869315, 281.410185, 166.785419, 113.548755, 1.07601],
    [19, 165, 57.564205, 187.346924, 1.859981, 152.20879, 142.24475, 16.09757, -6.13353],
    [1, 136, 60.813841, 202.974357, 2.044429, 123.867898, 119.173875, 9.956174, -5.262151],
    [0, 93, 66.989435, 216.725599, 2.544943, 82.836412, 83.52515, 3.142467, -3.83123],
    [0, 50, 75.353368, 228.317233, 3.900136, 43.517015, 45.725931, 0, -2.208923],
  ])('lets the horizon band go negative (test_perez_negative_horizon): DNI %f, DHI %f', (dni, dhi, zenith, azimuth, airmass, total, isotropic, circumsolar, horizon) => {
    const sky = perezSkyDiffuse(34, dhi, dni, 1414, zenith, cosAngleOfIncidence(34, 180, zenith, azimuth), airmass);
    expect(sky.total).toBeCloseTo(total, 3);
    expect(sky.isotropic).toBeCloseTo(isotropic, 3);
    expect(sky.circumsolar).toBeCloseTo(circumsolar, 3);
    expect(sky.horizon).toBeCloseTo(horizon, 3);
  });

  it('gives nothing without diffuse light or below the horizon (the fixture night row; test_sky_diffuse_zenith_close_to_90)', () => {
    expect(perezSkyDiffuse(40, 0, 0, DNI_EXTRA, 124.0390863, -0.5, NaN).total).toBe(0);
    expect(perezSkyDiffuse(30, 50, 10, 1360, 89.999, cosAngleOfIncidence(30, 180, 89.999, 230), 12).total).toBeLessThan(100);
  });
});

describe('Hay & Davies (1980)', () => {
  it.each([
    ['morning', 27.1775, 27.1775, 0],
    ['noon', 102.9949, 30.1818, 72.813],
    ['evening', 33.1909, 27.9837, 5.2071],
  ] as const)('matches test_haydavies and test_haydavies_components (matlab 1.4 values): %s %f = %f + %f', (row, total, isotropic, circumsolar) => {
    const r = FIXTURE[row];
    const sky = hayDaviesSkyDiffuse(40, r.dhi, r.dni, DNI_EXTRA, r.zenith, cosAoi40(r));
    expect(Math.abs(sky.total - total)).toBeLessThan(1e-4);
    expect(Math.abs(sky.isotropic - isotropic)).toBeLessThan(1e-4);
    expect(Math.abs(sky.circumsolar - circumsolar)).toBeLessThan(1e-4);
    expect(sky.horizon).toBe(0);
  });
});

describe('isotropic sky, ground and beam', () => {
  it('matches test_isotropic_float and test_isotropic_series', () => {
    expect(isotropicSkyDiffuse(40, 100).total).toBeCloseTo(88.30222215594891, 10);
    expect(isotropicSkyDiffuse(40, FIXTURE.noon.dhi).total).toBeCloseTo(104.601328, 5);
  });

  it('matches test_get_ground_diffuse_simple_float (albedo 0.25) and test_get_ground_diffuse_albedo_series (0.2, 45 degrees)', () => {
    expect(groundDiffuse(40, 900, 0.25)).toBeCloseTo(26.32000014911496, 10);
    expect(groundDiffuse(45, 1000)).toBeCloseTo(0.2 * 0.5 * (1 - Math.SQRT2 / 2) * 1000, 10);
    expect(groundDiffuse(0, 1000)).toBe(0);
  });

  it('matches test_poa_components: beam 798.3194 at noon, 33.5014 in the evening, 0 from behind the plane', () => {
    expect(beamOnPlane(FIXTURE.noon.dni, cosAoi40(FIXTURE.noon))).toBeCloseTo(798.31939281, 5);
    expect(beamOnPlane(FIXTURE.evening.dni, cosAoi40(FIXTURE.evening))).toBeCloseTo(33.50143401, 5);
    expect(beamOnPlane(FIXTURE.morning.dni, cosAoi40(FIXTURE.morning))).toBe(0);
  });
});

describe('plane of array', () => {
  it.each([
    ['morning', 35.19456561, 0, 31.4635077, 3.73105791],
    ['noon', 956.18253696, 798.31939281, 109.08433162, 48.77881252],
    ['evening', 90.99624896, 33.50143401, 45.45978964, 12.03502531],
  ] as const)('%s: global %f = beam %f + Perez sky %f + sand-reflected %f (test_poa_components, albedo 0.4)', (row, total, beam, sky, ground) => {
    const r = FIXTURE[row];
    const poa = planeOfArray(40, 180, { ghi: r.ghi, dni: r.dni, dhi: r.dhi, zenithDeg: r.zenith, solarAzimuthDeg: r.azimuth, dniExtra: DNI_EXTRA }, 'perez', 0.4);
    // The air mass is computed (Kasten & Young 1989) rather than taken from the fixture: they agree to 1e-5.
    expect(poa.total).toBeCloseTo(total, 4);
    expect(poa.beam).toBeCloseTo(beam, 5);
    expect(poa.circumsolar + poa.skyDiffuse).toBeCloseTo(sky, 4);
    expect(poa.ground).toBeCloseTo(ground, 6);
  });

  it('offers Hay-Davies and the isotropic sky on the same terms', () => {
    const r = FIXTURE.noon;
    const sun = { ghi: r.ghi, dni: r.dni, dhi: r.dhi, zenithDeg: r.zenith, solarAzimuthDeg: r.azimuth, dniExtra: DNI_EXTRA };
    expect(planeOfArray(40, 180, sun, 'haydavies').circumsolar + planeOfArray(40, 180, sun, 'haydavies').skyDiffuse).toBeCloseTo(102.9949, 4);
    const isotropic = planeOfArray(40, 180, sun, 'isotropic');
    expect(isotropic.skyDiffuse).toBeCloseTo(104.601328, 5);
    expect(isotropic.circumsolar).toBe(0);
    expect(isotropic.ground).toBeCloseTo(groundDiffuse(40, r.ghi, 0.2), 12);
  });
});

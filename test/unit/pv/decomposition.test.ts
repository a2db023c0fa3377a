/**
 * Erbs decomposition and closure against pvlib's test values (tests/test_irradiance.py::test_erbs,
 * test_erbs_all_scalar, test_erbs_min_cos_zenith_max_zenith, test_dni). pvlib takes the day of the year and
 * computes Spencer's extraterrestrial irradiance from it, as extraterrestrialIrradiance does.
 */
import { clearnessIndex, closeComponents, erbs } from '../../../shared/domain/pv/decomposition';
import { extraterrestrialIrradiance } from '../../../shared/domain/weather/clear-sky';

describe('Erbs, Klein & Duffie (1982)', () => {
  it.each([
    // test_erbs: 2019-01-01 (day 1) and 2019-06-20 (day 171): ghi, zenith, dni, dhi, kt.
    [1, 0, 120, 0, 0, 0],
    [1, 50, 85, 96.7192672, 41.5703604, 0.405723511],
    [1, 1000, 10, 794.205651, 217.860117, 0.718132729],
    [171, 1000, 10, 842.001578, 170.790318, 0.768214312],
  ])('day %i, GHI %f at zenith %f: DNI %f, DHI %f, kt %f (pvlib test_erbs)', (day, ghi, zenith, dni, dhi, kt) => {
    const out = erbs(ghi, zenith, extraterrestrialIrradiance(day));
    expect(out.dni).toBeCloseTo(dni, 4);
    expect(out.dhi).toBeCloseTo(dhi, 4);
    expect(out.kt).toBeCloseTo(kt, 6);
  });

  it('day 180, GHI 1000 at zenith 10: DNI 842.358, DHI 170.439, kt 0.76892 (pvlib test_erbs_all_scalar, rtol 1e-2)', () => {
    const out = erbs(1000, 10, extraterrestrialIrradiance(180));
    expect(Math.abs(out.dni / 842.358014 - 1)).toBeLessThan(1e-2);
    expect(Math.abs(out.dhi / 170.439297 - 1)).toBeLessThan(1e-2);
    expect(Math.abs(out.kt / 0.76891947 - 1)).toBeLessThan(1e-2);
  });

  it('puts all of GHI in the diffuse beyond 87 degrees, with kt from cos z floored at 0.065 (test_erbs_min_cos_zenith_max_zenith)', () => {
    // 2016-07-19 is day 201: kt = 1 / (E0 x 0.065) = 0.01163776.
    const out = erbs(1, 90, extraterrestrialIrradiance(201));
    expect(out).toEqual({ dni: 0, dhi: 1, kt: expect.closeTo(0.01163776, 7) });
  });

  it('keeps closure: GHI = DNI cos z + DHI', () => {
    for (const [ghi, zenith] of [[300, 40], [800, 25], [120, 75]]) {
      const out = erbs(ghi, zenith, 1367);
      expect(out.dni * Math.cos((zenith * Math.PI) / 180) + out.dhi).toBeCloseTo(ghi, 9);
    }
  });
});

describe('clearness index', () => {
  it('is bounded to [0, max] and floors cos z', () => {
    expect(clearnessIndex(-5, 30, 1367)).toBe(0);
    expect(clearnessIndex(5000, 30, 1367)).toBe(2);
    expect(clearnessIndex(5000, 30, 1367, 0.065, 1)).toBe(1);
    expect(clearnessIndex(10, 89.9, 1000)).toBeCloseTo(10 / 65, 12);
  });
});

describe('closure', () => {
  // pvlib test_dni: ghi, dhi, zenith -> dni (pvlib answers NaN where this answers 0 and DHI = GHI).
  it('gives DNI = (GHI - DHI) / cos z as pvlib.irradiance.dni does', () => {
    expect(closeComponents(100, 85, 1400, { dhi: 50 }).dni).toBeCloseTo(573.685662283, 6);
    expect(closeComponents(100, 70, 1400, { dhi: 50 }).dni).toBeCloseTo(146.190220008, 6);
    expect(closeComponents(100, 70, 1400, { dhi: 50 }).dhi).toBe(50);
  });

  it('answers DNI 0 and DHI = GHI where pvlib answers NaN: DHI above GHI, or the sun within 2 degrees of the horizon', () => {
    expect(closeComponents(90, 80, 1400, { dhi: 100 })).toEqual({ dni: 0, dhi: 90 });
    expect(closeComponents(100, 88.5, 1400, { dhi: 90 })).toEqual({ dni: 0, dhi: 100 });
  });

  it('caps a DNI derived near the horizon at the extraterrestrial value', () => {
    expect(closeComponents(200, 87, 1400, { dhi: 50 }).dni).toBe(1400);
  });

  it('gives DHI = GHI - DNI cos z from DNI', () => {
    const out = closeComponents(600, 60, 1400, { dni: 800 });
    expect(out.dhi).toBeCloseTo(200, 9);
    expect(closeComponents(300, 60, 1400, { dni: 800 }).dhi).toBe(0);
  });
});

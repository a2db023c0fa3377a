/**
 * Incidence-angle modifiers against pvlib's test values (tests/test_iam.py): test_physical, test_martin_ruiz,
 * test_martin_ruiz_diffuse, test_marion_diffuse_model, test_marion_integrate_scalar and _list.
 */
import { diffuseIam, iamMartinRuiz, iamPhysical, marionIntegrate, martinRuizDiffuse } from '../../../shared/domain/pv/incidence-angle';

/** pvlib.iam.ashrae, b = 0.05: 1 - b (1 / cos AOI - 1), 0 from 90 degrees (the integrand of pvlib's Marion tests). */
const ashrae = (aoi: number) => (Math.abs(aoi) >= 90 ? 0 : Math.max(0, 1 - 0.05 * (1 / Math.cos((aoi * Math.PI) / 180) - 1)));

describe('physical IAM (De Soto et al. 2006)', () => {
  it.each([
    [-90, 0],
    [-67.5, 0.8893998],
    [-45, 0.98797788],
    [-22.5, 0.99926198],
    [0, 1],
    [22.5, 0.99926198],
    [45, 0.98797788],
    [67.5, 0.8893998],
    [90, 0],
  ])('AOI %f: %f (test_physical, n 1.526, K 4, L 0.002, atol 1e-7)', (aoi, expected) => {
    expect(Math.abs(iamPhysical(aoi) - expected)).toBeLessThan(1e-7);
  });

  it('is 0 from behind, NaN for NaN, and 1 without glass (test_physical_n1_L0)', () => {
    expect(iamPhysical(100)).toBe(0);
    expect(iamPhysical(NaN)).toBeNaN();
    for (const aoi of [0, 22.5, 45, 67.5]) expect(iamPhysical(aoi, 1, 4, 0)).toBeCloseTo(1, 12);
  });
});

describe('Martin & Ruiz (2001) IAM', () => {
  it('45 degrees, a_r 0.16: 0.98986965; a_r 0.18: 0 at -100, 0.9414631 at +-60, 1 at 0, 0 at 100 (test_martin_ruiz)', () => {
    expect(iamMartinRuiz(45)).toBeCloseTo(0.98986965, 8);
    expect(iamMartinRuiz(-100, 0.18)).toBe(0);
    expect(iamMartinRuiz(-60, 0.18)).toBeCloseTo(0.9414631, 7);
    expect(iamMartinRuiz(0, 0.18)).toBe(1);
    expect(iamMartinRuiz(60, 0.18)).toBeCloseTo(0.9414631, 7);
    expect(iamMartinRuiz(100, 0.18)).toBe(0);
  });

  it('rejects a non-positive a_r (test_martin_ruiz_exception)', () => {
    expect(() => iamMartinRuiz(0, 0)).toThrow(RangeError);
  });

  it('diffuse, tilt 30, a_r 0.16: sky 0.9549735, ground 0.7944426 (test_martin_ruiz_diffuse)', () => {
    const iam = martinRuizDiffuse(30);
    expect(iam.sky).toBeCloseTo(0.9549735, 7);
    expect(iam.ground).toBeCloseTo(0.7944426, 7);
  });

  it.each([
    [0, 0.9407678, 0],
    [30, 0.945225, 0.7610849],
    [90, 0.9407678, 0.9407678],
    [120, 0.9055541, 0.9483508],
    [180, 0, 0.9407678],
  ])('diffuse, tilt %f, a_r 0.18: sky %f, ground %f (test_martin_ruiz_diffuse, atol 1e-7)', (tilt, sky, ground) => {
    const iam = martinRuizDiffuse(tilt, 0.18);
    expect(Math.abs(iam.sky - sky)).toBeLessThan(1e-7);
    expect(Math.abs(iam.ground - ground)).toBeLessThan(1e-7);
  });
});

describe('Marion (2017) diffuse integration', () => {
  it('physical IAM at 20 degrees: sky 0.9539178294, horizon 0.7652650139, ground 0.6387140118 (test_marion_diffuse_model)', () => {
    expect(marionIntegrate((a) => iamPhysical(a), 20, 'sky')).toBeCloseTo(0.9539178294437575, 10);
    expect(marionIntegrate((a) => iamPhysical(a), 20, 'horizon')).toBeCloseTo(0.7652650139134007, 10);
    expect(marionIntegrate((a) => iamPhysical(a), 20, 'ground')).toBeCloseTo(0.6387140117795903, 10);
  });

  it.each([
    ['sky', [0.9523611991069362, 0.9596085829811408, 0.9619811198105501]],
    ['horizon', [0, 0.8329070417832541, 0.8987287652347437]],
    ['ground', [0, 0.719823559106309, 0.8186360238536674]],
  ] as const)('ASHRAE IAM over the %s at tilts 0, 20, 30 (test_marion_integrate_list)', (region, expected) => {
    [0, 20, 30].forEach((tilt, k) => expect(marionIntegrate(ashrae, tilt, region)).toBeCloseTo(expected[k], 10));
  });

  it('interpolates between whole-degree tilts, within 1e-4 of the integral at the tilt itself', () => {
    const between = diffuseIam('physical', 33.4);
    expect(Math.abs(between.sky - marionIntegrate((a) => iamPhysical(a), 33.4, 'sky'))).toBeLessThan(1e-4);
    expect(Math.abs(between.ground - marionIntegrate((a) => iamPhysical(a), 33.4, 'ground'))).toBeLessThan(1e-4);
    expect(diffuseIam('physical', 20).sky).toBeCloseTo(0.9539178294437575, 10);
    expect(diffuseIam('martin_ruiz', 30).sky).toBeCloseTo(0.9549735, 7);
  });
});

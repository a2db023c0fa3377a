/**
 * PVWatts DC and inverter against pvlib's test values (tests/test_pvsystem.py::test_pvwatts_dc_scalars,
 * tests/test_inverter.py::test_pvwatts_scalars, test_pvwatts_possible_negative, test_pvwatts_arrays).
 */
import { afterSystemLosses, inverterAcKw, pvwattsDc, pvwattsInverter } from '../../../shared/domain/pv/dc-ac';

describe('PVWatts DC (Dobos 2014)', () => {
  it('900 W/m2 at 30 C, Pdc0 100, gamma -0.003: 88.65 (test_pvwatts_dc_scalars)', () => {
    expect(pvwattsDc(900, 30, 100, -0.003)).toBeCloseTo(88.65, 10);
  });

  it('gives the nameplate at STC, and the default gamma of -0.37 %/C', () => {
    expect(pvwattsDc(1000, 25, 250)).toBe(250);
    expect(pvwattsDc(1000, 35, 100)).toBeCloseTo(96.3, 10);
  });

  it('takes the system losses off the DC, in percent', () => {
    expect(afterSystemLosses(100, 14)).toBeCloseTo(86, 10);
    expect(afterSystemLosses(100, 0)).toBe(100);
  });
});

describe('PVWatts inverter', () => {
  it('90 into Pdc0 100 at eta_nom 0.95: 85.58556604752516, and 0 for 0 (test_pvwatts_scalars)', () => {
    expect(pvwattsInverter(90, 100, 0.95)).toBeCloseTo(85.58556604752516, 10);
    expect(pvwattsInverter(0, 100)).toBe(0);
  });

  it('never goes negative at tiny input (test_pvwatts_possible_negative)', () => {
    expect(pvwattsInverter(0.001, 1)).toBe(0);
  });

  it('50 and 100 into Pdc0 100 at eta_nom 0.95: 47.60843624 and 95, clipped (test_pvwatts_arrays)', () => {
    expect(pvwattsInverter(50, 100, 0.95)).toBeCloseTo(47.60843624, 8);
    expect(pvwattsInverter(100, 100, 0.95)).toBe(95);
  });

  it('clips at the AC rating: an inverter rated 20 MW gives exactly 20 MW from any DC above its limit', () => {
    expect(inverterAcKw(30_000, 20_000)).toBe(20_000);
    expect(inverterAcKw(10_000, 20_000)).toBeLessThan(10_000 * 0.97);
    expect(inverterAcKw(10_000, 20_000)).toBeGreaterThan(10_000 * 0.95);
  });
});

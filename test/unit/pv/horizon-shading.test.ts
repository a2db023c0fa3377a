/** Far-horizon shading: interpolation of the profile, the sun behind it, and the isotropic sky it hides. */
import { horizonElevationAt, isSunBehindHorizon, prepareHorizon } from '../../../shared/domain/pv/horizon-shading';

describe('horizon profile', () => {
  const profile = prepareHorizon([
    { azimuthDeg: 90, elevationDeg: 10 },
    { azimuthDeg: 180, elevationDeg: 20 },
    { azimuthDeg: 270, elevationDeg: 0 },
  ])!;

  it('interpolates linearly in azimuth between points', () => {
    expect(horizonElevationAt(profile, 90)).toBe(10);
    expect(horizonElevationAt(profile, 135)).toBe(15);
    expect(horizonElevationAt(profile, 225)).toBe(10);
    expect(horizonElevationAt(profile, 270)).toBe(0);
  });

  it('wraps through north: 270 -> 90 spans 180 degrees', () => {
    expect(horizonElevationAt(profile, 0)).toBe(5);
    expect(horizonElevationAt(profile, 360)).toBe(5);
    expect(horizonElevationAt(profile, 315)).toBeCloseTo(2.5, 12);
    expect(horizonElevationAt(profile, 45)).toBeCloseTo(7.5, 12);
    expect(horizonElevationAt(profile, -45)).toBeCloseTo(2.5, 12);
  });

  it('hides the sun below the profile only', () => {
    expect(isSunBehindHorizon(profile, 15, 180)).toBe(true);
    expect(isSunBehindHorizon(profile, 25, 180)).toBe(false);
    expect(isSunBehindHorizon(profile, 5, 300)).toBe(false);
    expect(isSunBehindHorizon(null, 1, 180)).toBe(false);
  });

  it('takes a single point as a level horizon, and unsorted or out-of-range azimuths', () => {
    const level = prepareHorizon([{ azimuthDeg: 10, elevationDeg: 30 }])!;
    expect(horizonElevationAt(level, 250)).toBe(30);
    // A uniform horizon at 30 degrees hides sin^2(30) = 1/4 of an isotropic sky.
    expect(level.visibleSkyShare).toBeCloseTo(0.75, 10);
    const shuffled = prepareHorizon([
      { azimuthDeg: 540, elevationDeg: 20 },
      { azimuthDeg: -270, elevationDeg: 10 },
      { azimuthDeg: 270, elevationDeg: 0 },
    ])!;
    expect(horizonElevationAt(shuffled, 135)).toBe(15);
    expect(prepareHorizon([])).toBeNull();
    expect(prepareHorizon(undefined)).toBeNull();
  });

  it('hides the mean of sin^2(h) over azimuth: a half-circle at 30 degrees and a flat half hide 1/8', () => {
    const half = prepareHorizon([
      { azimuthDeg: 0, elevationDeg: 30 },
      { azimuthDeg: 179.999, elevationDeg: 30 },
      { azimuthDeg: 180.001, elevationDeg: 0 },
      { azimuthDeg: 359.999, elevationDeg: 0 },
    ])!;
    expect(half.visibleSkyShare).toBeCloseTo(0.875, 4);
    // Linear ramp 0 -> 90 -> 0: the mean of sin^2 over a linear ramp is 1/2.
    const ramp = prepareHorizon([
      { azimuthDeg: 0, elevationDeg: 0 },
      { azimuthDeg: 180, elevationDeg: 90 },
    ])!;
    expect(ramp.visibleSkyShare).toBeCloseTo(0.5, 5);
    // Negative elevations (a site on a ridge) hide nothing.
    expect(prepareHorizon([{ azimuthDeg: 0, elevationDeg: -3 }])!.visibleSkyShare).toBe(1);
  });
});

/**
 * The fast sun path against astronomy-engine's full ephemeris (solarPosition, itself within 0.0002 degrees of
 * NREL's SPA: test/unit/weather/solar-position.test.ts) and SPA's own published values; the angle of incidence
 * against pvlib (tests/test_irradiance.py::test_aoi_and_aoi_projection).
 */
import { angleOfIncidenceDeg, cosAngleOfIncidence, stepMiddles, sunPath } from '../../../shared/domain/pv/solar-geometry';
import { solarPosition } from '../../../shared/domain/weather/solar-position';

const angularGap = (a: number, b: number) => {
  const d = Math.abs(a - b) % 360;
  return Math.min(d, 360 - d);
};

describe('sun path', () => {
  it('matches SPA at Golden, 2003-10-17 12:30:30 MST (Reda & Andreas 2004, Table A4.1): true elevation 39.872046, azimuth 194.34024', () => {
    const path = sunPath([Date.parse('2003-10-17T19:30:30Z')], 39.742476, -105.1786);
    // SPA includes the observer's 1830 m height in the parallax (under 0.0001 degree) and its delta T: 0.001 covers both.
    expect(Math.abs(90 - path.trueZenithDeg[0] - 39.872046)).toBeLessThan(0.001);
    expect(Math.abs(path.azimuthDeg[0] - 194.34024)).toBeLessThan(0.001);
  });

  it.each([
    ['Hebei (PVOD)', 38.18306, 117.45722],
    ['Golden', 39.742476, -105.1786],
    ['Cape Town', -33.92, 18.42],
    ['Tromso', 69.65, 18.96],
    ['equator, date line', 0.5, 179.9],
  ])('stays within 0.002 degrees of the full ephemeris over two years of hourly steps: %s', (_name, latitude, longitude) => {
    const start = Date.UTC(2023, 11, 31, 0, 7);
    const instants = Array.from({ length: 2 * 8760 }, (_, i) => start + i * 3_600_000 + (i % 7) * 60_000);
    const path = sunPath(instants, latitude, longitude);
    let worstZenith = 0;
    let worstAzimuth = 0;
    let compared = 0;
    for (let i = 0; i < instants.length; i += 13) {
      const full = solarPosition(new Date(instants[i]), latitude, longitude);
      if (full.elevationDeg < -2) continue;
      compared++;
      worstZenith = Math.max(worstZenith, Math.abs(full.zenithDeg - path.zenithDeg[i]), Math.abs(90 - full.trueElevationDeg - path.trueZenithDeg[i]));
      // Azimuth is ill-defined at the zenith: compare it where the sun is off the vertical by a degree or more.
      if (full.elevationDeg < 89) worstAzimuth = Math.max(worstAzimuth, angularGap(full.azimuthDeg, path.azimuthDeg[i]));
    }
    expect(compared).toBeGreaterThan(400);
    expect(worstZenith).toBeLessThan(0.002);
    expect(worstAzimuth).toBeLessThan(0.005);
  });

  it('takes instants in any order, and none', () => {
    const times = [Date.parse('2024-06-21T04:00:00Z'), Date.parse('2024-01-02T04:00:00Z'), Date.parse('2024-03-20T04:00:00Z')];
    const path = sunPath(times, 38.18, 117.46);
    times.forEach((t, i) => expect(Math.abs(path.zenithDeg[i] - solarPosition(new Date(t), 38.18, 117.46).zenithDeg)).toBeLessThan(0.002));
    expect(sunPath([], 0, 0).zenithDeg).toHaveLength(0);
  });

  it('puts each step at its middle', () => {
    expect(Array.from(stepMiddles([0, 900_000], 15))).toEqual([450_000, 1_350_000]);
    expect(Array.from(stepMiddles([3_600_000], 60))).toEqual([5_400_000]);
  });
});

describe('angle of incidence (Duffie & Beckman eq. 1.6.3)', () => {
  // pvlib tests/test_irradiance.py::test_aoi_and_aoi_projection: tilt, surface azimuth, zenith, solar azimuth, AOI, cos AOI.
  it.each([
    [0, 0, 0, 0, 0, 1],
    [30, 180, 30, 180, 0, 1],
    [30, 180, 150, 0, 180, -1],
    [90, 0, 30, 60, 75.5224878, 0.25],
    [90, 0, 30, 170, 119.4987042, -0.4924038],
  ])('tilt %f azimuth %f, sun at zenith %f azimuth %f: AOI %f, projection %f', (tilt, azimuth, zenith, solarAzimuth, aoi, projection) => {
    expect(Math.abs(angleOfIncidenceDeg(tilt, azimuth, zenith, solarAzimuth) - aoi)).toBeLessThan(1e-5);
    expect(Math.abs(cosAngleOfIncidence(tilt, azimuth, zenith, solarAzimuth) - projection)).toBeLessThan(1e-6);
  });

  it('never exceeds 1 when the sun is exactly normal to the plane (pvlib GH 1185, test_aoi_projection_precision)', () => {
    const projection = cosAngleOfIncidence(89.26778228223463, 60.932028605997004, 89.26778228223463, 60.932028605997004);
    expect(projection).toBeLessThanOrEqual(1);
    expect(projection).toBeCloseTo(1, 12);
  });
});

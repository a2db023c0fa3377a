import { clearSkyProfile, estimateSiteGeometry, fitSolar, latitudeFromDayLength, solarClearSkyMember } from '../../../shared/domain/forecasting/solar';
import type { RegularSeries } from '../../../shared/domain/forecasting/types';
import { clearSkyGhiAt, meanClearSkyGhi } from '../../../shared/domain/weather/clear-sky';
import { solarPosition } from '../../../shared/domain/weather/solar-position';

// NREL's campus in Golden, Colorado (the SERF fixtures' site).
const SITE = { latitude: 39.74, longitude: -105.18 };
const CAPACITY_KW = 5;
const DAY = 86_400_000;

/** A clear-sky PV series: capacity x GHI / 1000, as instants (`mean` false) or as interval-ending means. */
function clearSkySeries(startIso: string, days: number, stepMinutes: number, mean: boolean, site = SITE): RegularSeries {
  const stepMs = stepMinutes * 60_000;
  const n = (days * DAY) / stepMs;
  const t = Array.from({ length: n }, (_, i) => Date.parse(startIso) + i * stepMs);
  const ghi = (x: number) => (mean ? meanClearSkyGhi(new Date(x), stepMinutes, site) : clearSkyGhiAt(new Date(x), site));
  return { t, y: t.map((x) => (CAPACITY_KW * ghi(x)) / 1000), stepMinutes };
}

const split = (s: RegularSeries, historyDays: number): [RegularSeries, number[]] => {
  const k = (historyDays * DAY) / (s.stepMinutes * 60_000);
  return [{ t: s.t.slice(0, k), y: s.y.slice(0, k), stepMinutes: s.stepMinutes }, s.y.slice(k)];
};
const rmse = (a: number[], b: number[]) => Math.sqrt(a.reduce((s, v, i) => s + (v - b[i]) ** 2, 0) / a.length);

describe('solar_clear_sky on a synthetic clear-sky series (14 days of history, next day forecast)', () => {
  const cases = [
    { label: 'hourly instants', step: 60, mean: false },
    { label: '15-minute instants', step: 15, mean: false },
    { label: 'hourly interval means', step: 60, mean: true },
  ];
  for (const { label, step, mean } of cases) {
    for (const withCoordinates of [true, false]) {
      it(`follows the next day within 5% of peak RMSE: ${label}, ${withCoordinates ? 'coordinates given' : 'geometry estimated'}`, () => {
        const [history, truth] = split(clearSkySeries('2024-06-01T00:00:00Z', 15, step, mean), 14);
        const context = withCoordinates ? { kind: 'solar' as const, ...SITE } : { kind: 'solar' as const };

        const forecast = solarClearSkyMember.fit(history, context).predict(truth.length);

        const peak = Math.max(...truth);
        expect(rmse(forecast, truth) / peak).toBeLessThan(0.05);
        // Night: wherever the true output is 0 (sun below the horizon), the forecast is exactly 0.
        const futureTimes = history.t.map((_, i) => history.t[history.t.length - 1] + (i + 1) * step * 60_000).slice(0, truth.length);
        truth.forEach((v, j) => {
          const deepNight = solarPosition(new Date(futureTimes[j]), SITE.latitude, SITE.longitude).elevationDeg < -2;
          if (withCoordinates ? v === 0 && !mean : deepNight) expect(forecast[j]).toBe(0);
        });
        expect(forecast.every((v) => v >= 0)).toBe(true);
      });
    }
  }

  it('is exact with the coordinates: scale = capacity/1000, index 1, alignment of the data', () => {
    const [history, truth] = split(clearSkySeries('2024-06-01T00:00:00Z', 15, 60, false), 14);

    const model = fitSolar(history, { kind: 'solar', ...SITE });

    expect(model.fit.alignment).toBe('instant');
    expect(model.fit.scale).toBeCloseTo(CAPACITY_KW / 1000, 8);
    expect(model.fit.clearSkyIndex).toBeCloseTo(1, 6);
    expect(rmse(model.predict(truth.length), truth)).toBeLessThan(1e-9);
  });

  it('recognises interval-ending means and forecasts them as such', () => {
    const [history] = split(clearSkySeries('2024-06-01T00:00:00Z', 15, 60, true), 14);

    expect(fitSolar(history, { kind: 'solar', ...SITE }).fit.alignment).toBe('ending');
  });

  it('estimates the site within a degree from 14 clear June days', () => {
    const [history] = split(clearSkySeries('2024-06-01T00:00:00Z', 15, 15, false), 14);

    const site = estimateSiteGeometry(history)!;

    expect(Math.abs(site.longitude - SITE.longitude)).toBeLessThan(0.25);
    expect(Math.abs(site.latitude - SITE.latitude)).toBeLessThan(1);
  });

  it('estimates a southern-hemisphere site in its own winter', () => {
    const sydney = { latitude: -33.87, longitude: 151.21 };
    const [history] = split(clearSkySeries('2024-06-01T00:00:00Z', 15, 30, false, sydney), 14);

    const site = estimateSiteGeometry(history)!;

    expect(Math.abs(site.longitude - sydney.longitude)).toBeLessThan(1.5);
    expect(Math.abs(site.latitude - sydney.latitude)).toBeLessThan(5);
  });

  it('takes the expected clear-sky index from forecast irradiance when given', () => {
    const [history, truth] = split(clearSkySeries('2024-06-01T00:00:00Z', 15, 60, false), 14);
    const futureTimes = truth.map((_, j) => history.t[history.t.length - 1] + (j + 1) * 3_600_000);
    const halfSun = futureTimes.map((x) => clearSkyGhiAt(new Date(x), SITE) / 2);

    const forecast = solarClearSkyMember.fit(history, { kind: 'solar', ...SITE, future: { ghi_wm2: halfSun } }).predict(truth.length);

    const noon = truth.indexOf(Math.max(...truth));
    expect(forecast[noon]).toBeCloseTo(truth[noon] / 2, 6);
  });

  it('fits production per unit irradiance by time of day when the history carries irradiance', () => {
    const series = clearSkySeries('2024-06-01T00:00:00Z', 15, 60, false);
    const ghi = series.t.map((x, i) => clearSkyGhiAt(new Date(x), SITE) * (0.3 + 0.7 * Math.abs(Math.sin(i / 7))));
    // An east-facing array: more output per unit GHI in the morning (07:00 local is 13:00 UTC) than in the afternoon.
    const perUnit = (x: number) => (new Date(x).getUTCHours() < 19 ? 0.006 : 0.004);
    const y = series.t.map((x, i) => perUnit(x) * ghi[i]);
    const k = 14 * 24;
    const history = { t: series.t.slice(0, k), y: y.slice(0, k), stepMinutes: 60 };

    const model = fitSolar(history, { kind: 'solar', ...SITE, history: { ghi_wm2: ghi.slice(0, k) }, future: { ghi_wm2: ghi.slice(k) } });

    expect(model.fit.irradianceFitted).toBe(true);
    const forecast = model.predict(24);
    const truth = y.slice(k);
    // Exact away from the switch between the two ratios (neighbouring hours are pooled).
    [15, 16, 21, 22].forEach((h) => expect(forecast[h]).toBeCloseTo(truth[h], 6));
  });

  it('forecasts 0 everywhere for a series that never produced', () => {
    const t = Array.from({ length: 72 }, (_, i) => Date.UTC(2024, 5, 1) + i * 3_600_000);

    expect(solarClearSkyMember.fit({ t, y: t.map(() => 0), stepMinutes: 60 }, { kind: 'solar' }).predict(24)).toEqual(new Array(24).fill(0));
  });
});

describe('solar geometry helpers', () => {
  it('solves the latitude from the sunset hour angle: 15 h of day at the June solstice is 41.4 N, 9 h is 41.4 S', () => {
    // cos w0 = -tan(phi) tan(delta) at h0 = 0: w0 = 112.5 degrees, delta = 23.44 -> phi = atan(0.3827 / 0.4335) = 41.4 degrees
    expect(latitudeFromDayLength(112.5, 23.44, 0)).toBeCloseTo(41.4, 0);
    expect(latitudeFromDayLength(67.5, 23.44, 0)).toBeCloseTo(-41.4, 0);
  });

  it('gives 0 at night and the interval mean between instants', () => {
    const site = { ...SITE, estimated: false };
    const midnight = Date.parse('2024-06-01T07:00:00Z'); // 01:00 local solar time at Golden

    expect(clearSkyProfile([midnight], 60, site, 'ending')).toEqual([0]);
    const noon = Date.parse('2024-06-01T19:00:00Z');
    const [mean] = clearSkyProfile([noon], 60, site, 'ending');
    expect(mean).toBeCloseTo(meanClearSkyGhi(new Date(noon), 60, SITE), -1);
  });
});

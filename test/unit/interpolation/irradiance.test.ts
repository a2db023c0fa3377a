import { cleanSeries, type CleanOptions } from '../../../shared/domain/interpolation';
import { clearSkyEnvelope, irradianceFill, irradianceModel } from '../../../shared/domain/interpolation/irradiance-reference';
import { clearSkyGhiAt } from '../../../shared/domain/weather/clear-sky';
import { mulberry32 } from '../../helpers/seeded-random';

const START = Date.UTC(2024, 5, 1);
const SITE = { latitude: 39.74, longitude: -105.18 };
const STEP = 15;
const PER_DAY = (24 * 60) / STEP;
const DAYS = 16;
const LAG = 2; // the feed reports each cloud two steps (30 min) after the inverter sees it

/**
 * A 5 kW array under random clouds: the clear-sky index is 1, or 0.3 inside clouds of 30 minutes to 2 hours
 * (a tenth of daylight); the feed's GHI carries the same index, LAG steps late.
 */
function cloudySite() {
  const random = mulberry32(11);
  const t = Array.from({ length: DAYS * PER_DAY }, (_, i) => START + i * STEP * 60_000);
  const ghiClear = t.map((ms) => clearSkyGhiAt(new Date(ms), SITE));
  const index = t.map(() => 1);
  for (let i = 0; i < t.length; i++) {
    if (random() < 0.02) {
      const length = 2 + Math.floor(random() * 7);
      for (let k = 0; k < length && i + k < t.length; k++) index[i + k] = 0.3;
      i += length;
    }
  }
  const y = ghiClear.map((g, i) => (5 * g * index[i]) / 1000);
  const ghi = ghiClear.map((g, i) => g * (i >= LAG ? index[i - LAG] : 1));
  return { t, y, ghi, index };
}

describe('irradiance fill (weather_correlation)', () => {
  const site = cloudySite();
  // 12:00 to 15:00 local solar time on day 9, with the clouds the series has there.
  const from = 9 * PER_DAY + 4 * 17;
  const to = from + 11;
  const options: CleanOptions = { maxGapSteps: 24, detectOutliers: false, seasonalAdjustment: true, kind: 'solar', ...SITE, exogenous: { ghi_wm2: site.ghi } };
  const hidden = site.y.map((v, i) => (i >= from && i <= to ? NaN : v));
  const worst = (values: number[]) => Math.max(...site.y.slice(from, to + 1).map((v, k) => Math.abs(values[from + k] - v)));

  it('has clouds inside the gap, so the edges alone cannot know them', () => {
    expect(site.index.slice(from, to + 1)).toContain(0.3);
    expect(site.index.slice(from, to + 1)).toContain(1);
  });

  it('follows the clouds inside a gap, finding the feed\'s 30-minute delay, where the other methods cannot', () => {
    const series = { t: site.t, y: hidden, stepMinutes: STEP };
    const irradiance = cleanSeries(series, { ...options, method: 'irradiance' });
    expect(irradiance.gaps).toEqual([{ start: from, end: to, steps: 12, method: 'irradiance' }]);
    // Within 5% of the 5 kW peak; the residual is the envelope's neighbouring-step and neighbouring-day spread.
    expect(worst(irradiance.values)).toBeLessThan(0.05 * 5);
    for (const method of ['linear', 'clear_sky_ratio', 'analog_days'] as const) expect(worst(cleanSeries(series, { ...options, method }).values)).toBeGreaterThan(0.5);
    const adaptive = cleanSeries(series, options);
    expect(worst(adaptive.values)).toBeLessThan(0.1 * 5);
  });

  it('is not offered without irradiance, and fails over to the next method without it', () => {
    const series = { t: site.t, y: hidden, stepMinutes: STEP };
    const out = cleanSeries(series, { ...options, exogenous: undefined, method: 'irradiance' });
    expect(out.gaps[0].method).toBe('linear');
  });

  it('gives no reference when the feed has no irradiance or does not track the production', () => {
    const clearSky = site.t.map((ms) => clearSkyGhiAt(new Date(ms), SITE) / 200);
    expect(irradianceModel(site.y, clearSky, site.ghi.map(() => NaN), PER_DAY, STEP)).toBeUndefined();
    expect(irradianceModel(site.y, clearSky.map(() => 0), site.ghi, PER_DAY, STEP)).toBeUndefined();
    const { reference } = irradianceModel(site.y, clearSky, site.ghi, PER_DAY, STEP)!;
    const daylight = site.y.map((_, i) => i).filter((i) => i > PER_DAY && i < site.y.length - PER_DAY && site.y[i] > 0.5);
    const rmse = Math.sqrt(daylight.reduce((s, i) => s + (reference[i] - site.y[i]) ** 2, 0) / daylight.length);
    expect(rmse).toBeLessThan(0.05 * 5);
  });

  it('kriges the residual: the day\'s level where nothing persists, the straight line between the edges where everything does', () => {
    // Reference 10 everywhere; residuals +1 on the known daylight of the day, +3 at the left edge, -1 at the right.
    const y = Array.from({ length: 20 }, () => 11);
    y[7] = 13;
    y[12] = 9;
    const model = { reference: y.map(() => 10), daylight: y.map(() => true), c: 0, rho: 0.5 };
    expect(irradianceFill(model, y, 7, 12, 20)).toEqual([11, 11, 11, 11]);
    const persistent = irradianceFill({ ...model, c: 1, rho: 1 - 1e-9 }, y, 7, 12, 20)!;
    // The level is the median residual of the window, 1; the edges deviate from it by +2 and -2, five steps apart.
    [12.2, 11.4, 10.6, 9.8].forEach((v, k) => expect(persistent[k]).toBeCloseTo(v, 5));
    // In between, each edge's deviation fades with distance: the fill starts near the left edge and ends near the right.
    const fading = irradianceFill({ ...model, c: 0.8, rho: 0.6 }, y, 7, 12, 20)!;
    expect(fading[0]).toBeCloseTo(11 + (0.48 - 0.8 * 0.6 ** 5 * 0.8 * 0.6 ** 4) * 2 / (1 - (0.8 * 0.6 ** 5) ** 2) + (0.8 * 0.6 ** 4 - 0.8 * 0.6 ** 5 * 0.48) * -2 / (1 - (0.8 * 0.6 ** 5) ** 2), 9);
    expect(fading[0]).toBeGreaterThan(11.5);
    expect(fading[3]).toBeLessThan(10.5);
  });

  it('takes as envelope a high quantile of the same time on the other days, not the day itself', () => {
    // Days of constant level 1..10 at 4 steps a day: at step 1 of day 5 the window holds days 1-4 and 6-10, three
    // steps each (27 values); their 0.8 quantile (sorted position 20) is 8, whatever day 5 itself holds.
    const y = Array.from({ length: 10 * 4 }, (_, i) => Math.floor(i / 4) + 1);
    expect(clearSkyEnvelope(y, 4)[17]).toBe(8);
    expect(clearSkyEnvelope(y.map((v, i) => (Math.floor(i / 4) === 4 ? 1000 : v)), 4)[17]).toBe(8);
  });
});

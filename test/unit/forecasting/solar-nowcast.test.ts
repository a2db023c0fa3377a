import { blendNowcast, clearSkyIndexNow, nowcastWeight, solarNowcast } from '../../../shared/domain/forecasting/solar-nowcast';
import { MAX_CLEAR_SKY_INDEX } from '../../../shared/domain/forecasting/solar';
import type { RegularSeries } from '../../../shared/domain/forecasting/types';
import { clearSkyGhiAt } from '../../../shared/domain/weather/clear-sky';

// NREL's campus in Golden, Colorado (the SERF fixtures' site); local solar noon is about 19:00 UTC.
const SITE = { latitude: 39.74, longitude: -105.18 };
const CONTEXT = { kind: 'solar' as const, ...SITE };
const CAPACITY_KW = 5;
const STEP_MS = 15 * 60_000;
const clearSkyKw = (t: number) => (CAPACITY_KW * clearSkyGhiAt(new Date(t), SITE)) / 1000;

/** 15-minute clear-sky PV instants from 2024-06-01 up to (not including) `endIso`, the last hour times `lastHourFactor`. */
function history(endIso: string, lastHourFactor: number): RegularSeries {
  const start = Date.parse('2024-06-01T00:00:00Z');
  const n = (Date.parse(endIso) - start) / STEP_MS;
  const t = Array.from({ length: n }, (_, i) => start + i * STEP_MS);
  return { t, y: t.map((x, i) => clearSkyKw(x) * (i >= n - 4 ? lastHourFactor : 1)), stepMinutes: 15 };
}

describe('nowcastWeight', () => {
  it('halves every half-life of lead, and is 0 without a half-life', () => {
    expect(nowcastWeight(30, 30)).toBeCloseTo(0.5, 12);
    expect(nowcastWeight(60, 30)).toBeCloseTo(0.25, 12);
    expect(nowcastWeight(15, 0)).toBe(0);
  });
});

describe('blendNowcast', () => {
  it('weighs the persisted index x clear sky against the forecast by lead', () => {
    // Nowcast 0.5 x 4 = 2 kW; weights at 15, 30, 45, 60 min with a 15-min half-life: 1/2, 1/4, 1/8, 1/16.
    const blended = blendNowcast([1, 1, 1, 1], { index: 0.5, clearSky: [4, 4, 4, 4] }, 15, 15);

    // 2/2 + 1/2, 2/4 + 3/4, 2/8 + 7/8, 2/16 + 15/16.
    [1.5, 1.25, 1.125, 1.0625].forEach((v, j) => expect(blended[j]).toBeCloseTo(v, 12));
  });

  it('returns the forecast unchanged without a nowcast or a half-life', () => {
    expect(blendNowcast([1, 2], null, 15, 60)).toEqual([1, 2]);
    expect(blendNowcast([1, 2], { index: 0, clearSky: [5, 5] }, 15, 0)).toEqual([1, 2]);
  });
});

describe('clearSkyIndexNow on 14 days of clear-sky production', () => {
  it('measures the last hour at half its clear-sky production as index 0.5, with the clear sky ahead in kW', () => {
    const h = history('2024-06-15T19:00:00Z', 0.5);

    const nowcast = clearSkyIndexNow(h, CONTEXT, 8);

    expect(nowcast).not.toBeNull();
    expect(nowcast!.index).toBeCloseTo(0.5, 6);
    // The fitted scale is the capacity / 1000 of the clear days: the clear sky ahead is the series' own clear sky.
    nowcast!.clearSky.forEach((c, j) => expect(c).toBeCloseTo(clearSkyKw(Date.parse('2024-06-15T19:00:00Z') + j * STEP_MS), 6));
  });

  it('caps cloud enhancement at MAX_CLEAR_SKY_INDEX', () => {
    expect(clearSkyIndexNow(history('2024-06-15T19:00:00Z', 2), CONTEXT, 4)!.index).toBe(MAX_CLEAR_SKY_INDEX);
  });

  it('gives no nowcast at night or just after sunrise, where the index is a ratio of small numbers', () => {
    // 02:00 and 05:45 local standard time (UTC-7): sunrise in Golden in June is about 04:30.
    expect(clearSkyIndexNow(history('2024-06-15T09:00:00Z', 1), CONTEXT, 4)).toBeNull();
    expect(clearSkyIndexNow(history('2024-06-15T12:45:00Z', 1), CONTEXT, 4)).toBeNull();
  });

  it('gives no nowcast without coordinates or a geometry to estimate', () => {
    const h: RegularSeries = { t: [0, STEP_MS, 2 * STEP_MS], y: [0, 0, 0], stepMinutes: 15 };
    expect(clearSkyIndexNow(h, { kind: 'solar' }, 4)).toBeNull();
  });
});

describe('solarNowcast', () => {
  it('blends the index of the last hour into a forecast of zeros: 0.5 x clear sky x weight', () => {
    const h = history('2024-06-15T19:00:00Z', 0.5);

    const out = solarNowcast(h, CONTEXT, [0, 0], 15);

    // Weights 1/2 and 1/4 at 15 and 30 min.
    expect(out[0]).toBeCloseTo(0.5 * 0.5 * clearSkyKw(Date.parse('2024-06-15T19:00:00Z')), 6);
    expect(out[1]).toBeCloseTo(0.25 * 0.5 * clearSkyKw(Date.parse('2024-06-15T19:15:00Z')), 6);
  });
});

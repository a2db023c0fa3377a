import { cleanSeries, evaluateByHiding, type CleanOptions } from '../../../shared/domain/interpolation';
import { clearSkyGhiAt } from '../../../shared/domain/weather/clear-sky';
import { mulberry32 } from '../../helpers/seeded-random';

const START = Date.UTC(2024, 5, 1);
const SITE = { latitude: 39.74, longitude: -105.18 };
const base: CleanOptions = { maxGapSteps: 12, detectOutliers: false, seasonalAdjustment: true, kind: 'generic' };
const series = (y: number[], step = 60) => ({ t: y.map((_, i) => START + i * step * 60_000), y, stepMinutes: step });
const withGap = (y: number[], from: number, to: number) => y.map((v, i) => (i >= from && i <= to ? NaN : v));

describe('cleanSeries', () => {
  it('fills a linear ramp exactly with linear and with pchip', () => {
    const ramp = Array.from({ length: 48 }, (_, i) => 10 + 2 * i);
    for (const method of ['linear', 'pchip'] as const) {
      const out = cleanSeries(series(withGap(ramp, 20, 24)), { ...base, method });
      for (let i = 20; i <= 24; i++) expect(out.values[i]).toBeCloseTo(ramp[i], 9);
      expect(out.quality.slice(19, 26)).toEqual(['original', 'interpolated', 'interpolated', 'interpolated', 'interpolated', 'interpolated', 'original']);
      expect(out.gaps).toEqual([{ start: 20, end: 24, steps: 5, method }]);
    }
  });

  it('fills a daily sine closely by the seasonal profile where linear cuts the crest', () => {
    const sine = Array.from({ length: 24 * 10 }, (_, i) => 50 + 20 * Math.sin((2 * Math.PI * i) / 24));
    const gap = withGap(sine, 100, 105); // the crest at hour 102
    const seasonal = cleanSeries(series(gap), { ...base, method: 'seasonal_profile' });
    const linear = cleanSeries(series(gap), { ...base, method: 'linear' });
    const err = (v: number[]) => Math.max(...[100, 101, 102, 103, 104, 105].map((i) => Math.abs(v[i] - sine[i])));
    expect(err(seasonal.values)).toBeLessThan(1e-9);
    expect(err(linear.values)).toBeGreaterThan(5);
    // On a purely periodic series the seasonal profile and the analog days are both exact; adaptive takes one of them.
    const adaptive = cleanSeries(series(gap), base);
    expect(['seasonal_profile', 'analog_days']).toContain(adaptive.gaps[0].method);
    expect(err(adaptive.values)).toBeLessThan(1e-9);
  });

  it('keeps a clear-sky day shape through a noon gap with the clear-sky ratio', () => {
    const pv = Array.from({ length: 24 * 4 * 5 }, (_, i) => (5 * clearSkyGhiAt(new Date(START + i * 15 * 60_000), SITE)) / 1000);
    const noon = 4 * 24 * 4 + 4 * 18; // 18:00 UTC, local solar noon at Golden
    const gap = withGap(pv, noon - 8, noon + 8);
    const options: CleanOptions = { ...base, kind: 'solar', ...SITE, maxGapSteps: 24 };
    const ratio = cleanSeries(series(gap, 15), { ...options, method: 'clear_sky_ratio' });
    const linear = cleanSeries(series(gap, 15), { ...options, method: 'linear' });
    const worst = (v: number[]) => Math.max(...Array.from({ length: 17 }, (_, k) => Math.abs(v[noon - 8 + k] - pv[noon - 8 + k])));
    expect(worst(ratio.values)).toBeLessThan(0.03 * 5);
    expect(worst(linear.values)).toBeGreaterThan(0.1);
  });

  it('blends the seasonal profile with pchip half and half where there is no clear sky', () => {
    const y = Array.from({ length: 24 * 6 }, (_, i) => 50 + 20 * Math.sin((2 * Math.PI * i) / 24) + (i % 7));
    const gap = withGap(y, 80, 83);
    const fills = (['seasonal_profile', 'pchip', 'blend'] as const).map((method) => cleanSeries(series(gap), { ...base, method }).values);
    for (let i = 80; i <= 83; i++) expect(fills[2][i]).toBeCloseTo((fills[0][i] + fills[1][i]) / 2, 9);
  });

  it('fills a gap from the other days most alike around it (analog days)', () => {
    // Even days clear, odd days with an afternoon dip from 10:00 to 16:00; the gap (12:00-14:00) is on an odd day,
    // and the hours either side of it (11:00, 15:00) match the odd days exactly and the even days not at all.
    const clear = (h: number) => 50 + 20 * Math.sin((2 * Math.PI * h) / 24);
    const dip = (h: number) => (h >= 10 && h <= 16 ? 15 * Math.sin((Math.PI * (h - 9)) / 8) : 0);
    const y = Array.from({ length: 24 * 12 }, (_, i) => clear(i % 24) - (Math.floor(i / 24) % 2 === 1 ? dip(i % 24) : 0));
    const from = 24 * 5 + 12;
    const out = cleanSeries(series(withGap(y, from, from + 2)), { ...base, method: 'analog_days' });
    for (let i = from; i <= from + 2; i++) expect(out.values[i]).toBeCloseTo(y[i], 6);
    expect(out.gaps).toEqual([{ start: from, end: from + 2, steps: 3, method: 'analog_days' }]);
    const seasonal = cleanSeries(series(withGap(y, from, from + 2)), { ...base, method: 'seasonal_profile' });
    expect(Math.abs(seasonal.values[from + 1] - y[from + 1])).toBeGreaterThan(1);
  });

  it('fills a gap by the regression of the gap on its edges learned across the other days (day regression)', () => {
    // Each day is a base shape less its own depth times a bump: shallow at the gap's edges, deep inside. The gap's
    // day is deeper than any other, so its edges tell how deep the gap goes only through the days' regression:
    // the profile and the analogues stay at the depths seen, linear cuts across.
    const random = mulberry32(7);
    const days = 40;
    const depth = Array.from({ length: days }, () => 20 * random());
    depth[20] = 30;
    const bump = (h: number) => Math.max(0, 1 - Math.abs(h - 13) / 4);
    const y = Array.from({ length: 24 * days }, (_, i) => 50 + 20 * Math.sin((2 * Math.PI * (i % 24)) / 24) - depth[Math.floor(i / 24)] * bump(i % 24));
    const from = 24 * 20 + 12;
    const gap = withGap(y, from, from + 2);
    const fill = (method: 'day_regression' | 'seasonal_profile' | 'analog_days' | 'linear') => cleanSeries(series(gap), { ...base, method });
    const error = (method: Parameters<typeof fill>[0]) => Math.max(...[0, 1, 2].map((k) => Math.abs(fill(method).values[from + k] - y[from + k])));
    const others = Math.min(error('seasonal_profile'), error('analog_days'), error('linear'));
    expect(others).toBeGreaterThan(10);
    expect(error('day_regression')).toBeLessThan(0.3 * others);
    expect(fill('day_regression').gaps[0].method).toBe('day_regression');
  });

  it('fills a solar gap by day regression from rows an hour away when the other days all miss its time of day', () => {
    // Clear sky times a factor per day. Every other day lacks the reading at the gap's first time of day, so no
    // other day has the gap's own window known: only rows an hour earlier or later, moved along the clear sky, do.
    const random = mulberry32(3);
    const days = 16;
    const factor = Array.from({ length: days }, () => 0.5 + 0.5 * random());
    const perDay = 96;
    const pv = Array.from({ length: days * perDay }, (_, i) => (factor[Math.floor(i / perDay)] * 5 * clearSkyGhiAt(new Date(START + i * 15 * 60_000), SITE)) / 1000);
    const from = 8 * perDay + 4 * 16; // 16:00 UTC, mid-morning at Golden
    const y = pv.map((v, i) => (i % perDay === from % perDay && i !== from ? NaN : v));
    const gap = withGap(y, from, from + 2);
    const out = cleanSeries(series(gap, 15), { ...base, kind: 'solar', ...SITE, maxGapSteps: 24, method: 'day_regression' });
    expect(out.gaps.find((g) => g.start === from)?.method).toBe('day_regression');
    const worst = Math.max(...[0, 1, 2].map((k) => Math.abs(out.values[from + k] - pv[from + k])));
    expect(worst).toBeLessThan(0.02 * Math.max(...pv));
  });

  it('keeps linear where no method beats it on the series\' own hidden runs by more than noise (the gate)', () => {
    // A random walk: linear between the edges is the best fill there is, and any other method's lead is luck.
    for (const seed of [1, 2, 3]) {
      const random = mulberry32(seed);
      let level = 100;
      const walk = Array.from({ length: 24 * 20 }, () => (level += random() - 0.5));
      const out = cleanSeries(series(withGap(walk, 200, 203)), base);
      expect(out.gaps[0].method).toBe('linear');
    }
  });

  it('reports the fill\'s accuracy on hidden known runs of the length asked for, as a full re-cleaning per run measures it', () => {
    const random = mulberry32(9);
    const noisy = Array.from({ length: 24 * 20 }, (_, i) => 50 + 20 * Math.sin((2 * Math.PI * i) / 24) + 6 * (random() - 0.5));
    const out = cleanSeries(series(withGap(noisy, 100, 103)), { ...base, accuracyGapSteps: 4 });
    const measured = evaluateByHiding(series(noisy), { ...base, method: 'adaptive' }, { gapSteps: 4, count: 40, seed: 5 });
    expect(out.accuracy!.runs).toBe(40);
    expect(out.accuracy!.rmse / measured.rmse).toBeGreaterThan(0.7);
    expect(out.accuracy!.rmse / measured.rmse).toBeLessThan(1.4);
    expect(cleanSeries(series(withGap(noisy, 100, 103)), base).accuracy).toBeUndefined();
  });

  it('leaves gaps longer than maxGapSteps missing, not interpolated, with confidence 0', () => {
    const y = Array.from({ length: 48 }, (_, i) => i);
    const out = cleanSeries(series(withGap(y, 10, 19)), { ...base, maxGapSteps: 6 });
    expect(out.values.slice(10, 20).every(Number.isNaN)).toBe(true);
    expect(out.quality.slice(10, 20).every((q) => q === 'original')).toBe(true);
    expect(out.confidence[12]).toBe(0);
    expect(out.gaps).toEqual([{ start: 10, end: 19, steps: 10, method: 'unfilled' }]);
  });

  it('replaces a spike and a negative generation value, and flags them', () => {
    const y = Array.from({ length: 72 }, (_, i) => 50 + 20 * Math.sin((2 * Math.PI * i) / 24));
    y[30] = 400;
    y[50] = -40;
    const out = cleanSeries(series(y), { ...base, kind: 'wind', detectOutliers: true });
    expect(out.outlierIndices).toEqual([30, 50]);
    expect(out.quality[30]).toBe('interpolated');
    expect(Math.abs(out.values[30] - (50 + 20 * Math.sin((2 * Math.PI * 30) / 24)))).toBeLessThan(2);
  });

  it('leaves a fill missing when its confidence is below the threshold', () => {
    const random = (() => {
      let s = 3;
      return () => ((s = (s * 16807) % 2147483647) / 2147483647);
    })();
    const noise = Array.from({ length: 96 }, () => 100 * random());
    const out = cleanSeries(series(withGap(noise, 40, 45)), { ...base, confidenceThreshold: 0.99 });
    expect(out.values.slice(40, 46).every(Number.isNaN)).toBe(true);
    const relaxed = cleanSeries(series(withGap(noise, 40, 45)), { ...base, confidenceThreshold: 0 });
    expect(relaxed.values.slice(40, 46).every(Number.isFinite)).toBe(true);
  });
});

describe('evaluateByHiding', () => {
  it('scores a method on hidden runs: exact on a ramp', () => {
    const ramp = Array.from({ length: 200 }, (_, i) => 3 * i);
    const r = evaluateByHiding(series(ramp), { ...base, method: 'linear' }, { gapSteps: 3, count: 20, seed: 1 });
    expect(r.gaps).toBe(20);
    expect(r.rmse).toBeCloseTo(0, 9);
  });

  it('splits the error into each gap\'s mean (level) and the rest (shape)', () => {
    const spikes = Array.from({ length: 200 }, (_, i) => (i % 4 === 2 ? 8 : 0));
    // One hidden step: the whole error is the gap's mean.
    const single = evaluateByHiding(series(spikes), { ...base, method: 'linear' }, { gapSteps: 1, count: 30, seed: 3 });
    expect(single.rmse).toBeGreaterThan(1);
    expect(single.levelRmse).toBeCloseTo(single.rmse, 9);
    expect(single.shapeRmse).toBeCloseTo(0, 9);
    // Two hidden steps of 0 0 8 0 ...: linear errs by (8/3, 16/3), (0, -8), (-8, 0) or (16/3, 8/3) by where the pair
    // starts, so every gap's mean error is 4 in size and its shape error 4/3 or 4.
    const pairs = evaluateByHiding(series(spikes), { ...base, method: 'linear' }, { gapSteps: 2, count: 30, seed: 3 });
    expect(pairs.levelRmse).toBeCloseTo(4, 9);
    expect(pairs.shapeRmse).toBeGreaterThan(4 / 3);
    expect(pairs.shapeRmse).toBeLessThan(4);
    expect(pairs.levelRmse ** 2 + pairs.shapeRmse ** 2).toBeCloseTo(pairs.rmse ** 2, 9);
  });
});

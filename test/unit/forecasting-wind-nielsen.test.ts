import { autocorrelation, fitNielsen, nielsenBlendMember } from '../../shared/domain/forecasting/wind-nielsen';
import { ar1 } from './forecasting-wind-synthetic';

const HOUR = 3_600_000;
const series = (y: number[]) => ({ t: y.map((_, i) => i * HOUR), y, stepMinutes: 60 });
const mean = (y: number[]) => y.filter(Number.isFinite).reduce((s, v) => s + v, 0) / y.filter(Number.isFinite).length;

describe("Nielsen's persistence-climatology blend", () => {
  it('estimates the autocorrelation of an AR(1) series as phi^k', () => {
    const y = ar1(40_000, 0.8, 50, 5, 3);

    for (const k of [1, 2, 3]) expect(autocorrelation(y, mean(y), k)).toBeCloseTo(0.8 ** k, 1);
  });

  it('forecasts a_k last + (1 - a_k) mean at every lead', () => {
    const y = ar1(2000, 0.9, 500, 50, 5).map((v) => Math.max(0, v));
    const m = mean(y);

    const forecast = fitNielsen(series(y), { kind: 'wind' }).predict(24);

    forecast.forEach((f, j) => {
      const a = autocorrelation(y, m, j + 1);
      expect(f).toBeCloseTo(a * y[y.length - 1] + (1 - a) * m, 9);
    });
    // Near persistence at lead 1, near climatology at lead 24 (0.9^24 = 0.08).
    expect(Math.abs(forecast[0] - y[y.length - 1])).toBeLessThan(0.15 * Math.abs(y[y.length - 1] - m) + 1e-9);
    expect(Math.abs(forecast[23] - m)).toBeLessThan(0.2 * Math.abs(y[y.length - 1] - m) + 1e-9);
  });

  it('counts the lead from the last observation when the latest steps are missing', () => {
    const y = ar1(2000, 0.9, 500, 50, 6).map((v) => Math.max(0, v));
    const last = y[y.length - 3];
    y[y.length - 1] = NaN;
    y[y.length - 2] = NaN;
    const m = mean(y);

    const [first] = fitNielsen(series(y), { kind: 'wind' }).predict(1);

    const a = autocorrelation(y, m, 3);
    expect(first).toBeCloseTo(a * last + (1 - a) * m, 9);
  });

  it('stays within 0 and the rated power', () => {
    const y = ar1(2000, 0.99, 1800, 40, 8);
    y[y.length - 1] = 2400;

    const forecast = fitNielsen(series(y), { kind: 'wind', options: { ratedPowerKw: 2000 } }).predict(6);

    expect(forecast[0]).toBe(2000);
    expect(forecast.every((f) => f >= 0 && f <= 2000)).toBe(true);
  });

  it('serves wind only', () => {
    expect(nielsenBlendMember.name).toBe('nielsen_blend');
    expect(nielsenBlendMember.supports('wind') && !nielsenBlendMember.supports('load')).toBe(true);
  });
});

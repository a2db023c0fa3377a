import { fitPowerCurve, fitWind, isotonicIncreasing, windMember } from '../../../shared/domain/forecasting/wind';
import type { RegularSeries } from '../../../shared/domain/forecasting/types';
import { mulberry32 } from '../../helpers/seeded-random';

const CAPACITY = 2000;
/** Cubic from cut-in 3 m/s to rated 12 m/s, flat at capacity above. */
const trueCurve = (v: number) => (v < 3 ? 0 : v >= 12 ? CAPACITY : CAPACITY * ((v - 3) / 9) ** 3);
const HOUR = 3_600_000;

/** Thirty days of hourly output from Weibull(k = 2, c = 8) speeds with 2% noise, the speeds alongside. */
function windFarm(days = 30) {
  const u = mulberry32(42);
  const t: number[] = [];
  const y: number[] = [];
  const speed: number[] = [];
  for (let i = 0; i < days * 24; i++) {
    const v = 8 * Math.sqrt(-Math.log(1 - u()));
    t.push(Date.UTC(2024, 0, 1) + i * HOUR);
    speed.push(v);
    y.push(Math.min(CAPACITY, Math.max(0, trueCurve(v) + 0.02 * CAPACITY * (u() + u() + u() - 1.5) * 2)));
  }
  return { history: { t, y, stepMinutes: 60 } as RegularSeries, speed };
}

describe('wind power curve', () => {
  it('recovers a cubic-then-flat power curve within 3% of capacity', () => {
    const { history, speed } = windFarm();

    const curve = fitPowerCurve(speed, history.y)!;

    for (const v of [2, 4, 6, 8, 10, 11, 13, 16]) expect(Math.abs(curve.evaluate(v) - trueCurve(v))).toBeLessThan(0.03 * CAPACITY);
    expect(curve.power.every((p, i) => i === 0 || p >= curve.power[i - 1])).toBe(true);
  });

  it('makes a noisy curve non-decreasing by weighted pooling', () => {
    expect(isotonicIncreasing([1, 3, 2, 4], [1, 1, 1, 1])).toEqual([1, 2.5, 2.5, 4]);
    expect(isotonicIncreasing([1, 3, 2, 4], [1, 3, 1, 1])).toEqual([1, 2.75, 2.75, 4]);
  });

  it('needs enough pairs for a curve', () => {
    expect(fitPowerCurve([5, 6, 7], [1, 2, 3])).toBeNull();
  });
});

describe('wind member', () => {
  it('lets persistence dominate at lead 1 and the curve take over by lead 24 (half-life 3 hours)', () => {
    const { history, speed } = windFarm();
    history.y[history.y.length - 1] = 1800;
    const future = new Array<number>(24).fill(6);

    const model = fitWind(history, { kind: 'wind', history: { wind_speed_ms: speed }, future: { wind_speed_ms: future } });
    const forecast = model.predict(24);

    const onCurve = model.curve!.evaluate(6);
    const w1 = 2 ** (-1 / 3);
    expect(onCurve).toBeCloseTo(trueCurve(6), -2);
    expect(forecast[0]).toBeCloseTo(w1 * 1800 + (1 - w1) * onCurve, 6);
    expect(forecast[0]).toBeGreaterThan(1400);
    expect(forecast[2]).toBeCloseTo((1800 + onCurve) / 2, 6);
    expect(Math.abs(forecast[23] - onCurve)).toBeLessThan(0.01 * CAPACITY);
  });

  it('without wind speeds, decays persistence toward the time-of-day mean of the last week', () => {
    // A diurnal pattern: 500 at night, 1500 in the afternoon; the last hour (23:00) is at 1900.
    const t: number[] = [];
    const y: number[] = [];
    for (let i = 0; i < 14 * 24; i++) {
      const hour = i % 24;
      t.push(Date.UTC(2024, 0, 1) + i * HOUR);
      y.push(hour >= 12 && hour < 18 ? 1500 : 500);
    }
    y[y.length - 1] = 1900;

    const forecast = windMember.fit({ t, y, stepMinutes: 60 }, { kind: 'wind' }).predict(48);

    expect(forecast[0]).toBeCloseTo(2 ** (-1 / 3) * 1900 + (1 - 2 ** (-1 / 3)) * 500, 6);
    // 15:00 the next day, lead 16 h: mostly the afternoon mean.
    expect(forecast[15]).toBeCloseTo(1500 + (1900 - 1500) * 2 ** (-16 / 3), 6);
    // 23:00 two days on: the 23:00 mean of the last seven days includes the 1900 reading.
    expect(forecast[47]).toBeCloseTo((6 * 500 + 1900) / 7 + (1900 - (6 * 500 + 1900) / 7) * 2 ** (-48 / 3), 6);
  });

  it('clips to zero and to the largest output observed', () => {
    // A site that reads slightly negative at calm (auxiliary load) and last read its maximum.
    const { history, speed } = windFarm();
    history.y = history.y.map((p, i) => (speed[i] < 3 ? -15 : p));
    const max = Math.max(...history.y);
    history.y[history.y.length - 1] = max;

    const forecast = windMember.fit(history, { kind: 'wind', history: { wind_speed_ms: speed }, future: { wind_speed_ms: [30, 30, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] } }).predict(30);

    expect(forecast[0]).toBe(max);
    expect(forecast[29]).toBe(0);
    expect(forecast.every((p) => p >= 0 && p <= max)).toBe(true);
  });

  it('counts the lead from the last observation when the latest steps are missing', () => {
    const { history, speed } = windFarm();
    history.y[history.y.length - 4] = 1800;
    for (let i = history.y.length - 3; i < history.y.length; i++) history.y[i] = NaN;

    const model = fitWind(history, { kind: 'wind', history: { wind_speed_ms: speed }, future: { wind_speed_ms: [6] } });

    // Lead 4 h from the last reading.
    const w = 2 ** (-4 / 3);
    expect(model.predict(1)[0]).toBeCloseTo(w * 1800 + (1 - w) * model.curve!.evaluate(6), 6);
  });

  it('serves wind only', () => {
    expect(windMember.supports('wind') && !windMember.supports('load')).toBe(true);
    expect(windMember.name).toBe('wind_power_curve');
  });
});

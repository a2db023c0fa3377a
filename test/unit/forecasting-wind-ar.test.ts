import { fitWindAr, windArMember } from '../../shared/domain/forecasting/wind-ar';
import { fitNielsen } from '../../shared/domain/forecasting/wind-nielsen';
import { gaussian } from '../helpers/seeded-random';
import { RATED_KW, rmse, turbine, turbineCurve } from './forecasting-wind-synthetic';

const LEADS = 36; // 6 hours at 10 minutes
const DAYS = 28;

/** Errors of persistence, Nielsen and wind_ar 1-6 hours ahead, from origins every 11 hours of 60 days of hourly output. */
function errors(withFutureSpeed: boolean, momentum = false) {
  const { history, speed } = turbine(DAYS + 60, 21, 60, momentum);
  const window = DAYS * 24;
  // Errors by lead (0: one hour ahead).
  const lead = () => Array.from({ length: 6 }, () => [] as number[]);
  const out = { persistence: lead(), nielsen: lead(), ar: lead() };
  for (let origin = window; origin + 6 <= history.y.length; origin += 11) {
    const slice = { t: history.t.slice(origin - window, origin), y: history.y.slice(origin - window, origin), stepMinutes: 60 };
    const context = {
      kind: 'wind' as const,
      history: { wind_speed_ms: speed.slice(origin - window, origin) },
      future: withFutureSpeed ? { wind_speed_ms: speed.slice(origin, origin + 6) } : undefined,
    };
    const ar = fitWindAr(slice, context).predict(6);
    const nielsen = fitNielsen(slice, context).predict(6);
    for (let k = 0; k < 6; k++) {
      const actual = history.y[origin + k];
      out.persistence[k].push(actual - slice.y[slice.y.length - 1]);
      out.nielsen[k].push(actual - nielsen[k]);
      out.ar[k].push(actual - ar[k]);
    }
  }
  return out;
}

describe('wind_ar', () => {
  it('beats persistence on an autoregressive wind speed seen through a power curve', () => {
    const e = errors(false);

    expect(rmse(e.ar.flat())).toBeLessThan(0.95 * rmse(e.persistence.flat()));
  });

  it("beats Nielsen's blend, which has no notion of momentum, on a speed that keeps rising or falling for hours", () => {
    const e = errors(false, true);

    // Momentum is what the next hours carry; by six hours both have decayed toward the mean.
    for (const k of [0, 1]) expect(rmse(e.ar[k])).toBeLessThan(0.92 * rmse(e.nielsen[k]));
    expect(rmse(e.ar.flat())).toBeLessThan(rmse(e.nielsen.flat()));
  });

  it("weighs the last hour and the one before it apart: an AR(2) y(t+1) = 0.5 y(t) - 0.5 y(t-1) + e is met within 4% of its noise", () => {
    // The 1, 3 and 6 hour averages alone tie the hours before the last together (1.07-1.08 times the noise here).
    const NOISE_KW = 20;
    for (const seed of [21, 5]) {
      const e = gaussian(seed);
      const x = [0, 0];
      for (let i = 2; i < 90 * 24; i++) x.push(0.5 * x[i - 1] - 0.5 * x[i - 2] + e());
      const y = x.map((v) => 1000 + NOISE_KW * v);
      const t = y.map((_, i) => i * 3_600_000);
      const window = DAYS * 24;
      const misses: number[] = [];
      for (let origin = window; origin < y.length; origin += 11) {
        const [first] = fitWindAr({ t: t.slice(origin - window, origin), y: y.slice(origin - window, origin), stepMinutes: 60 }, { kind: 'wind' }).predict(1);
        misses.push(y[origin] - first);
      }

      expect(rmse(misses)).toBeLessThan(1.04 * NOISE_KW);
    }
  });

  it('follows a perfect wind-speed forecast through the power curve', () => {
    const e = errors(true);

    // Only the 1% measurement noise and the curve's binning are left.
    expect(rmse(e.ar.flat())).toBeLessThan(0.25 * rmse(e.persistence.flat()));
  });

  it('falls back to the power alone at a lead whose forecast speed is missing', () => {
    const { history, speed } = turbine(DAYS);
    const future = speed.slice(-LEADS).map((v) => v + 3);
    future[5] = NaN;

    const withGap = fitWindAr(history, { kind: 'wind', history: { wind_speed_ms: speed }, future: { wind_speed_ms: future } }).predict(LEADS);
    const without = fitWindAr(history, { kind: 'wind', history: { wind_speed_ms: speed } }).predict(LEADS);

    expect(withGap.every(Number.isFinite)).toBe(true);
    expect(withGap[4]).not.toBeCloseTo(without[4], 0);
    expect(Number.isFinite(withGap[5])).toBe(true);
  });

  it('stays within 0 and the rated power', () => {
    const { history, speed } = turbine(DAYS);
    const future = new Array<number>(LEADS).fill(30).map((v, k) => (k % 2 ? v : 0));

    const given = fitWindAr(history, { kind: 'wind', history: { wind_speed_ms: speed }, future: { wind_speed_ms: future }, options: { ratedPowerKw: 1500 } });
    const estimated = fitWindAr(history, { kind: 'wind', history: { wind_speed_ms: speed }, future: { wind_speed_ms: future } });

    expect(given.predict(LEADS).every((p) => p >= 0 && p <= 1500)).toBe(true);
    expect(estimated.rated).toBeCloseTo(RATED_KW, -1);
    expect(estimated.predict(LEADS).every((p) => p >= 0 && p <= estimated.rated)).toBe(true);
    expect(estimated.curve!.evaluate(14)).toBeCloseTo(turbineCurve(14), -2);
  });

  it('forecasts a horizon past the longest fitted lead with that lead', () => {
    const { history } = turbine(DAYS);

    const forecast = fitWindAr(history, { kind: 'wind' }).predict(2 * 48 * 6 + 10);

    expect(forecast.every(Number.isFinite)).toBe(true);
    expect(forecast[forecast.length - 1]).toBe(forecast[48 * 6 - 1]);
  });

  it('counts the lead from the last observation when the latest steps are missing', () => {
    const { history } = turbine(DAYS);
    const n = history.y.length;
    const gappy = { ...history, y: history.y.map((v, i) => (i >= n - 3 ? NaN : v)) };
    const truncated = { t: history.t.slice(0, n - 3), y: history.y.slice(0, n - 3), stepMinutes: history.stepMinutes };

    const [first] = fitWindAr(gappy, { kind: 'wind' }).predict(1);
    const fourth = fitWindAr(truncated, { kind: 'wind' }).predict(4)[3];

    // The same lead-4 model; only the averages at the origin differ (they skip the missing steps).
    expect(Math.abs(first - fourth)).toBeLessThan(0.02 * RATED_KW);
    expect(Math.abs(first - fitWindAr(truncated, { kind: 'wind' }).predict(1)[0])).toBeGreaterThan(Math.abs(first - fourth));
  });

  it('holds the last value when the history is too short to fit', () => {
    const y = [0, 100, 300, 250];

    expect(fitWindAr({ t: [0, 1, 2, 3].map((i) => i * 600_000), y, stepMinutes: 10 }, { kind: 'wind' }).predict(3)).toEqual([250, 250, 250]);
  });

  it('serves wind only', () => {
    expect(windArMember.name).toBe('wind_ar');
    expect(windArMember.supports('wind') && !windArMember.supports('solar')).toBe(true);
  });
});

import { correctionTerms, curveCorrection, type CurveCorrection, fitPowerCurve, fitWind, hourTrend, isotonicIncreasing, persistenceWeight, windMember } from '../../../shared/domain/forecasting/wind';
import { fitNielsen } from '../../../shared/domain/forecasting/wind-nielsen';
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
  it('learns the persistence weight of each lead by least squares on the history', () => {
    // y[i + k] = 0.7 y[i] + 0.3 c[i + k] exactly at k = 2: the weight is 0.7.
    const c = Array.from({ length: 200 }, (_, i) => 1000 + 500 * Math.sin(i / 7));
    const y = c.map((v, i) => (i < 2 ? v + 100 : 0));
    for (let i = 2; i < y.length; i++) y[i] = 0.7 * y[i - 2] + 0.3 * c[i];

    expect(persistenceWeight(y, c, 2)).toBeCloseTo(0.7, 9);
  });

  it("learns each lead's weights of the curve's present and recent error, of persistence and of the last hour's trend by least squares", () => {
    // y[i + k] - c[i + k] = 0.5 (y[i] - c[i]) + 0.2 (y[i] - c[i + k]) + 0.3 (y[i] - y[i - 1]) + 0.4 (3-hour mean of y - c to i), k = 3.
    const c = Array.from({ length: 300 }, (_, i) => 1000 + 500 * Math.sin(i / 7) + 200 * Math.cos(i / 3));
    const y = c.map((v, i) => v + (i < 5 ? 150 * (i - 2) : 0));
    const recent = (i: number) => (y[i] - c[i] + y[i - 1] - c[i - 1] + y[i - 2] - c[i - 2]) / 3;
    for (let i = 5; i < y.length; i++) y[i] = c[i] + 0.5 * (y[i - 3] - c[i - 3]) + 0.2 * (y[i - 3] - c[i]) + 0.3 * (y[i - 3] - y[i - 4]) + 0.4 * recent(i - 3);

    const correction = curveCorrection(y, correctionTerms(y, c, 60), 3)!;

    expect(correction.error).toBeCloseTo(0.5, 3);
    expect(correction.persistence).toBeCloseTo(0.2, 3);
    expect(correction.trend).toBeCloseTo(0.3, 3);
    expect(correction.recentError).toBeCloseTo(0.4, 3);
    // Without any present error there is nothing to learn its weight from.
    expect(curveCorrection(c, correctionTerms(c, c, 60), 3)).toBeNull();
  });

  it("takes the last hour's trend from hourly means at finer steps", () => {
    const y = [0, 0, 0, 0, 0, 0, 6, 6, 6, 6, 6, 6, 12];

    const trend = hourTrend(y, 10);

    expect(Array.from(trend.slice(0, 6)).every(Number.isNaN)).toBe(true);
    // The hour to step 11 against the hour before: 6 - 0; to step 12: (5 x 6 + 12) / 6 - (5 x 0 + 6) / 6.
    expect(trend[11]).toBe(6);
    expect(trend[12]).toBe(6);
  });

  it('corrects the curve of the forecast speed by its present error and the gap from the last value, per lead', () => {
    const { history, speed } = windFarm();
    history.y[history.y.length - 1] = 1800;
    const future = new Array<number>(24).fill(6);

    const model = fitWind(history, { kind: 'wind', history: { wind_speed_ms: speed }, future: { wind_speed_ms: future } });
    const forecast = model.predict(24);

    const onCurve = model.curve!.evaluate(6);
    const curveOfHistory = speed.map((v) => model.curve!.evaluate(v));
    expect(onCurve).toBeCloseTo(trueCurve(6), -2);
    const last = history.y.length - 1;
    const terms = correctionTerms(history.y, curveOfHistory, 60);
    const expected = (c: CurveCorrection) => {
      const value = onCurve + c.error * (1800 - curveOfHistory[last]) + c.persistence * (1800 - onCurve) + c.trend * terms.trend[last] + c.recentError * terms.recentError[last];
      return Math.min(CAPACITY, Math.max(0, value));
    };
    // Leads 1-6 and 8 have their own fit (the lead grid); lead 7 takes the mean of 6's and 8's coefficients.
    for (const lead of [1, 2, 3, 4, 5, 6, 8]) expect(forecast[lead - 1]).toBeCloseTo(expected(curveCorrection(history.y, terms, lead)!), 6);
    const [six, eight] = [curveCorrection(history.y, terms, 6)!, curveCorrection(history.y, terms, 8)!];
    const seven = Object.fromEntries(Object.keys(six).map((key) => [key, (six[key as keyof CurveCorrection] + eight[key as keyof CurveCorrection]) / 2])) as unknown as CurveCorrection;
    expect(forecast[6]).toBeCloseTo(expected(seven), 6);
    // Independent hourly speeds: persistence carries nothing.
    for (let k = 1; k <= 24; k++) expect(Math.abs(curveCorrection(history.y, terms, k)!.persistence)).toBeLessThan(0.02);
  });

  it('blends the last value and the curve by the persistence weight when the speed at the last value is missing', () => {
    const { history, speed } = windFarm();
    history.y[history.y.length - 1] = 1800;
    speed[speed.length - 1] = NaN;

    const model = fitWind(history, { kind: 'wind', history: { wind_speed_ms: speed }, future: { wind_speed_ms: [6, 6] } });

    const curveOfHistory = speed.map((v) => model.curve!.evaluate(v));
    model.predict(2).forEach((f, j) => {
      const w = persistenceWeight(history.y, curveOfHistory, j + 1);
      expect(f).toBeCloseTo(w * 1800 + (1 - w) * model.curve!.evaluate(6), 6);
    });
  });

  it("is Nielsen's blend without wind speeds over the horizon", () => {
    const { history } = windFarm();

    const forecast = windMember.fit(history, { kind: 'wind' }).predict(48);

    expect(forecast).toEqual(fitNielsen(history, { kind: 'wind' }).predict(48));
  });

  it('clips to zero and to the rated power', () => {
    // A site that reads slightly negative at calm (auxiliary load), last read at calm, and is rated below its curve's top.
    const RATED = 1900;
    const { history, speed } = windFarm();
    speed[speed.length - 1] = 2;
    history.y = history.y.map((p, i) => (speed[i] < 3 ? -15 : p));
    const future = [30, 30, ...new Array<number>(28).fill(1)];

    const forecast = windMember.fit(history, { kind: 'wind', history: { wind_speed_ms: speed }, future: { wind_speed_ms: future }, options: { ratedPowerKw: RATED } }).predict(30);

    expect(forecast[0]).toBe(RATED);
    expect(forecast[29]).toBe(0);
    expect(forecast.every((p) => p >= 0 && p <= RATED)).toBe(true);
  });

  it('counts the lead from the last observation when the latest steps are missing', () => {
    const { history, speed } = windFarm();
    history.y[history.y.length - 4] = 1800;
    for (let i = history.y.length - 3; i < history.y.length; i++) history.y[i] = NaN;

    const model = fitWind(history, { kind: 'wind', history: { wind_speed_ms: speed }, future: { wind_speed_ms: [6] } });

    // Lead 4 h from the last reading.
    const curveOfHistory = speed.map((v) => model.curve!.evaluate(v));
    const terms = correctionTerms(history.y, curveOfHistory, 60);
    const c = curveCorrection(history.y, terms, 4)!;
    const ahead = model.curve!.evaluate(6);
    const at = history.y.length - 4;
    const expected = ahead + c.error * (1800 - curveOfHistory[at]) + c.persistence * (1800 - ahead) + c.trend * (1800 - history.y[at - 1]) + c.recentError * terms.recentError[at];
    expect(model.predict(1)[0]).toBeCloseTo(Math.min(CAPACITY, Math.max(0, expected)), 6);
  });

  it('serves wind only', () => {
    expect(windMember.supports('wind') && !windMember.supports('load')).toBe(true);
    expect(windMember.name).toBe('wind_power_curve');
  });
});

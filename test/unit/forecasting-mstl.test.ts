import { fitEts, selectEts } from '../../shared/domain/forecasting/ets';
import { memberNamed } from '../../shared/domain/forecasting/members';
import { fitMstlEts, mstl, MSTL_ETS } from '../../shared/domain/forecasting/mstl';
import { stl } from '../../shared/domain/forecasting/stl';
import type { RegularSeries } from '../../shared/domain/forecasting/types';
import { gaussian } from '../helpers/seeded-random';
import { londonWallClockLoad } from '../helpers/london-load';

const HOUR = 3_600_000;
const mape = (forecast: number[], actual: number[]) => (100 * forecast.reduce((s, f, i) => s + Math.abs(f - actual[i]) / actual[i], 0)) / actual.length;
const rmse = (a: ArrayLike<number>, b: ArrayLike<number>, from = 0, to = a.length) => {
  let s = 0;
  for (let i = from; i < to; i++) s += (a[i] - b[i]) ** 2;
  return Math.sqrt(s / (to - from));
};

/**
 * Hourly load from a Monday: a daily shape, a weekend drop with a shape of its own, a drifting level and
 * noise. The true components are returned as MSTL defines them: the weekly one averages 0 at each hour of
 * the day (its mean per hour belongs to the daily one) and the daily one averages 0 over a day.
 */
function synthetic(days: number, noiseSd = 10, start = Date.UTC(2024, 0, 1)) {
  const noise = gaussian(11);
  const dayShape = (h: number) => 200 * Math.sin((2 * Math.PI * (h - 9)) / 24) + 60 * Math.cos((4 * Math.PI * h) / 24);
  const weekendDrop = (h: number) => -150 + 30 * Math.sin((2 * Math.PI * (h - 9)) / 24);
  const daily: number[] = [];
  const weekly: number[] = [];
  const t: number[] = [];
  const y: number[] = [];
  for (let i = 0; i < days * 24; i++) {
    const hour = i % 24;
    const weekend = Math.floor(i / 24) % 7 >= 5;
    const perHourMean = (2 / 7) * weekendDrop(hour);
    daily.push(dayShape(hour) + perHourMean + (2 / 7) * 150);
    weekly.push((weekend ? weekendDrop(hour) : 0) - perHourMean);
    t.push(start + i * HOUR);
    y.push(3000 + 2 * (i / 24) + dayShape(hour) + (weekend ? weekendDrop(hour) : 0) + noiseSd * noise());
  }
  return { t, y, daily, weekly };
}

const head = (s: { t: number[]; y: number[] }, n: number): RegularSeries => ({ t: s.t.slice(0, n), y: s.y.slice(0, n), stepMinutes: 60 });

describe('STL (Cleveland et al. 1990)', () => {
  // y = 10 + 3 sin(2 pi i / 12) + 0.05 i + 0.5 cos(1.7 i); the expected values are R 4.x stats::stl(ts(y, frequency = 12), s.window = 11).
  const y = Array.from({ length: 72 }, (_, i) => 10 + 3 * Math.sin((2 * Math.PI * i) / 12) + 0.05 * i + 0.5 * Math.cos(1.7 * i));

  it("matches R's stl to rounding", () => {
    const fit = stl(y, { period: 12, seasonalWindow: 11 });

    const at = [0, 1, 2, 39, 71];
    expect(at.map((i) => fit.seasonal[i])).toEqual([0.0311138238, 1.4104738482, 2.5219053142, 3.0587623343, -1.424632324].map((v) => expect.closeTo(v, 8)));
    expect(at.map((i) => fit.trend[i])).toEqual([10.0909796405, 10.1295801163, 10.1681805921, 11.9501830008, 13.6049273906].map((v) => expect.closeTo(v, 8)));
    expect(fit.remainder[39]).toBeCloseTo(y[39] - fit.seasonal[39] - fit.trend[39], 12);
  });

  it("matches R's robust stl", () => {
    const fit = stl(y, { period: 12, seasonalWindow: 11, robust: true });

    expect([0, 39, 71].map((i) => fit.seasonal[i])).toEqual([0.0585317189, 3.0741580052, -1.4419660349].map((v) => expect.closeTo(v, 8)));
  });

  it('refuses a series of two periods or less', () => {
    expect(() => stl(y.slice(0, 24), { period: 12, seasonalWindow: 11 })).toThrow(RangeError);
  });
});

describe('MSTL (Bandara, Hyndman & Bergmeir 2021)', () => {
  it("matches R's mstl with its default windows", () => {
    // y = 100 + 0.1 i + 5 sin(2 pi i / 12) - 3 [weekend of 12-step days] + 0.7 cos(1.3 i); expected values are
    // R forecast 8.20 mstl(msts(y, seasonal.periods = c(12, 84))).
    const y = Array.from({ length: 252 }, (_, i) => 100 + 0.1 * i + 5 * Math.sin((2 * Math.PI * i) / 12) - 3 * (Math.floor(i / 12) % 7 >= 5 ? 1 : 0) + 0.7 * Math.cos(1.3 * i));

    const parts = mstl(y, [12, 84]);

    const at = [0, 49, 251];
    expect(at.map((i) => parts.trend[i])).toEqual([99.6688805407, 104.1551283454, 123.7361252625].map((v) => expect.closeTo(v, 8)));
    expect(at.map((i) => parts.seasonals[0][i])).toEqual([0.0228564136, 2.518354484, -2.433023434].map((v) => expect.closeTo(v, 8)));
    expect(at.map((i) => parts.seasonals[1][i])).toEqual([0.0719752455, 1.0979113982, -1.2019084577].map((v) => expect.closeTo(v, 8)));
  });

  it('recovers known daily and weekly components', () => {
    const s = synthetic(56);

    const parts = mstl(s.y, [24, 168]);

    expect(parts.periods).toEqual([24, 168]);
    // Away from the ends, each recovered component is within a few percent of its amplitude (200 and 150).
    const inner = [7 * 24, 49 * 24] as const;
    expect(rmse(parts.seasonals[0], s.daily, ...inner)).toBeLessThan(8);
    expect(rmse(parts.seasonals[1], s.weekly, ...inner)).toBeLessThan(8);
    expect(rmse(parts.remainder, new Float64Array(s.y.length), ...inner)).toBeLessThan(15);
  });

  it('drops a period without two whole cycles, as R does', () => {
    const s = synthetic(14);

    expect(mstl(s.y, [24, 168]).periods).toEqual([24]);
  });
});

describe('ETS chosen by AICc', () => {
  it("matches R's ets on a local level series (alpha, AICc, forecast)", () => {
    // z = 50 + cumsum(0.3 cos(0.9 k)) + 0.8 sin(2.3 k); R: ets(z, "ANN") alpha 1e-4, AICc 371.0088, forecast 49.856.
    let level = 50;
    const z = Array.from({ length: 100 }, (_, k) => {
      level += 0.3 * Math.cos(0.9 * (k + 1));
      return level + 0.8 * Math.sin(2.3 * (k + 1));
    });

    const fit = fitEts(z, 'none');

    expect(fit.alpha).toBeCloseTo(1e-4, 6);
    // Initial states solved exactly: never worse than R's Nelder-Mead, and within its tolerance.
    expect(fit.aicc).toBeLessThanOrEqual(371.0088);
    expect(fit.aicc).toBeGreaterThan(370.9);
    expect(fit.forecast(1)[0]).toBeCloseTo(49.856, 2);
    expect(selectEts(z)[0].trend).toBe('none');
  });

  it('chooses a trend for a trending series', () => {
    // R: ets(w, "ZZN", additive.only = TRUE) is ETS(A,A,N), AICc 358.59 (ANN 484.45).
    const w = Array.from({ length: 100 }, (_, k) => 20 + 0.5 * (k + 1) + 0.8 * Math.sin(2.3 * (k + 1)));

    const [best, ...others] = selectEts(w);

    expect(best.trend).toBe('additive');
    expect(best.aicc).toBeLessThanOrEqual(358.59);
    expect(others.find((m) => m.trend === 'none')!.aicc).toBeCloseTo(484.45, 1);
    expect(best.forecast(3)).toEqual([70.5, 71, 71.5].map((v) => expect.closeTo(v, 0)));
  });
});

describe('mstl_ets member', () => {
  it('is registered for load and generic series with more than two weeks of history', () => {
    const member = memberNamed(MSTL_ETS)!;

    expect(member.supports('load')).toBe(true);
    expect(member.supports('generic')).toBe(true);
    expect(member.supports('solar')).toBe(false);
    expect(member.minHistory(30)).toBe(15 * 48);
  });

  it('carries the daily and weekly seasons into the forecast', () => {
    const s = synthetic(63);
    // The history ends on a Friday (day 53): the next day's weekend drop must come from the weekly component.
    const history = head(s, 54 * 24);

    const forecast = fitMstlEts(history, { kind: 'load' }).predict(48);

    const actual = s.y.slice(54 * 24, 56 * 24);
    expect(mape(forecast, actual)).toBeLessThan(1.5);
    const mean = (a: number[]) => a.reduce((x, v) => x + v, 0) / a.length;
    const friday = s.y.slice(53 * 24, 54 * 24);
    expect(mean(friday) - mean(forecast.slice(0, 24))).toBeGreaterThan(100);
  });

  it('forecasts through missing values with the seasonal shape', () => {
    const s = synthetic(57);
    const history = head(s, 56 * 24);
    // Six hours missing at the day's peak, a day before the origin.
    for (let i = 55 * 24 - 14; i < 55 * 24 - 8; i++) history.y[i] = NaN;

    const forecast = fitMstlEts(history, { kind: 'load' }).predict(24);

    expect(mape(forecast, s.y.slice(56 * 24))).toBeLessThan(1.5);
  });

  it('treats a public holiday like a Sunday, in the history and the horizon', () => {
    // Hourly load in England from Monday 3 April 2000 whose holidays (Good Friday 21 April, Easter Monday 24 April,
    // 1 May and 29 May) behave like Sundays; the horizon is Spring bank holiday Monday 29 May.
    const start = Date.UTC(2000, 3, 3);
    const noise = gaussian(5);
    const holidays = new Set(['2000-04-21', '2000-04-24', '2000-05-01', '2000-05-29']);
    const t: number[] = [];
    const y: number[] = [];
    for (let i = 0; i < 57 * 24; i++) {
      const time = start + i * HOUR;
      const date = new Date(time);
      const sundayLike = date.getUTCDay() === 0 || holidays.has(date.toISOString().slice(0, 10));
      const hour = date.getUTCHours();
      t.push(time);
      y.push(2000 + 300 * Math.max(0, Math.sin((Math.PI * (hour - 6)) / 14)) * (sundayLike ? 0.4 : 1) + 5 * noise());
    }
    const history = { t: t.slice(0, 56 * 24), y: y.slice(0, 56 * 24), stepMinutes: 60 };
    const actual = y.slice(56 * 24);

    const withHolidays = fitMstlEts(history, { kind: 'load', country: 'GB' });
    const without = fitMstlEts(history, { kind: 'load' });

    expect(withHolidays.holidaySteps).toBe(3 * 24);
    expect(mape(withHolidays.predict(24), actual)).toBeLessThan(1);
    expect(mape(without.predict(24), actual)).toBeGreaterThan(3 * mape(withHolidays.predict(24), actual));
  });

  it('keeps its seasons on local time across a DST change', () => {
    // Load shaped by London wall-clock time; clocks went forward on 31 March 2024, three days before the origin.
    const { t, y } = londonWallClockLoad(Date.UTC(2024, 1, 5), 59 * 24);
    const history = { t: t.slice(0, 58 * 24), y: y.slice(0, 58 * 24), stepMinutes: 60 };
    const actual = y.slice(58 * 24);

    const local = fitMstlEts(history, { kind: 'load', timezone: 'Europe/London' }).predict(24);
    const utc = fitMstlEts(history, { kind: 'load' }).predict(24);

    expect(mape(local, actual)).toBeLessThan(1.5);
    expect(mape(local, actual)).toBeLessThan(0.7 * mape(utc, actual));
  });
});

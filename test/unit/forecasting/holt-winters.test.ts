import { fitHoltWinters, holtWintersDailyMember, holtWintersMember, InsufficientHistory } from '../../../shared/domain/forecasting/holt-winters';
import { DAY_MS, type RegularSeries } from '../../../shared/domain/forecasting/types';
import { gaussian } from '../../helpers/seeded-random';
import { readTaylor, withTaylor } from '../../helpers/taylor';
import { londonWallClockLoad } from '../../helpers/london-load';

const mape = (forecast: number[], actual: number[]) => (100 * forecast.reduce((s, f, i) => s + Math.abs(f - actual[i]) / actual[i], 0)) / actual.length;

/** Half-hourly load: daily shape, lower weekends, a slow level drift and 1% noise; starts on a Monday. */
function doubleSeasonal(days: number, start = Date.UTC(2024, 0, 1)): RegularSeries {
  const noise = gaussian(7);
  const t: number[] = [];
  const y: number[] = [];
  for (let i = 0; i < days * 48; i++) {
    const hour = (i % 48) / 2;
    const weekday = Math.floor(i / 48) % 7;
    const daily = 250 * Math.sin((2 * Math.PI * (hour - 9)) / 24) + 80 * Math.sin((4 * Math.PI * hour) / 24);
    const weekly = weekday >= 5 ? -180 - 40 * Math.sin((2 * Math.PI * (hour - 9)) / 24) : weekday === 0 ? -30 : 0;
    t.push(start + i * 1_800_000);
    y.push(2000 + 0.5 * (i / 48) + daily + weekly + 10 * noise());
  }
  return { t, y, stepMinutes: 30 };
}

const head = (s: RegularSeries, n: number): RegularSeries => ({ t: s.t.slice(0, n), y: s.y.slice(0, n), stepMinutes: s.stepMinutes });

describe('double-seasonal Holt-Winters (Taylor 2003)', () => {
  it('forecasts the next day of a synthetic daily-and-weekly series within 2% MAPE', () => {
    const series = doubleSeasonal(43);
    const history = head(series, 42 * 48);

    const forecast = holtWintersMember.fit(history, { kind: 'load' }).predict(48);

    expect(mape(forecast, series.y.slice(42 * 48))).toBeLessThan(2);
  });

  it('keeps its seasons on local time across a DST change', () => {
    // Load shaped by London wall-clock time; the change on 31 March 2024 falls inside the history.
    const { t, y } = londonWallClockLoad(Date.UTC(2024, 2, 4), 36 * 24);
    const history = { t: t.slice(0, 35 * 24), y: y.slice(0, 35 * 24), stepMinutes: 60 };

    const local = fitHoltWinters(history, { kind: 'load', timezone: 'Europe/London' }).predict(24);
    const utc = fitHoltWinters(history, { kind: 'load' }).predict(24);

    const actual = y.slice(35 * 24);
    expect(mape(local, actual)).toBeLessThan(1.5);
    expect(mape(local, actual)).toBeLessThan(mape(utc, actual));
  });

  it('forecasts through missing values', () => {
    const series = doubleSeasonal(29);
    const history = head(series, 28 * 48);
    for (let i = 100; i < history.y.length; i += 7) history.y[i] = NaN;

    const forecast = holtWintersMember.fit(history, { kind: 'load' }).predict(48);

    expect(forecast.every(Number.isFinite)).toBe(true);
    expect(mape(forecast, series.y.slice(28 * 48))).toBeLessThan(2.5);
  });

  it('needs two weeks, and the daily-only variant reports itself under its own name', () => {
    const short = head(doubleSeasonal(10), 10 * 48);

    expect(holtWintersMember.minHistory(30)).toBe(14 * 48);
    expect(() => holtWintersMember.fit(short, { kind: 'load' })).toThrow(InsufficientHistory);
    expect(holtWintersDailyMember.name).toBe('holt_winters_daily');
    expect(holtWintersDailyMember.fit(short, { kind: 'load' }).predict(48)).toHaveLength(48);
    expect(holtWintersMember.supports('load') && holtWintersMember.supports('generic') && !holtWintersMember.supports('wind')).toBe(true);
  });
});

describe('on Taylor (2003) demand data', () => {
  withTaylor('beats seasonal naive day-ahead over the last week', () => {
    const { t, y } = readTaylor();
    const sd = 48;
    const errors = { hw: [] as number[], naive: [] as number[] };

    // Rolling origin: each midnight of the last week, refit on everything before and forecast the day.
    for (let day = 7; day >= 1; day--) {
      const end = y.length - day * sd;
      const forecast = holtWintersMember.fit({ t: t.slice(0, end), y: y.slice(0, end), stepMinutes: 30 }, { kind: 'load', country: 'GB' }).predict(sd);
      for (let k = 0; k < sd; k++) {
        errors.hw.push(Math.abs(forecast[k] - y[end + k]) / y[end + k]);
        errors.naive.push(Math.abs(y[end + k - 7 * sd] - y[end + k]) / y[end + k]);
      }
    }

    const mean = (xs: number[]) => (100 * xs.reduce((s, v) => s + v, 0)) / xs.length;
    const hwMape = mean(errors.hw);
    const naiveMape = mean(errors.naive);
    expect(t[1] - t[0]).toBe(DAY_MS / 48);
    expect(hwMape).toBeLessThan(naiveMape);
    expect(hwMape).toBeLessThan(2);
  });
});

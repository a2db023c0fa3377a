import { fitLoadRegression, loadRegressionFolds, loadRegressionMember } from '../../../shared/domain/forecasting/load';
import type { FitContext, RegularSeries } from '../../../shared/domain/forecasting/types';
import { gaussian } from '../../helpers/seeded-random';
import { readTaylor, withTaylor } from '../../helpers/taylor';

const mape = (forecast: number[], actual: number[]) => (100 * forecast.reduce((s, f, i) => s + Math.abs(f - actual[i]) / actual[i], 0)) / actual.length;
const mean = (xs: number[]) => xs.reduce((s, v) => s + v, 0) / xs.length;
const HOUR = 3_600_000;

const HEATING_PER_DEGREE = 6;
const WEEKEND_DROP = 80;

/**
 * Hourly load in UTC: an hour-of-day shape, weekends 80 lower, 6 per degree of heating below 15.5 C,
 * noise of 5. Temperatures swing daily and drift over days, mostly below 15.5 C.
 */
function syntheticLoad(days: number, start = Date.UTC(2024, 0, 1)) {
  const noise = gaussian(11);
  const t: number[] = [];
  const y: number[] = [];
  const temperature: number[] = [];
  for (let i = 0; i < days * 24; i++) {
    const time = start + i * HOUR;
    const hour = i % 24;
    const weekend = new Date(time).getUTCDay() % 6 === 0;
    const temp = 8 + 4 * Math.sin((2 * Math.PI * (hour - 9)) / 24) + 4 * Math.sin((2 * Math.PI * i) / (24 * 9.3)) + 0.5 * noise();
    const shape = 150 * Math.max(0, Math.sin((Math.PI * (hour - 6)) / 16)) + (hour >= 17 && hour <= 20 ? 60 : 0);
    t.push(time);
    temperature.push(temp);
    y.push(500 + shape - (weekend ? WEEKEND_DROP : 0) + HEATING_PER_DEGREE * Math.max(0, 15.5 - temp) + 5 * noise());
  }
  return { t, y, temperature };
}

function split(data: { t: number[]; y: number[]; temperature: number[] }, historyDays: number): { history: RegularSeries; context: FitContext; actual: number[] } {
  const n = historyDays * 24;
  return {
    history: { t: data.t.slice(0, n), y: data.y.slice(0, n), stepMinutes: 60 },
    context: { kind: 'load', history: { temperature_c: data.temperature.slice(0, n) }, future: { temperature_c: data.temperature.slice(n) } },
    actual: data.y.slice(n),
  };
}

describe('load regression', () => {
  it('recovers a synthetic load of hour-of-day, weekday and heating effects within 1.5% day-ahead', () => {
    const { history, context, actual } = split(syntheticLoad(57), 56);

    const model = fitLoadRegression(history, context);
    const forecast = model.predict(24);

    expect(model.usesTemperature).toBe(true);
    expect(mape(forecast, actual)).toBeLessThan(1.5);
  });

  it('moves the forecast by the heating slope when the forecast temperature drops', () => {
    const data = syntheticLoad(57);
    const { history, context } = split(data, 56);
    const colder = { ...context, future: { temperature_c: context.future!.temperature_c.map((v) => v - 4) } };

    const base = fitLoadRegression(history, context).predict(24);
    const cold = fitLoadRegression(history, colder).predict(24);

    // Every forecast hour is below 15.5 C, so 4 degrees colder is 24 more.
    expect(mean(cold) - mean(base)).toBeCloseTo(4 * HEATING_PER_DEGREE, -0.5);
  });

  it('forecasts a weekend day lower than the weekday before it by the weekend drop', () => {
    // History ends on a Thursday night; the horizon is Friday then Saturday (recursive for the second day).
    const data = syntheticLoad(60);
    const { history, context, actual } = split(data, 53);
    expect(new Date(history.t.at(-1)! + HOUR).getUTCDay()).toBe(5);

    const forecast = fitLoadRegression(history, context).predict(48);

    expect(mape(forecast, actual.slice(0, 48))).toBeLessThan(2);
    const friday = mean(forecast.slice(0, 24)) - mean(actual.slice(0, 24));
    const saturday = mean(forecast.slice(24)) - mean(actual.slice(24, 48));
    expect(Math.abs(friday)).toBeLessThan(10);
    expect(Math.abs(saturday)).toBeLessThan(10);
    expect(mean(forecast.slice(0, 24)) - mean(forecast.slice(24))).toBeGreaterThan(WEEKEND_DROP / 2);
  });

  it('drops rows with missing loads or temperatures from the fit and still forecasts', () => {
    const { history, context, actual } = split(syntheticLoad(57), 56);
    for (let i = 5; i < history.y.length; i += 11) history.y[i] = NaN;
    for (let i = 3; i < history.y.length; i += 17) context.history!.temperature_c[i] = NaN;

    const forecast = loadRegressionMember.fit(history, context).predict(24);

    expect(forecast.every(Number.isFinite)).toBe(true);
    expect(mape(forecast, actual)).toBeLessThan(2);
  });

  it('falls back to the regression without lags where yesterday is missing', () => {
    const { history, context, actual } = split(syntheticLoad(57), 56);
    for (let i = history.y.length - 24; i < history.y.length; i++) history.y[i] = NaN;

    const forecast = loadRegressionMember.fit(history, context).predict(24);

    expect(forecast.every(Number.isFinite)).toBe(true);
    expect(mape(forecast, actual)).toBeLessThan(2);
  });

  it('forecasts a public holiday lower when the history shows holidays low (Whit Monday 2024 in Germany)', () => {
    // Hourly load in UTC, Sundays and German public holidays (Good Friday, Easter Monday, 1 May, Ascension) 300 lower.
    const noise = gaussian(5);
    const start = Date.UTC(2024, 0, 8);
    const end = Date.UTC(2024, 4, 21);
    const holidays = new Set(['2024-03-29', '2024-04-01', '2024-05-01', '2024-05-09', '2024-05-20']);
    const t: number[] = [];
    const y: number[] = [];
    for (let time = start; time < end; time += HOUR) {
      const hour = new Date(time).getUTCHours();
      const off = new Date(time).getUTCDay() === 0 || holidays.has(new Date(time).toISOString().slice(0, 10));
      t.push(time);
      y.push(1000 + 200 * Math.max(0, Math.sin((Math.PI * (hour - 6)) / 14)) - (off ? 300 : 0) + 5 * noise());
    }
    const n = t.length - 24;
    const history = { t: t.slice(0, n), y: y.slice(0, n), stepMinutes: 60 };

    const withHolidays = loadRegressionMember.fit(history, { kind: 'load', country: 'DE' }).predict(24);
    const without = loadRegressionMember.fit(history, { kind: 'load' }).predict(24);

    const actual = y.slice(n);
    expect(mean(without) - mean(withHolidays)).toBeGreaterThan(200);
    expect(mape(withHolidays, actual)).toBeLessThan(3);
  });

  it('needs two weeks and serves load and generic series', () => {
    expect(loadRegressionMember.minHistory(15)).toBe(14 * 96);
    expect(loadRegressionMember.supports('load') && loadRegressionMember.supports('generic') && !loadRegressionMember.supports('solar')).toBe(true);
  });
});

describe('load regression on Taylor (2003) demand data', () => {
  withTaylor('beats seasonal naive day-ahead over the last week', () => {
    const { t, y } = readTaylor();
    const sd = 48;
    const forecast: number[] = [];
    const naive: number[] = [];

    for (let day = 7; day >= 1; day--) {
      const end = y.length - day * sd;
      forecast.push(...loadRegressionMember.fit({ t: t.slice(0, end), y: y.slice(0, end), stepMinutes: 30 }, { kind: 'load', country: 'GB' }).predict(sd));
      naive.push(...y.slice(end - 7 * sd, end - 6 * sd));
    }

    const actual = y.slice(y.length - 7 * sd);
    const ours = mape(forecast, actual);
    const baseline = mape(naive, actual);
    expect(ours).toBeLessThan(baseline);
  });
});

describe('load regression validation folds in one pass', () => {
  /** The folds validateMember would make: history and variables cut at each origin, the horizon's temperature given. */
  function folds(data: { t: number[]; y: number[]; temperature: number[] }, origins: number[], horizon: number, base: FitContext) {
    return origins.map((origin) => ({
      origin,
      history: { t: data.t.slice(0, origin), y: data.y.slice(0, origin), stepMinutes: 60 },
      context: { ...base, history: { temperature_c: data.temperature.slice(0, origin) }, future: { temperature_c: data.temperature.slice(origin, origin + horizon) } },
    }));
  }

  it.each([
    ['with temperature and holidays', { kind: 'load' as const, country: 'DE', timezone: 'Europe/Berlin' }, false],
    ['with gaps in load and temperature', { kind: 'load' as const }, true],
  ])('gives each fold exactly its own fit (%s)', (_, base, gaps) => {
    // Prepare: 70 days hourly, 14 daily origins, temperature withheld from one fold's horizon.
    const data = syntheticLoad(70, Date.UTC(2024, 3, 1));
    if (gaps) for (const i of [100, 101, 102, 500, 900, 1300, 1301]) [data.y[i], data.temperature[i + 7]] = [NaN, NaN];
    const n = data.y.length;
    const series: RegularSeries = { t: data.t, y: data.y, stepMinutes: 60 };
    const origins = Array.from({ length: 14 }, (_, k) => n - (k + 1) * 24);
    const perFold = folds(data, origins, 24, base);
    perFold[3].context.future!.temperature_c = new Array(24).fill(NaN);
    const context: FitContext = { ...base, history: { temperature_c: data.temperature }, future: { temperature_c: [] } };

    // Act
    const together = loadRegressionFolds(series, context, perFold, 24);

    // Assess
    perFold.forEach(({ origin, context: foldContext }, k) => {
      const alone = fitLoadRegression({ t: data.t.slice(0, origin), y: data.y.slice(0, origin), stepMinutes: 60 }, foldContext).predict(24);
      expect(together[k]).toEqual(alone);
    });
  });
});

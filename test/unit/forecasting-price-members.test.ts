/** The epftoolbox naive price member, and LEAR's calibration windows against the span fundamentals cover. */
import { epftoolboxNaiveMember, LEAR_CALIBRATION_WINDOWS_DAYS, priceLearMedianMember, priceLearMember } from '../../shared/domain/forecasting/price';
import { ALL_MEMBERS } from '../../shared/domain/forecasting/members';
import { HOUR_MS, type FitContext, type RegularSeries } from '../../shared/domain/forecasting/types';

/** Monday 2018-01-01 00:00 UTC. */
const MONDAY = Date.UTC(2018, 0, 1);

/** A distinct price for every hour: 100 * day + hour, so a forecast tells which day and hour it copied. */
const labelled = (days: number, start = MONDAY): RegularSeries => ({
  t: Array.from({ length: days * 24 }, (_, i) => start + i * HOUR_MS),
  y: Array.from({ length: days * 24 }, (_, i) => 100 * Math.floor(i / 24) + (i % 24)),
  stepMinutes: 60,
});

describe('epftoolboxNaiveMember (Lago et al. 2021, section 4.3)', () => {
  it('is a registered price member', () => {
    expect(epftoolboxNaiveMember.name).toBe('epftoolbox_naive');
    expect(epftoolboxNaiveMember.supports('price')).toBe(true);
    expect(epftoolboxNaiveMember.supports('load')).toBe(false);
    expect(ALL_MEMBERS).toContain(epftoolboxNaiveMember);
  });

  it('copies the same hour of the day before on Tuesday to Friday, of the week before on Monday and the weekend', () => {
    // Each history ends on a different weekday: 14 days of history end on a Sunday, so day 14 is a Monday.
    for (let days = 14; days < 21; days++) {
      const forecast = epftoolboxNaiveMember.fit(labelled(days), { kind: 'price' }).predict(24);
      const weekday = days % 7; // Monday 0
      const source = weekday >= 1 && weekday <= 4 ? days - 1 : days - 7;
      expect(forecast).toEqual(Array.from({ length: 24 }, (_, h) => 100 * source + h));
    }
  });

  it('carries its own forecasts over a multi-day horizon', () => {
    // History to Sunday (day 13); Monday copies day 7, Tuesday copies that Monday forecast, and so on.
    const week = epftoolboxNaiveMember.fit(labelled(14), { kind: 'price' }).predict(72);
    expect(week.slice(0, 24)).toEqual(week.slice(24, 48));
    expect(week.slice(48, 72)).toEqual(week.slice(0, 24));
    expect(week[0]).toBe(700);
  });

  it('works on local days: in Berlin the Monday starts at 23:00 UTC on Sunday', () => {
    // Winter: Berlin is UTC+1, so local day k starts at 23:00 UTC of day k-1.
    const berlin = labelled(14, MONDAY - HOUR_MS);
    const forecast = epftoolboxNaiveMember.fit(berlin, { kind: 'price', timezone: 'Europe/Berlin' }).predict(24);
    // The grid's day 14 is a local Monday: it copies local day 7, whose hours carry labels 700..723.
    expect(forecast).toEqual(Array.from({ length: 24 }, (_, h) => 700 + h));
  });
});

describe('LEAR calibration windows', () => {
  it('are the ensemble of the issue: 56, 84, 364 and 728 days', () => {
    expect([...LEAR_CALIBRATION_WINDOWS_DAYS]).toEqual([56, 84, 364, 728]);
  });

  it('are cut to the span the exogenous history covers rather than training on filled-in values', () => {
    // Prepare: 120 days of prices moved by a load forecast that is only known from day 70 on.
    const days = 120;
    let state = 11;
    const uniform = () => (state = (state * 16807) % 2147483647) / 2147483647;
    const load = Array.from({ length: (days + 1) * 24 }, () => 100 * uniform());
    const series: RegularSeries = {
      t: Array.from({ length: days * 24 }, (_, i) => MONDAY + i * HOUR_MS),
      y: load.slice(0, days * 24).map((l, i) => 40 + 5 * Math.sin((2 * Math.PI * i) / 24) + 0.3 * l + 3 * uniform()),
      stepMinutes: 60,
    };
    const partial = load.slice(0, days * 24).map((l, i) => (i < 70 * 24 ? NaN : l));
    const fit = (history: number[], windows: number[]) =>
      priceLearMember.fit(series, { kind: 'price', history: { load_forecast: history }, future: { load_forecast: load.slice(days * 24) }, options: { calibrationWindows: windows } }).predict(24);

    // Act: an 84-day window where the load covers 50 days: 43 training days beside their 7 days of lags.
    const cut = fit(partial, [84]);

    // Assess
    expect(cut).toEqual(fit(load.slice(0, days * 24), [43]));
    expect(cut).not.toEqual(fit(load.slice(0, days * 24), [84]));
  });
});

describe('priceLearMedianMember', () => {
  // Prepare: 400 days of prices moved by a load forecast known over history and horizon; the windows that
  // fit in 400 days (less a week of lags) are 56, 84 and 364.
  const days = 400;
  let state = 29;
  const uniform = () => (state = (state * 16807) % 2147483647) / 2147483647;
  const load = Array.from({ length: (days + 1) * 24 }, () => 100 * uniform());
  const series: RegularSeries = {
    t: Array.from({ length: days * 24 }, (_, i) => MONDAY + i * HOUR_MS),
    y: load.slice(0, days * 24).map((l, i) => 40 + 5 * Math.sin((2 * Math.PI * i) / 24) + 0.2 * l + 10 * Math.sin(i / 500) + 4 * uniform()),
    stepMinutes: 60,
  };
  const withLoad: FitContext = { kind: 'price', history: { load_forecast: load.slice(0, days * 24) }, future: { load_forecast: load.slice(days * 24) } };
  const single = (context: FitContext, window: number) => priceLearMember.fit(series, { ...context, options: { calibrationWindows: [window] } }).predict(24);

  it.each([
    ['with', withLoad],
    ['without', { kind: 'price' } as FitContext],
  ])('is the hourly median of price_lear window models, %s fundamentals', (_, context) => {
    const forecasts = [56, 84, 364].map((w) => single(context, w));
    const combined = priceLearMedianMember.fit(series, context).predict(24);
    combined.forEach((v, h) => expect(v).toBeCloseTo([...forecasts.map((f) => f[h])].sort((a, b) => a - b)[1], 10));
    expect(combined).not.toEqual(priceLearMember.fit(series, context).predict(24));
  });

  it('refits when a price inside a window changes (window models are reused only for the same inputs)', () => {
    const short = { ...series, t: series.t.slice(0, 100 * 24), y: series.y.slice(0, 100 * 24) };
    const before = priceLearMedianMember.fit(short, { kind: 'price' }).predict(24);
    const changed = { ...short, y: short.y.map((v, i) => (i === short.y.length - 30 * 24 ? v + 50 : v)) };
    expect(priceLearMedianMember.fit(changed, { kind: 'price' }).predict(24)).not.toEqual(before);
    expect(priceLearMedianMember.fit(short, { kind: 'price' }).predict(24)).toEqual(before);
  });
});

import { Matrix } from 'ml-matrix';
import { larsLassoPath } from '../../../shared/domain/forecasting/lasso';
import { fitLasso, lassoProblem, softThreshold } from '../../helpers/lasso-descent';
import { priceLearMember, priceLearVstMember } from '../../../shared/domain/forecasting/price';
import { asinhTransform, fitInvariantScaler, inverseAsinhTransform, MAD_TO_SD } from '../../../shared/domain/forecasting/price-transforms';
import { forecastSeries, MANY_PRICE_FUNDAMENTALS } from '../../../shared/domain/forecasting/engine';
import { DAY_MS, HOUR_MS, stepsPerDay, type FitContext, type ForecastMember, type RegularSeries } from '../../../shared/domain/forecasting/types';

/** Park-Miller generator and Box-Muller normals: the synthetic series are the same on every run. */
function normals(seed: number): () => number {
  let state = seed;
  const uniform = () => {
    state = (state * 16807) % 2147483647;
    return state / 2147483647;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** Monday 2018-01-01 00:00 UTC. */
const START = Date.UTC(2018, 0, 1);

/** Weekday effects (Monday first), mean zero: what the naive forecast's same-hour-yesterday misses. */
const WEEKDAY_EFFECT = [0, 6, -4, 5, -6, -8, -10].map((v) => v + 17 / 7);

/**
 * price_h(D) = 5 + 0.6 price_h(D-1) + 0.3 price_h(D-7) + 3 sin(2 pi h / 24) + weekday(D) + extra_h(D) + N(0, 1),
 * from Monday 2018-01-01; a mean level of 50.
 */
function syntheticPrices(days: number, seed: number, extra: (day: number, hour: number) => number = () => 0): number[] {
  const noise = normals(seed);
  const y: number[] = [];
  for (let d = 0; d < days; d++) {
    for (let h = 0; h < 24; h++) {
      const hourEffect = 3 * Math.sin((2 * Math.PI * h) / 24) + WEEKDAY_EFFECT[d % 7];
      const lag1 = d >= 1 ? y[(d - 1) * 24 + h] : 50;
      const lag7 = d >= 7 ? y[(d - 7) * 24 + h] : 50;
      y.push(5 + 0.6 * lag1 + 0.3 * lag7 + hourEffect + extra(d, h) + noise());
    }
  }
  return y;
}

const hourly = (y: number[], from = 0, to = y.length): RegularSeries => ({
  t: Array.from({ length: to - from }, (_, i) => START + (from + i) * HOUR_MS),
  y: y.slice(from, to),
  stepMinutes: 60,
});

/** The README's naive forecast: same hour yesterday on Tuesday to Friday, a week earlier on Monday and the weekend. */
function naiveDay(y: number[], day: number): number[] {
  const weekday = new Date(START + day * DAY_MS).getUTCDay();
  const lag = weekday >= 2 && weekday <= 5 ? 1 : 7;
  return y.slice((day - lag) * 24, (day - lag + 1) * 24);
}

const mae = (a: number[], b: number[]) => a.reduce((s, v, i) => s + Math.abs(v - b[i]), 0) / a.length;

describe('the invariant asinh transform (Uniejewski, Weron & Ziel 2018)', () => {
  it('uses the median and the MAD scaled to a normal standard deviation', () => {
    // Prepare: median 3, absolute deviations 2, 1, 0, 1, 97, their median 1.
    const scaler = fitInvariantScaler([1, 2, 3, 4, 100]);

    // Assess
    expect(scaler.median).toBe(3);
    expect(scaler.mad).toBeCloseTo(MAD_TO_SD, 12);
    expect(asinhTransform(3, scaler)).toBe(0);
    expect(asinhTransform(3 + MAD_TO_SD, scaler)).toBeCloseTo(Math.asinh(1), 12);
  });

  it('round-trips negative prices, zero and spikes', () => {
    const scaler = fitInvariantScaler([30, 32, 35, 40, 28, 31]);
    for (const price of [-150, -3.5, 0, 0.01, 31.7, 250, 3000]) {
      expect(inverseAsinhTransform(asinhTransform(price, scaler), scaler)).toBeCloseTo(price, 8);
    }
  });

  it('compresses a spike far more than ordinary prices', () => {
    const scaler = fitInvariantScaler([30, 32, 35, 40, 28, 31]);
    expect(asinhTransform(3000, scaler)).toBeLessThan(8);
    expect(asinhTransform(3000, scaler) / asinhTransform(60, scaler)).toBeLessThan(3);
  });
});

describe('the lasso estimator', () => {
  // Orthogonal design with X'X / n = I: the lasso is the soft threshold of x_j'y / n (Tibshirani 1996, eq. 3).
  const x = new Matrix([
    [1, 1, 1],
    [-1, 1, 1],
    [1, -1, 1],
    [-1, -1, 1],
    [1, 1, -1],
    [-1, 1, -1],
    [1, -1, -1],
    [-1, -1, -1],
  ]);
  const y = [3.1, -0.9, 2.2, -2.0, 2.9, -1.1, 1.8, -2.4];
  const lambda = 0.5;
  const yMean = y.reduce((s, v) => s + v, 0) / y.length;
  const closedForm = [0, 1, 2].map((j) => softThreshold(y.reduce((s, v, i) => s + x.get(i, j) * (v - yMean), 0) / y.length, lambda));

  it('has a known sparse solution here: one strong, one weak, one zero coefficient', () => {
    // x_j'y / n = 2.05, 0.55, 0.15 (mean of y 0.45), thresholded at 0.5.
    expect(closedForm[0]).toBeCloseTo(1.55, 12);
    expect(closedForm[1]).toBeCloseTo(0.05, 12);
    expect(closedForm[2]).toBe(0);
  });

  it('coordinate descent reproduces the soft-threshold solution', () => {
    const fit = fitLasso(x, y, lambda);
    fit.coefficients.forEach((b, j) => expect(b).toBeCloseTo(closedForm[j], 9));
    expect(fit.intercept).toBeCloseTo(yMean, 12);
  });

  it('the LARS path reproduces it at the same lambda, and every knot satisfies the lasso conditions', () => {
    const yc = y.map((v) => v - yMean);
    const problem = lassoProblem(x, yc);
    const path = larsLassoPath(problem, { lambdaMin: lambda });
    const last = path[path.length - 1];
    expect(last.lambda).toBeCloseTo(lambda, 12);
    Array.from(last.beta).forEach((b, j) => expect(b).toBeCloseTo(closedForm[j], 9));
    for (const knot of path) {
      const fitted = new Matrix([Array.from(knot.beta)]).mmul(x.transpose()).to1DArray();
      for (let j = 0; j < 3; j++) {
        const correlation = yc.reduce((s, v, i) => s + x.get(i, j) * (v - fitted[i]), 0) / y.length;
        if (knot.beta[j] !== 0) expect(correlation).toBeCloseTo(knot.lambda * Math.sign(knot.beta[j]), 9);
        else expect(Math.abs(correlation)).toBeLessThanOrEqual(knot.lambda + 1e-9);
      }
    }
  });

  it('LARS and coordinate descent agree on a correlated problem with more features than observations', () => {
    // Prepare: 30 observations, 40 features built from 4 factors, y on three of them.
    const noise = normals(11);
    const factors = Array.from({ length: 30 }, () => [noise(), noise(), noise(), noise()]);
    const wide = new Matrix(30, 40);
    for (let i = 0; i < 30; i++) for (let j = 0; j < 40; j++) wide.set(i, j, factors[i][j % 4] + 0.3 * noise());
    const target = Array.from({ length: 30 }, (_, i) => wide.get(i, 0) - 0.5 * wide.get(i, 5) + 0.2 * noise());
    const means = wide.mean('column');
    const centred = wide.clone().subRowVector(means);
    const tMean = target.reduce((s, v) => s + v, 0) / 30;

    // Act
    const path = larsLassoPath(lassoProblem(centred, target.map((v) => v - tMean)), { lambdaMin: 0.05 });
    const descent = fitLasso(wide, target, 0.05, { tolerance: 1e-10, maxSweeps: 100_000 });

    // Assess
    const lars = path[path.length - 1].beta;
    descent.coefficients.forEach((b, j) => expect(b).toBeCloseTo(lars[j], 6));
    expect(descent.coefficients.filter((b) => b === 0).length).toBeGreaterThan(10);
  });

  it("keep: 'last' returns the whole path's last knot, and paths of other sizes in between leave it unchanged (shared work arrays)", () => {
    // Prepare: a 40-feature problem and a 3-feature one.
    const noise = normals(17);
    const wide = new Matrix(50, 40);
    for (let i = 0; i < 50; i++) for (let j = 0; j < 40; j++) wide.set(i, j, noise() + (j % 5) * 0.1 * noise());
    const centred = wide.clone().subRowVector(wide.mean('column'));
    const raw = Array.from({ length: 50 }, (_, i) => 2 * wide.get(i, 3) - wide.get(i, 17) + 0.5 * noise());
    const mean = raw.reduce((s, v) => s + v, 0) / 50;
    const problem = lassoProblem(centred, raw.map((v) => v - mean));
    const small = lassoProblem(x, y.map((v) => v - yMean));

    // Act
    const path = larsLassoPath(problem, { lambdaMin: 0.02 });
    larsLassoPath(small);
    const [last] = larsLassoPath(problem, { lambdaMin: 0.02, keep: 'last' });
    const knots: number[] = [];
    larsLassoPath(problem, { lambdaMin: 0.02, keep: 'last', onKnot: (knot) => knots.push(knot.df) > 0 });

    // Assess
    const whole = path[path.length - 1];
    expect(last.lambda).toBe(whole.lambda);
    expect(Array.from(last.beta)).toEqual(Array.from(whole.beta));
    expect(last.rss).toBe(whole.rss);
    expect(knots).toEqual(path.map((knot) => knot.df));
  });

  it('keeps the lasso conditions at every knot where a coefficient leaves the path (the factor downdated, not rebuilt)', () => {
    // Prepare: 60 observations of 24 features on 3 factors, so coefficients cross zero on the way down.
    const noise = normals(5);
    const factors = Array.from({ length: 60 }, () => [noise(), noise(), noise()]);
    const x = new Matrix(60, 24);
    for (let i = 0; i < 60; i++) for (let j = 0; j < 24; j++) x.set(i, j, factors[i][j % 3] + 0.2 * noise());
    const centred = x.clone().subRowVector(x.mean('column'));
    const raw = Array.from({ length: 60 }, (_, i) => x.get(i, 0) - x.get(i, 4) + 0.5 * x.get(i, 8) + 0.3 * noise());
    const mean = raw.reduce((s, v) => s + v, 0) / 60;
    const yc = raw.map((v) => v - mean);

    // Act
    const path = larsLassoPath(lassoProblem(centred, yc), { lambdaMin: 1e-3 });

    // Assess: some knot drops a coefficient, and every knot is a lasso solution at its lambda.
    expect(path.some((knot, k) => k > 0 && Array.from(knot.beta).some((b, j) => b === 0 && path[k - 1].beta[j] !== 0))).toBe(true);
    for (const knot of path) {
      const fitted = centred.mmul(Matrix.columnVector(Array.from(knot.beta))).to1DArray();
      for (let j = 0; j < 24; j++) {
        const correlation = yc.reduce((s, v, i) => s + centred.get(i, j) * (v - fitted[i]), 0) / 60;
        if (knot.beta[j] !== 0) expect(correlation).toBeCloseTo(knot.lambda * Math.sign(knot.beta[j]), 8);
        else expect(Math.abs(correlation)).toBeLessThanOrEqual(knot.lambda + 1e-8);
      }
    }
  });
});

describe('priceLearMember', () => {
  it('is the price member', () => {
    expect(priceLearMember.name).toBe('price_lear');
    expect(priceLearMember.supports('price')).toBe(true);
    expect(priceLearMember.supports('load')).toBe(false);
    expect(priceLearMember.minHistory(60)).toBe(36 * 24);
    expect(priceLearMember.minHistory(15)).toBe(36 * 96);
  });

  it('beats the naive forecast clearly on prices built from lagged relations', () => {
    // Prepare: 160 days; day-ahead forecasts of the last 28, each from the history before it.
    const y = syntheticPrices(160, 7);
    const lear: number[] = [];
    const naive: number[] = [];
    const actual: number[] = [];

    // Act
    for (let day = 132; day < 160; day++) {
      const model = priceLearMember.fit(hourly(y, 0, day * 24), { kind: 'price', options: { calibrationWindows: [56] } });
      lear.push(...model.predict(24));
      naive.push(...naiveDay(y, day));
      actual.push(...y.slice(day * 24, (day + 1) * 24));
    }

    // Assess: the noise alone gives an MAE of 0.80 (sqrt(2 / pi)); the naive forecast misses the weekday effects.
    const learMae = mae(lear, actual);
    const naiveMae = mae(naive, actual);
    expect(learMae).toBeLessThan(1.2);
    expect(learMae / naiveMae).toBeLessThan(0.5);
  });

  it('forecasts a week recursively, its first day as the day-ahead forecast, better than repeating the last day', () => {
    // Prepare: 127 days; the model sees 120.
    const y = syntheticPrices(127, 3);
    const model = priceLearMember.fit(hourly(y, 0, 120 * 24), { kind: 'price', options: { calibrationWindows: [56] } });

    // Act
    const week = model.predict(168);
    const day = model.predict(24);

    // Assess
    expect(week).toHaveLength(168);
    expect(week.slice(0, 24)).toEqual(day);
    const actual = y.slice(120 * 24);
    const lastDayRepeated = Array.from({ length: 168 }, (_, i) => y[119 * 24 + (i % 24)]);
    expect(mae(week, actual)).toBeLessThan(1.6);
    expect(mae(week, actual)).toBeLessThan(0.5 * mae(lastDayRepeated, actual));
  });

  it('uses exogenous forecasts given over history and horizon', () => {
    // Prepare: a price that moves with a known "load forecast" of the same day.
    const days = 120;
    const noise = normals(5);
    const load = Array.from({ length: days * 24 }, () => 10 * noise());
    const y = syntheticPrices(days + 1, 9, (d, h) => (d < days ? 0.8 * load[d * 24 + h] : 0));
    const futureLoad = Array.from({ length: 24 }, () => 10 * noise());
    // The last day's actual prices with the future load's effect.
    const actual = y.slice(days * 24).map((v, h) => v + 0.8 * futureLoad[h]);
    const context = (withLoad: boolean): FitContext => ({
      kind: 'price',
      history: withLoad ? { load_forecast: load } : undefined,
      future: withLoad ? { load_forecast: futureLoad } : undefined,
      options: { calibrationWindows: [84] },
    });

    // Act
    const withLoad = priceLearMember.fit(hourly(y, 0, days * 24), context(true)).predict(24);
    const without = priceLearMember.fit(hourly(y, 0, days * 24), context(false)).predict(24);

    // Assess: the load's effect (sd 8) is mostly explained with the variable, not without it.
    expect(mae(withLoad, actual)).toBeLessThan(0.5 * mae(without, actual));
  });

  it('repeats each hour across its steps for a sub-hourly series', () => {
    const y = syntheticPrices(100, 13);
    const quarterly: RegularSeries = {
      t: Array.from({ length: y.length * 4 }, (_, i) => START + i * 15 * 60_000),
      y: y.flatMap((v) => [v, v, v, v]),
      stepMinutes: 15,
    };
    const options = { calibrationWindows: [56] };

    const fromHours = priceLearMember.fit(hourly(y), { kind: 'price', options }).predict(24);
    const fromQuarters = priceLearMember.fit(quarterly, { kind: 'price', options }).predict(96);

    fromQuarters.forEach((v, i) => expect(v).toBeCloseTo(fromHours[Math.floor(i / 4)], 6));
  });

  it('works in local hours of a DST zone: the spring-forward Sunday has 23 steps, 02:00 skipped', () => {
    // Prepare: the same prices labelled in Berlin time (history all in winter time, to Saturday 2018-03-24
    // 24:00) and as UTC: the local grids agree, so the forecasts must too, less the missing hour.
    const y = syntheticPrices(83, 17);
    const inBerlin: RegularSeries = { t: y.map((_, i) => Date.UTC(2017, 11, 31, 23) + i * HOUR_MS), y, stepMinutes: 60 };
    const options = { calibrationWindows: [56] };

    // Act
    const berlin = priceLearMember.fit(inBerlin, { kind: 'price', timezone: 'Europe/Berlin', options }).predict(23);
    const utc = priceLearMember.fit(hourly(y), { kind: 'price', options }).predict(24);

    // Assess
    expect(berlin).toEqual([...utc.slice(0, 2), ...utc.slice(3)]);
  });

  it("gives the same forecast in a zone after other zones' requests have evicted its memoised offsets", () => {
    const y = syntheticPrices(83, 19);
    const inBerlin: RegularSeries = { t: y.map((_, i) => Date.UTC(2017, 11, 31, 23) + i * HOUR_MS), y, stepMinutes: 60 };
    const options = { calibrationWindows: [56], lambdaRule: 'aic' };
    const first = priceLearMember.fit(inBerlin, { kind: 'price', timezone: 'Europe/Berlin', options }).predict(23);

    // Ten other zones, each fitted on a series of its own (no window model to reuse), push Berlin's offsets out.
    for (const [k, zone] of ['Europe/Paris', 'Europe/Madrid', 'Europe/Oslo', 'Europe/Rome', 'Europe/Vienna', 'Europe/Warsaw', 'Europe/Prague', 'Europe/Athens', 'America/New_York', 'Asia/Tokyo'].entries()) {
      const other = syntheticPrices(60, 40 + k);
      priceLearMember.fit({ t: other.map((_, i) => Date.UTC(2018, 0, 1) + i * HOUR_MS), y: other, stepMinutes: 60 }, { kind: 'price', timezone: zone, options: { calibrationWindows: [56] } }).predict(24);
    }
    const again = priceLearMember.fit(inBerlin, { kind: 'price', timezone: 'Europe/Berlin', options }).predict(23);

    expect(again).toEqual(first);
  });

  describe('the duck-curve feature', () => {
    // Prepare: sunny days push midday prices down; the solar forecast (clear-sky shape times a daily
    // cloudiness) is given over history and horizon.
    const days = 120;
    const noise = normals(21);
    const cloudiness = Array.from({ length: days + 1 }, () => 0.2 + 0.8 * Math.abs(noise()) / 2.5);
    const shape = (h: number) => Math.max(0, Math.sin((Math.PI * (h - 6)) / 12));
    const solar = Array.from({ length: (days + 1) * 24 }, (_, i) => 1000 * shape(i % 24) * Math.min(cloudiness[Math.floor(i / 24)], 1));
    const y = syntheticPrices(days, 23, (d, h) => -0.02 * solar[d * 24 + h]);
    const context = (options?: Record<string, unknown>): FitContext => ({
      kind: 'price',
      history: { solar_forecast: solar.slice(0, days * 24) },
      future: { solar_forecast: solar.slice(days * 24) },
      options: { calibrationWindows: [84], ...options },
    });
    const forecast = (options?: Record<string, unknown>) => priceLearMember.fit(hourly(y), context(options)).predict(24);
    const night = [0, 1, 2, 3, 4, 5, 18, 19, 20, 21, 22, 23];
    const midday = [10, 11, 12, 13];

    it('changes nothing unless asked', () => {
      expect(forecast({ duckCurve: false })).toEqual(forecast());
    });

    it('changes the midday profile and leaves the night hours alone', () => {
      const plain = forecast();
      const duck = forecast({ duckCurve: true });

      for (const h of night) expect(duck[h]).toBe(plain[h]);
      const middayChange = midday.reduce((s, h) => s + Math.abs(duck[h] - plain[h]), 0) / midday.length;
      expect(middayChange).toBeGreaterThan(0.01);
    });

    it('falls back to the clear-sky shape without a solar forecast, again only in daylight', () => {
      const bare = (options?: Record<string, unknown>) =>
        priceLearMember.fit(hourly(y), { kind: 'price', latitude: 45, longitude: 0, options: { calibrationWindows: [84], ...options } }).predict(24);
      const plain = bare();
      const duck = bare({ duckCurve: true });

      // At 45 N in January-May the sun is down from 19:00 to 04:00 UTC.
      for (const h of [0, 1, 2, 3, 20, 21, 22, 23]) expect(duck[h]).toBe(plain[h]);
      expect(duck).not.toEqual(plain);
    });
  });
});

describe('the engine on prices', () => {
  const counted = () => {
    const member: ForecastMember & { fits: number } = {
      name: 'counting_naive',
      fits: 0,
      supports: (kind) => kind === 'price',
      minHistory: (stepMinutes) => 8 * stepsPerDay(stepMinutes),
      fit: (history) => {
        member.fits++;
        return { predict: (steps) => history.y.slice(-steps) };
      },
    };
    return member;
  };

  it('validates on 14 daily folds and shrinks toward LEAR, which carries a forecast it is far better at', () => {
    // Prepare: a member that counts its fits, beside LEAR, on 64 days.
    const y = syntheticPrices(64, 11);
    const counting = counted();

    // Act
    const result = forecastSeries(hourly(y), { horizonSteps: 24, coverage: 0.9, context: { kind: 'price', options: { calibrationWindows: [28] } }, members: [counting, priceLearMember] });

    // Assess: one fit per fold and one for the forecast; one set of weights for the day, nearly all LEAR's.
    expect(counting.fits).toBe(14 + 1);
    expect(result.combination).toHaveLength(1);
    expect(result.weights.price_lear).toBeGreaterThan(0.9);
  });

  it('with fundamentals, validates on 7 folds, too few to overturn LEAR: it carries the forecast alone', () => {
    // Prepare: the same, with a load forecast over the history and the horizon.
    const y = syntheticPrices(64, 11);
    const load = y.map((_, i) => 1000 + 200 * Math.sin((2 * Math.PI * i) / 24));
    const counting = counted();
    const context = { kind: 'price' as const, options: { calibrationWindows: [28] }, history: { load_forecast: load }, future: { load_forecast: load.slice(0, 24) } };

    // Act
    const result = forecastSeries(hourly(y), { horizonSteps: 24, coverage: 0.9, context, members: [counting, priceLearMember] });

    // Assess
    expect(counting.fits).toBe(7 + 1);
    expect(result.weights.price_lear).toBe(1);
  });

  it('anchors on LEAR averaged over transforms where that member takes part', () => {
    const y = syntheticPrices(64, 11);
    const load = y.map((_, i) => 1000 + 200 * Math.sin((2 * Math.PI * i) / 24));
    const context = { kind: 'price' as const, options: { calibrationWindows: [28] }, history: { load_forecast: load }, future: { load_forecast: load.slice(0, 24) } };

    const result = forecastSeries(hourly(y), { horizonSteps: 24, coverage: 0.9, context, members: [counted(), priceLearMember, priceLearVstMember] });

    expect(result.weights.price_lear_vst).toBe(1);
    expect(result.weights.price_lear ?? 0).toBe(0);
  });

  it('with three fundamentals or more, validates on 5 folds (each fold is a LEAR fit on 72 more features)', () => {
    const y = syntheticPrices(64, 11);
    const column = (phase: number) => y.map((_, i) => 1000 + 200 * Math.sin((2 * Math.PI * i) / 24 + phase));
    const counting = counted();
    const history = { load_forecast: column(0), wind_forecast: column(1), solar_forecast: column(2) };
    const context = { kind: 'price' as const, options: { calibrationWindows: [28] }, history, future: Object.fromEntries(Object.entries(history).map(([name, values]) => [name, values.slice(0, 24)])) };

    const result = forecastSeries(hourly(y), { horizonSteps: 24, coverage: 0.9, context, members: [counting, priceLearMember] });

    expect(MANY_PRICE_FUNDAMENTALS).toBe(3);
    expect(counting.fits).toBe(5 + 1);
    expect(result.weights.price_lear).toBe(1);
  });

  it('anchors on LEAR over both transforms with four fundamentals, the most a request takes, as with fewer', () => {
    const y = syntheticPrices(64, 11);
    const column = (phase: number) => y.map((_, i) => 1000 + 200 * Math.sin((2 * Math.PI * i) / 24 + phase));
    const names = ['load_forecast', 'wind_forecast', 'solar_forecast', 'residual_load_forecast'];
    const exogenous = Object.fromEntries(names.map((name, k) => [name, column(k)]));
    const context = {
      kind: 'price' as const,
      options: { calibrationWindows: [28] },
      history: exogenous,
      future: Object.fromEntries(Object.entries(exogenous).map(([name, values]) => [name, values.slice(0, 24)])),
    };

    const four = forecastSeries(hourly(y), { horizonSteps: 24, coverage: 0.9, context, members: [counted(), priceLearMember, priceLearVstMember] });

    expect(four.weights.price_lear_vst).toBe(1);
    expect(Object.keys(four.validation)).toEqual(expect.arrayContaining(['price_lear', 'price_lear_vst']));
  });
});

/** POST /api/price-forecast with day-ahead fundamentals (ARCHITECTURE 9) over HTTP against the local runtime. */
import { call, registerKey, useRuntime } from '../helpers/runtime';

const HOUR = 3_600_000;
const DAYS = 70;
/** The last history hour; the horizon is the next 24. */
const END = Date.UTC(2026, 2, 31, 23);

/** Park-Miller uniforms: the same series on every run. */
function uniforms(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 16807) % 2147483647;
    return state / 2147483647;
  };
}

/**
 * A market whose price follows its residual load: load with a daily shape and random daily swings, wind
 * random by day, price = 20 + 0.002 (load - wind) + noise. Only the fundamentals know the horizon's swings.
 */
function market() {
  const random = uniforms(7);
  const rows: { t: number; load: number; wind: number; price: number }[] = [];
  let dayLoad = 0;
  let dayWind = 0;
  for (let i = (DAYS + 1) * 24 - 1; i >= 0; i--) {
    const t = END + 24 * HOUR - i * HOUR;
    const h = new Date(t).getUTCHours();
    if (h === 0) {
      dayLoad = 4000 * (random() - 0.5);
      dayWind = 6000 * random();
    }
    const load = 30_000 + 6000 * Math.sin((Math.PI * (h - 6)) / 12) + dayLoad;
    const wind = dayWind * (0.8 + 0.4 * random());
    rows.push({ t, load: Math.round(load), wind: Math.round(wind), price: Math.round((20 + 0.002 * (load - wind) + random()) * 100) / 100 });
  }
  return rows;
}

const ROWS = market();
const history = ROWS.filter((r) => r.t <= END);
const prices = history.map((r) => ({ timestamp: new Date(r.t).toISOString(), price: r.price, currency: 'EUR' }));
const fundamentals = (rows = ROWS) => rows.map((r) => ({ timestamp: new Date(r.t).toISOString(), load_forecast: r.load, wind_forecast: r.wind }));
const request = (extra: Record<string, unknown>) => ({ historical_prices: prices, market: 'test', forecast_horizon: 24, ...extra });
const mae = (forecast: { timestamp: string; price: number }[]) => {
  const actual = new Map(ROWS.map((r) => [new Date(r.t).toISOString(), r.price]));
  return forecast.reduce((s, p) => s + Math.abs(p.price - (actual.get(p.timestamp) as number)), 0) / forecast.length;
};

describe('POST /api/price-forecast with fundamentals', () => {
  const runtime = useRuntime();

  it('uses the fundamentals as regressors, says so, and forecasts better than without them', async () => {
    const { key } = await registerKey(runtime());
    const withThem = await call(runtime(), 'POST', '/api/price-forecast', { key, json: request({ include_fundamentals: true, renewable_penetration: true, fundamentals: fundamentals() }) });
    const without = await call(runtime(), 'POST', '/api/price-forecast', { key, json: request({ renewable_penetration: true }) });
    expect(withThem.status).toBe(200);
    expect(without.status).toBe(200);

    expect(withThem.body.fundamentals_used).toEqual(['load_forecast', 'wind_forecast']);
    expect(withThem.body.unused_inputs).toEqual([]);
    expect(withThem.body.market_insights.renewable_impact).toMatch(/wind_forecast \(regressor\)/);
    expect(withThem.body.price_forecast).toHaveLength(24);
    expect(Object.keys(withThem.body.market_insights)).toEqual(expect.arrayContaining(['peak_price_time', 'expected_volatility', 'renewable_impact']));

    expect(without.body.fundamentals_used).toEqual([]);
    expect(without.body.unused_inputs).toEqual([expect.stringMatching(/^renewable_penetration: /)]);
    expect(without.body.market_insights.renewable_impact).toMatch(/renewable_penetration unused/);

    // The horizon's daily swings are only in the fundamentals.
    expect(mae(withThem.body.price_forecast)).toBeLessThan(0.6 * mae(without.body.price_forecast));
  });

  it('takes four fundamentals, the most it accepts, and uses them all', async () => {
    const { key } = await registerKey(runtime());
    const four = fundamentals().map((row, i) => ({ ...row, solar_forecast: Math.max(0, Math.round(3000 * Math.sin((Math.PI * ((i % 24) - 6)) / 12))), residual_load_forecast: row.load_forecast - row.wind_forecast }));
    const r = await call(runtime(), 'POST', '/api/price-forecast', { key, json: request({ include_fundamentals: true, fundamentals: four }) });
    expect(r.status).toBe(200);
    expect(r.body.fundamentals_used).toEqual(['load_forecast', 'wind_forecast', 'solar_forecast', 'residual_load_forecast']);
    expect(r.body.price_forecast).toHaveLength(24);
    expect(r.body.price_forecast.every((p: { price: number }) => Number.isFinite(p.price))).toBe(true);
  });

  it('reports include_fundamentals without fundamentals as unused', async () => {
    const { key } = await registerKey(runtime());
    const r = await call(runtime(), 'POST', '/api/price-forecast', { key, json: request({ include_fundamentals: true }) });
    expect(r.status).toBe(200);
    expect(r.body.fundamentals_used).toEqual([]);
    expect(r.body.unused_inputs).toEqual([expect.stringMatching(/^include_fundamentals: no fundamentals were sent/)]);
  });

  it('answers 400 for missing horizon rows, more than 4 columns and non-numeric values, without consuming a forecast', async () => {
    const { key } = await registerKey(runtime());
    const post = (rows: unknown[]) => call(runtime(), 'POST', '/api/price-forecast', { key, json: request({ include_fundamentals: true, fundamentals: rows }) });

    const short = await post(fundamentals(ROWS.slice(0, -3)));
    expect(short.status).toBe(400);
    expect(short.body.error).toMatch(/fundamentals miss 3 of the 24 horizon hours for load_forecast \(first 2026-04-01T21:00:00\.000Z\)/);

    const wide = fundamentals().map((row) => ({ ...row, solar_forecast: 0, hydro_forecast: 1, demand_forecast: 2 }));
    const tooWide = await post(wide);
    expect(tooWide.status).toBe(400);
    expect(tooWide.body.error).toMatch(/^Invalid request: fundamentals has 5 columns .*at most 4/);

    const text = fundamentals().map((row, i) => (i === 5 ? { ...row, load_forecast: 'high' } : row));
    const notNumeric = await post(text);
    expect(notNumeric.status).toBe(400);
    expect(notNumeric.body.error).toBe('Invalid request: fundamentals.5.load_forecast must be a number');

    const tooShortHistory = await post(fundamentals(ROWS.slice(-24 * 10)));
    expect(tooShortHistory.status).toBe(400);
    expect(tooShortHistory.body.error).toMatch(/fundamentals cover 9 days of the price history for load_forecast/);

    expect((await call(runtime(), 'GET', '/api/usage', { key })).body.usage.forecasts).toBe(0);
  });
});

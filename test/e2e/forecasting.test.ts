/** The forecasting endpoints over HTTP against the local runtime. */
import { call, registerKey, uniqueEmail, useRuntime } from '../helpers/runtime';
import { solarPosition } from '../../shared/domain/weather/solar-position';

const HOUR = 3_600_000;
const BERLIN = { latitude: 52.52, longitude: 13.405 };
const END = Date.UTC(2026, 5, 30, 23);

/** Hourly solar power (kW) at Berlin: capacity times the sine of the sun's elevation at mid-hour, with a daily clearness. */
function solarHistory(days: number, end = END): { t: number; kw: number }[] {
  const out = [];
  for (let i = days * 24 - 1; i >= 0; i--) {
    const t = end - i * HOUR;
    const day = Math.floor(t / 86_400_000);
    const clearness = 0.6 + 0.4 * Math.abs(Math.sin(day * 1.7));
    const elevation = solarPosition(new Date(t + HOUR / 2), BERLIN.latitude, BERLIN.longitude).elevationDeg;
    out.push({ t, kw: elevation > 0 ? Math.round(5 * Math.sin((elevation * Math.PI) / 180) * clearness * 1000) / 1000 : 0 });
  }
  return out;
}

const body = (history: { t: number; kw: number }[], horizon = 24) => ({
  historical_data: history.map((p) => ({ timestamp: new Date(p.t).toISOString(), value: p.kw, unit: 'kW' })),
  forecast_config: { horizon, model_type: 'ensemble', confidence_interval: 0.9, weather_integration: false, seasonal_adjustment: true },
});

describe('POST /forecast', () => {
  const runtime = useRuntime();

  it.each(['/forecast', '/api/generate-forecast'])('forecasts the next day of a solar series on %s, zero at night, inside its interval', async (path) => {
    const { key } = await registerKey(runtime());
    const history = solarHistory(14);
    const r = await call(runtime(), 'POST', path, { key, json: body(history) });
    expect(r.status).toBe(200);
    const forecast = r.body.forecast as { timestamp: string; value: number; confidence_lower: number; confidence_upper: number; unit: string }[];
    expect(forecast).toHaveLength(24);
    forecast.forEach((p, i) => {
      expect(Date.parse(p.timestamp)).toBe(END + (i + 1) * HOUR);
      expect(p.confidence_lower).toBeLessThanOrEqual(p.value);
      expect(p.value).toBeLessThanOrEqual(p.confidence_upper);
      expect(p.unit).toBe('kW');
    });
    const night = forecast.filter((p) => solarPosition(new Date(Date.parse(p.timestamp) + HOUR / 2), BERLIN.latitude, BERLIN.longitude).elevationDeg < -2);
    expect(night.length).toBeGreaterThan(3);
    for (const p of night) expect(p.value).toBe(0);
    expect(Math.max(...forecast.map((p) => p.value))).toBeGreaterThan(2);
    expect(r.body.model_performance).toMatchObject({ accuracy_metrics: { rmse: expect.any(Number), r_squared: expect.any(Number) }, model_used: expect.any(String), training_duration: expect.stringMatching(/ s$/) });
    expect(r.body.actionable_insights[0]).toMatch(/^Peak of /);
  });

  it('says what to fix when the input cannot be forecast', async () => {
    const { key } = await registerKey(runtime());
    expect(await call(runtime(), 'POST', '/forecast', { key, json: body([]) })).toMatchObject({ status: 400, body: { status: 'error' } });
    expect(await call(runtime(), 'POST', '/forecast', { key, json: body(solarHistory(1)) })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/too short/i) } });
    const duplicated = solarHistory(3);
    duplicated.splice(10, 0, duplicated[9]);
    expect(await call(runtime(), 'POST', '/forecast', { key, json: body(duplicated) })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/duplicate/i) } });
    expect(await call(runtime(), 'POST', '/forecast', { key, json: body(solarHistory(3), 500) })).toMatchObject({ status: 400, body: { error: 'Invalid request: forecast_config.horizon must be at most 168' } });
    expect((await call(runtime(), 'GET', '/api/usage', { key })).body.usage.forecasts).toBe(0);
  });

  it('consumes one forecast a request and refuses the sixth of a free month', async () => {
    const { key } = await registerKey(runtime());
    const request = body(solarHistory(7));
    for (let i = 0; i < 5; i++) expect((await call(runtime(), 'POST', '/forecast', { key, json: request })).status).toBe(200);
    const refused = await call(runtime(), 'POST', '/forecast', { key, json: request });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'TIER_LIMIT_EXCEEDED', details: { current_tier: 'free', limit: 5, used: 5 } });
  });

  it("treats the country's public holidays like Sundays: a US office load forecast for Christmas Day, from the country or the location", async () => {
    // Prepare: hourly office load, 20 weeks to Christmas Eve 2026 (Thursday), a working-day profile on weekdays and
    // a flat base at weekends and on the US public holidays in the history (Labor Day, Thanksgiving).
    const { key } = await registerKey(runtime());
    const end = Date.UTC(2026, 11, 24, 23);
    const holidays = new Set(['2026-09-07', '2026-11-26']);
    const history = Array.from({ length: 20 * 7 * 24 }, (_, i) => {
      const t = end - (20 * 7 * 24 - 1 - i) * HOUR;
      const d = new Date(t);
      const off = d.getUTCDay() === 0 || d.getUTCDay() === 6 || holidays.has(d.toISOString().slice(0, 10));
      const h = d.getUTCHours();
      return { t, kw: off ? 20 : 20 + (h >= 8 && h < 18 ? 60 : 0) + ((i * 7919) % 13) / 13 };
    });
    const ask = (config: Record<string, unknown>) =>
      call(runtime(), 'POST', '/forecast', { key, json: { ...body(history), forecast_config: { ...body(history).forecast_config, series_type: 'load', ...config } } });
    const middayMean = (r: { body: { forecast: { value: number }[] } }) => r.body.forecast.slice(9, 17).reduce((sum, p) => sum + p.value, 0) / 8;

    // Act
    const [plain, withCountry, withLocation, unknown] = await Promise.all([
      ask({ timezone: 'UTC' }),
      ask({ timezone: 'UTC', country: 'us' }),
      ask({ location: 'Chicago, US', timezone: 'UTC' }),
      ask({ country: 'XX' }),
    ]);

    // Assess: without holidays Friday 25 December looks like a working day (80 kW at midday); with them, the
    // holiday-aware members alone (mstl_ets and load_regression, each lifting it part of the way to the 20 kW of
    // a Sunday, by what two holidays in the history teach) decide it.
    expect([plain.status, withCountry.status, withLocation.status]).toEqual([200, 200, 200]);
    expect(middayMean(plain)).toBeGreaterThan(70);
    expect(middayMean(withCountry)).toBeLessThan(middayMean(plain) - 20);
    expect(middayMean(withLocation)).toBeCloseTo(middayMean(withCountry), 6);
    expect(unknown).toMatchObject({ status: 400, body: { error: expect.stringContaining('forecast_config.country XX is not a country') } });
  });
});

describe('POST /api/price-forecast', () => {
  const runtime = useRuntime();

  it('forecasts hourly prices with intervals and factors read from the data', async () => {
    const { key } = await registerKey(runtime());
    const prices = [];
    for (let i = 21 * 24 - 1; i >= 0; i--) {
      const t = END - i * HOUR;
      const h = new Date(t).getUTCHours();
      prices.push({ timestamp: new Date(t).toISOString(), price: 70 + 30 * Math.exp(-(((h - 18) / 2.5) ** 2)) - 20 * Math.exp(-(((h - 12) / 2.5) ** 2)) + (i % 7), currency: 'EUR' });
    }
    const r = await call(runtime(), 'POST', '/api/price-forecast', { key, json: { historical_prices: prices, market: 'DE-LU', forecast_horizon: 24, duck_curve_adjustment: true } });
    expect(r.status).toBe(200);
    expect(r.body.price_forecast).toHaveLength(24);
    for (const p of r.body.price_forecast) {
      expect(p.confidence_interval[0]).toBeLessThanOrEqual(p.price);
      expect(p.price).toBeLessThanOrEqual(p.confidence_interval[1]);
      expect(p.currency).toBe('EUR');
      expect(p.market_factors.length).toBeGreaterThan(0);
    }
    const peak = r.body.price_forecast.reduce((a: { price: number }, b: { price: number }) => (b.price > a.price ? b : a));
    expect(new Date(peak.timestamp).getUTCHours()).toBeGreaterThanOrEqual(16);
    expect(r.body.market_insights.peak_price_time).toBe(peak.timestamp);
    expect(r.body.market_insights.renewable_impact).toMatch(/solar supply depresses midday prices/);
  });
});

describe('POST /v1/freemium-forecast', () => {
  const runtime = useRuntime();
  const csv = (history: { t: number; kw: number }[]) => `timestamp,power_kw\n${history.map((p) => `${new Date(p.t).toISOString()},${p.kw}`).join('\n')}\n`;

  async function freemium(path: string, fields: Record<string, string>, file?: string) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    if (file !== undefined) form.append('file', new Blob([file], { type: 'text/csv' }), 'history.csv');
    const res = await fetch(runtime().url + path, { method: 'POST', body: form });
    return { status: res.status, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
  }

  it.each(['/v1/freemium-forecast', '/api/v1/freemium-forecast'])('answers 24 hourly kWh values with a consistent summary on %s', async (path) => {
    const r = await freemium(path, { email: uniqueEmail(), site_name: 'Roof A', location: 'Berlin' }, csv(solarHistory(60)));
    expect(r.status).toBe(200);
    const fc = r.body.forecast;
    expect(fc).toMatchObject({ site_name: 'Roof A', location: 'Berlin', forecast_hours: 24, manufacturer: expect.any(String), model_type: expect.any(String) });
    const values = fc.forecasts.map((f: { kWh_forecast: number }) => f.kWh_forecast);
    const total = values.reduce((a: number, b: number) => a + b, 0);
    expect(fc.summary.total_kwh_24h).toBeCloseTo(total, 9);
    expect(fc.summary.peak_kwh).toBe(Math.max(...values));
    expect(fc.summary.average_hourly_kwh).toBeCloseTo(total / 24, 9);
    expect(fc.forecasts.map((f: { hour_ahead: number }) => f.hour_ahead)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    // hour_ahead counts from the file's last hour; the answer says how long before the request that was, and warns.
    expect(fc).toMatchObject({ forecast_start: new Date(END + HOUR).toISOString(), data_end: new Date(END).toISOString(), hour_ahead_basis: expect.stringMatching(/^hours after data_end/) });
    expect(fc.data_age_hours).toBeCloseTo((Date.parse(fc.generated_at) - END) / HOUR, 0);
    expect(fc.warnings).toEqual([expect.stringContaining('the whole forecast')]);
    for (const f of fc.forecasts) expect(f.confidence).toBeGreaterThanOrEqual(0);
    for (const f of fc.forecasts) expect(f.confidence).toBeLessThanOrEqual(1);
  });

  it('answers the spec’s messages for a missing file, a bad e-mail and a CSV without a power column', async () => {
    expect(await freemium('/v1/freemium-forecast', { email: uniqueEmail(), site_name: 'x', location: 'Berlin' })).toMatchObject({ status: 400, body: { error: 'CSV file is required' } });
    expect(await freemium('/v1/freemium-forecast', { email: 'not-an-email', site_name: 'x', location: 'Berlin' }, csv(solarHistory(3)))).toMatchObject({ status: 400, body: { error: 'Invalid email address format' } });
    const noPower = `timestamp,temperature\n${solarHistory(3).map((p) => `${new Date(p.t).toISOString()},12.5`).join('\n')}\n`;
    expect(await freemium('/v1/freemium-forecast', { email: uniqueEmail(), site_name: 'x', location: 'Berlin' }, noPower)).toMatchObject({ status: 400, body: { error: 'Invalid CSV Format' } });
  });
});

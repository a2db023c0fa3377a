/** POST /interpolate and /terminal/interpolation over HTTP: fills, options, limits and stored results. */
import { call, registerKey, useRuntime } from '../helpers/runtime';

const HOUR = 3_600_000;
const START = Date.UTC(2024, 5, 1);
const uid = () => Math.random().toString(36).slice(2, 10);
const rows = (values: (number | null)[], start = START, step = HOUR) => values.map((value, i) => ({ timestamp: new Date(start + i * step).toISOString(), value }));
const sine = (n: number) => Array.from({ length: n }, (_, i) => Math.round((50 + 20 * Math.sin((2 * Math.PI * i) / 24)) * 1000) / 1000);
const holes = (values: (number | null)[], at: number[]) => values.map((v, i) => (at.includes(i) ? null : v));
const body = (data: { timestamp: string; value: number | null }[], options: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  type: 'load',
  mode: 'fill_missing_blocks',
  data,
  processing_options: { confidence_threshold: 0, seasonal_adjustment: true, weather_correlation: false, max_gap_hours: 6, ...options },
  ...extra,
});

describe('POST /interpolate', () => {
  const runtime = useRuntime();
  let key: string;
  beforeAll(async () => {
    key = (await registerKey(runtime())).key;
  });
  const post = (json: unknown, k = key) => call(runtime(), 'POST', '/interpolate', { key: k, json });

  it('fills a ramp exactly between its edges and counts what it did', async () => {
    const ramp = Array.from({ length: 48 }, (_, i) => 10 + 2 * i);
    const r = await post(body(rows(holes(ramp, [30, 31, 32]))));
    expect(r.status).toBe(200);
    expect(r.body.cleaned_data.slice(29, 34)).toEqual([
      { timestamp: new Date(START + 29 * HOUR).toISOString(), value: 68, quality: 'original' },
      ...[70, 72, 74].map((value, k) => ({ timestamp: new Date(START + (30 + k) * HOUR).toISOString(), value: expect.closeTo(value, 6), quality: 'interpolated' })),
      { timestamp: new Date(START + 33 * HOUR).toISOString(), value: 76, quality: 'original' },
    ]);
    expect(r.body.processing_stats).toMatchObject({ rows_processed: 48, missing_filled: 3, outliers_detected: 0, quality_improvement: expect.closeTo(3 / 48, 4) });
  });

  it('leaves gaps longer than max_gap_hours null and not interpolated', async () => {
    const input = holes(sine(48), [10, 11, 12, 13, 14, 15, 16, 17, 30]);
    const r = await post(body(rows(input), { max_gap_hours: 6 }));
    expect(r.body.cleaned_data.slice(10, 18).every((row: { value: number | null; quality: string }) => row.value === null && row.quality === 'original')).toBe(true);
    expect(r.body.cleaned_data[30]).toMatchObject({ quality: 'interpolated' });
    expect(r.body.processing_stats).toMatchObject({ missing_filled: 1, left_unfilled: 8 });
  });

  it('replaces an outlier in quality_enhancement mode and flags it', async () => {
    const input: (number | null)[] = sine(72);
    input[40] = 900;
    const r = await post(body(rows(input), {}, { mode: 'quality_enhancement' }));
    expect(r.body.processing_stats.outliers_detected).toBe(1);
    expect(r.body.cleaned_data[40].quality).toBe('interpolated');
    expect(Math.abs(r.body.cleaned_data[40].value - sine(72)[40])).toBeLessThan(5);
  });

  it('flags a stuck value `stale` in quality_enhancement mode and fills it, and leaves it alone otherwise', async () => {
    const truth = sine(72);
    const input: (number | null)[] = truth.slice();
    for (let i = 40; i <= 43; i++) input[i] = truth[39]; // the sensor holds 15:00's value for four hours
    const r = await post(body(rows(input), {}, { mode: 'quality_enhancement' }));
    expect(r.status).toBe(200);
    expect(r.body.cleaned_data.slice(39, 45).map((row: { quality: string }) => row.quality)).toEqual(['original', 'stale', 'stale', 'stale', 'stale', 'original']);
    for (let i = 40; i <= 43; i++) expect(Math.abs(r.body.cleaned_data[i].value - truth[i])).toBeLessThan(Math.abs(truth[39] - truth[i]) / 2 + 0.5);
    expect(r.body.processing_stats).toMatchObject({ stale_values_detected: 4, outliers_detected: 0, missing_filled: 0, quality_improvement: expect.closeTo(4 / 72, 4) });
    const plain = await post(body(rows(input)));
    expect(plain.body.cleaned_data.slice(40, 44).every((row: { quality: string; value: number }) => row.quality === 'original' && row.value === truth[39])).toBe(true);
    expect(plain.body.processing_stats.stale_values_detected).toBe(0);
  });

  it('puts rows on their grid and reports off-grid rows instead of moving them', async () => {
    const data = rows(sine(24));
    data.splice(5, 1); // 05:00 absent
    data.splice(10, 0, { timestamp: new Date(START + 10.5 * HOUR).toISOString(), value: 42 });
    const r = await post(body(data));
    expect(r.body.cleaned_data).toHaveLength(24);
    expect(r.body.cleaned_data[5]).toMatchObject({ quality: 'interpolated' });
    expect(r.body.processing_stats.off_grid_points).toEqual([{ timestamp: new Date(START + 10.5 * HOUR).toISOString(), value: 42 }]);
  });

  it('refuses unordered timestamps, and more rows than the tier cleans at once', async () => {
    const data = rows(sine(10));
    [data[3], data[4]] = [data[4], data[3]];
    expect(await post(body(data))).toMatchObject({ status: 400, body: { error: expect.stringMatching(/must increase strictly/) } });
    const r = await post(body(rows(holes(sine(101), [50]))));
    expect(r).toMatchObject({ status: 413, body: { error: { code: 'TIER_LIMIT_EXCEEDED', details: { current_tier: 'free', limit: 100, used: 101 } } } });
  });

  it('stores the result for /terminal/interpolation, with gap statistics and measured accuracy', async () => {
    const customer_id = `cust-${uid()}`;
    const r = await post(body(rows(holes(sine(96), [20, 21, 50, 51, 52])), {}, { customer_id, site_id: 'roof-a' }));
    expect(r.status).toBe(200);
    const listed = await call(runtime(), 'POST', '/terminal/interpolation', { key, json: { customer_id } });
    expect(listed.body).toMatchObject({ success: true, customer_id, count: 1, interpolation_results: [{ result_id: r.body.result_id, site_id: 'roof-a', gap_statistics: { total_gaps: 2, largest_gap_minutes: 180, average_gap_minutes: 150 } }] });
    const metrics = listed.body.interpolation_results[0].performance_metrics;
    expect(metrics.rmse_kw).toBeGreaterThanOrEqual(0);
    expect(metrics.r2_score).toBeGreaterThan(0.9);
    expect(await call(runtime(), 'POST', '/terminal/interpolation', { key, json: {} })).toMatchObject({ status: 400, body: { message: 'Missing required field: customer_id' } });
    expect(await call(runtime(), 'POST', '/terminal/interpolation', { key, json: { customer_id: `cust-${uid()}` } })).toMatchObject({ status: 404, body: { message: 'No interpolation results found' } });
  });
});

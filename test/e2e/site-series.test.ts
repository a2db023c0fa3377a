/** GET /api/sites/{site_id}/series over HTTP: a stored upload read back on its grid, with gaps and flagged values labelled. */
import { call, registerKey, useRuntime } from '../helpers/runtime';
import { form, postForm, settled } from '../helpers/uploads';

const uid = () => Math.random().toString(36).slice(2, 10);
const START = Date.UTC(2026, 5, 1);
const STEP = 15 * 60_000;
const at = (i: number) => new Date(START + i * STEP).toISOString().replace('.000Z', 'Z');

/**
 * Two days of a load-like 15-minute series (a daily wave and a faster wiggle, so nothing repeats by chance)
 * without rows 40-42, stuck at row 100's value through row 107, and with a spike at row 150.
 */
function csv(): string {
  const lines = ['timestamp,power_kw'];
  for (let i = 0; i < 192; i++) {
    if (i >= 40 && i <= 42) continue;
    const wave = (k: number) => 20 + 8 * Math.sin((2 * Math.PI * k) / 96) + 0.5 * Math.sin(1.7 * k);
    const kw = i === 150 ? 80 : i > 100 && i <= 107 ? wave(100) : wave(i);
    lines.push(`${at(i)},${kw.toFixed(3)}`);
  }
  return lines.join('\n') + '\n';
}

describe('GET /api/sites/{site_id}/series', () => {
  const runtime = useRuntime();
  let key: string;
  const customer = `cust-${uid()}`;
  const site = `site-${uid()}`;
  const series = (query: string, k = key, siteId = site) => call(runtime(), 'GET', `/api/sites/${siteId}/series?customer_id=${customer}${query}`, { key: k });

  beforeAll(async () => {
    key = (await registerKey(runtime())).key;
    const up = await postForm(runtime(), '/upload_train', key, form({ customer_id: customer, site_id: site, region: 'eu-central-1', location: 'Berlin' }, csv()));
    expect(up.status).toBe(200);
    expect(await settled(runtime(), key, up.body.upload_id)).toMatchObject({ status: 'processed', interval_minutes: 15 });
  });

  it('returns the stored series on its grid, with the gap missing and the stuck run and the spike flagged', async () => {
    const usage = async () => (await call(runtime(), 'GET', '/api/usage', { key })).body.usage;
    const before = await usage();

    const res = await series('');

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', customer_id: customer, site_id: site, interval_minutes: 15, start: '2026-06-01T00:00:00.000Z', end: '2026-06-02T23:45:00.000Z', series_kind: 'generic' });
    expect(res.body.counts).toEqual({ original: 181, missing: 3, outlier: 1, stale: 7 });
    const points: { timestamp: string; value: number | null; quality: string }[] = res.body.points;
    expect(points).toHaveLength(192);
    const labelled = (quality: string) => points.flatMap((p, i) => (p.quality === quality ? [i] : []));
    expect(labelled('missing')).toEqual([40, 41, 42]);
    expect(labelled('stale')).toEqual([101, 102, 103, 104, 105, 106, 107]);
    expect(labelled('outlier')).toEqual([150]);
    expect(points[41]).toEqual({ timestamp: '2026-06-01T10:15:00.000Z', value: null, quality: 'missing' });
    // Flagged values keep their stored value: the stuck run's repeats equal its first (genuine) value.
    expect(points[150]).toEqual({ timestamp: '2026-06-02T13:30:00.000Z', value: 80, quality: 'outlier' });
    expect(points.slice(100, 108).map((p) => p.value)).toEqual(new Array(8).fill(points[100].value));
    expect(points[100].quality).toBe('original');
    // A view: no quota is used.
    expect(await usage()).toEqual(before);
  });

  it('shows the steps from start to end, off-grid bounds moved inward onto the grid', async () => {
    const res = await series(`&start=${encodeURIComponent('2026-06-01T10:05:00+00:00')}&end=${at(44)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ start: '2026-06-01T10:15:00.000Z', end: '2026-06-01T11:00:00.000Z', counts: { original: 2, missing: 2, outlier: 0, stale: 0 } });
    expect(res.body.points.map((p: { quality: string }) => p.quality)).toEqual(['missing', 'missing', 'original', 'original']);
  });

  it('answers 400 naming the field for a bad start or end, start after end, or too many points', async () => {
    expect(await series('&start=yesterday')).toMatchObject({ status: 400, body: { status: 'error', error: 'Invalid request: start must be a valid datetime' } });
    expect(await series('&end=2026-06-02')).toMatchObject({ status: 400, body: { error: 'Invalid request: end must be a valid datetime' } });
    expect(await series(`&start=${at(50)}&end=${at(10)}`)).toMatchObject({ status: 400, body: { error: 'Invalid request: start must not be after end' } });
    const long = await series(`&start=2025-01-01T00:00:00Z`);
    expect(long).toMatchObject({ status: 400, body: { error: expect.stringMatching(/spans 49728 steps of 15 minutes; at most 35040 points/) } });
  });

  it("answers 404 as GET /api/sites/{site_id} does for an unknown site and another account's customer", async () => {
    const unknown = await series('', key, 'site-nope');
    expect(unknown).toMatchObject({ status: 404, body: { error: `Site site-nope not found for customer ${customer}` } });
    expect(await call(runtime(), 'GET', `/api/sites/site-nope?customer_id=${customer}`, { key })).toMatchObject({ status: 404, body: { error: unknown.body.error } });
    const other = (await registerKey(runtime())).key;
    expect(await series('', other)).toMatchObject({ status: 404, body: { error: `Site ${site} not found for customer ${customer}` } });
    expect(await call(runtime(), 'GET', `/api/sites/${site}/series?customer_id=cust-nobody`, { key })).toMatchObject({ status: 404, body: { error: `Site ${site} not found for customer cust-nobody` } });
  });
});

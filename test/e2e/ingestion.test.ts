/** Uploads over HTTP -> S3 event -> standardised series -> upload status, against the local runtime. */
import { call, registerKey, useRuntime } from '../helpers/runtime';
import { form, postForm, settled, solarCsv } from '../helpers/uploads';
import { getObjectText, objectExists, putObject } from '../../shared/store/bucket';
import { parseSeries } from '../../shared/domain/ingest';
import { seriesKey } from '../../shared/domain/uploads/object-keys';
import { processUploadedObject } from '../../shared/services/uploads/upload-processing';
import { getUpload, uploadIdOfObject } from '../../shared/store/uploads-repo';
import { getSite } from '../../shared/store/sites-repo';

const uid = () => Math.random().toString(36).slice(2, 10);

const fields = (over: Record<string, string | undefined> = {}) => ({ customer_id: `cust-${uid()}`, site_id: `site-${uid()}`, region: 'eu-central-1', location: 'Berlin', manufacturer: 'SMA', ...over });

describe('uploads', () => {
  const runtime = useRuntime({ env: { TRAINING_MIN_HISTORY_DAYS: '30' } });

  it('stores a training upload at the spec key, processes it, and reports it processed', async () => {
    const { key } = await registerKey(runtime());
    const f = fields();
    const ack = await postForm(runtime(), '/upload_train', key, form(f, solarCsv(48)));
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({ status: 'success', processing_status: 'queued', upload_id: expect.stringMatching(/^upl_/) });
    expect(ack.body.s3_path).toMatch(new RegExp(`^historical/${f.customer_id}/${f.site_id}/eu-central-1/berlin/sma/\\d{8}_\\d{6}_historical\\.csv$`));

    const status = await settled(runtime(), key, ack.body.upload_id);
    expect(status).toMatchObject({ status: 'processed', processing_status: 'processed', rows: 48, rows_rejected: 0, interval_minutes: 60, start: '2026-06-29T00:00:00Z', end: '2026-06-30T23:00:00Z', manufacturer: 'sma' });

    const series = parseSeries(await getObjectText(seriesKey(f.customer_id, f.site_id, '2026-06')));
    expect(series).toHaveLength(48);
    expect(series.find((r) => r.t === Date.UTC(2026, 5, 30, 12))?.power_kw).toBeCloseTo(5 * Math.sin((Math.PI * 8) / 16), 3);
    const site = await getSite(f.customer_id, f.site_id);
    expect(site).toMatchObject({ latitude: expect.closeTo(52.52, 1), timezone: 'Europe/Berlin', coverage: { rows: 48, interval_minutes: 60, gap_count: 0 } });
  });

  it('changes nothing when the same object is delivered twice, and counts replaced intervals of a later upload', async () => {
    const { key } = await registerKey(runtime());
    const f = fields();
    const first = await postForm(runtime(), '/upload_train', key, form(f, solarCsv(24)));
    const done = await settled(runtime(), key, first.body.upload_id);
    await processUploadedObject(first.body.s3_path);
    expect(await call(runtime(), 'GET', `/api/uploads/${first.body.upload_id}`, { key })).toMatchObject({ body: { status: 'processed', updated_at: done.updated_at } });

    const second = await postForm(runtime(), '/upload_train', key, form(f, solarCsv(24, Date.UTC(2026, 5, 30, 23), 2)));
    expect(await settled(runtime(), key, second.body.upload_id)).toMatchObject({ status: 'processed', rows: 24, rows_replaced: 24 });
    const series = parseSeries(await getObjectText(seriesKey(f.customer_id, f.site_id, '2026-06')));
    expect(series).toHaveLength(24);
    expect(series.find((r) => r.t === Date.UTC(2026, 5, 30, 12))?.power_kw).toBeCloseTo(10 * Math.sin((Math.PI * 8) / 16), 3);
  });

  it('answers every upload error of the spec', async () => {
    const { key } = await registerKey(runtime());
    for (const path of ['/upload_train', '/upload_nowcast']) {
      expect(await postForm(runtime(), path, key, form(fields()))).toMatchObject({ status: 400, body: { status: 'error', error: 'CSV file is required' } });
      expect(await postForm(runtime(), path, key, form(fields({ site_id: undefined }), solarCsv(3)))).toMatchObject({ status: 400, body: { error: 'Missing required parameter: site_id' } });
      expect(await postForm(runtime(), path, key, form(fields(), 'foo,bar\nhello,world\n1,2\n'))).toMatchObject({ status: 400, body: { error: 'Invalid CSV format' } });
      expect(await call(runtime(), 'POST', path, { key, json: fields() })).toMatchObject({ status: 400, body: { error: 'Missing required parameter: s3_path' } });
    }
    expect(await call(runtime(), 'GET', '/api/uploads/upl_nope', { key })).toMatchObject({ status: 404, body: { error: 'Upload not found' } });
  });

  it('takes form B from an object of the caller’s and refuses another account’s', async () => {
    const [{ key }, other] = [await registerKey(runtime()), await registerKey(runtime())];
    const f = fields();
    const a = await postForm(runtime(), '/upload_train', key, form(f, solarCsv(24)));
    const b = await call(runtime(), 'POST', '/upload_train', { key, json: { ...f, s3_path: a.body.s3_path } });
    expect(b.body).toMatchObject({ status: 'success', processing_status: 'queued' });
    expect(b.body.s3_path).not.toBe(a.body.s3_path);
    expect(await settled(runtime(), key, b.body.upload_id)).toMatchObject({ status: 'processed', rows: 24 });
    expect(await call(runtime(), 'POST', '/upload_train', { key: other.key, json: { ...fields(), s3_path: a.body.s3_path } })).toMatchObject({ status: 404 });
    expect(await call(runtime(), 'GET', `/api/uploads/${a.body.upload_id}`, { key: other.key })).toMatchObject({ status: 404 });
  });

  it('accepts the platform forms: nowcast data points and a raw historical CSV', async () => {
    const { key } = await registerKey(runtime());
    const points = Array.from({ length: 6 }, (_, i) => ({ timestamp: new Date(Date.UTC(2026, 5, 30, 10 + i)).toISOString(), value: 1500 + i, unit: 'W' }));
    const nowcast = await call(runtime(), 'POST', '/upload_nowcast', { key, json: { parameters: { forecast_window: 24 }, data_points: points } });
    expect(nowcast.body).toMatchObject({ status: 'success', data_points_received: 6, s3_path: expect.stringMatching(/^nowcast\/account-/) });
    expect(await settled(runtime(), key, nowcast.body.upload_id)).toMatchObject({ status: 'processed', rows: 6 });

    const res = await fetch(`${runtime().url}/upload_historical?customer_id=plat-${uid()}&filename=a.csv&manufacturer=SMA&location=Berlin&region=eu-central-1&equipment_type=inverter`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'text/csv' },
      body: solarCsv(24),
    });
    const body = (await res.json()) as { statusCode: number; body: string };
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ statusCode: 200, processing_queue: 'historical-ingestion', estimated_processing_time: expect.stringMatching(/seconds$/) });
    expect(JSON.parse(body.body)).toMatchObject({ status: 'success', processing_status: 'queued' });
  });

  it('processes a file dropped straight into the bucket, and quarantines one it cannot read', async () => {
    const { key } = await registerKey(runtime());
    const customer = `drop-${uid()}`;
    await postForm(runtime(), '/upload_train', key, form(fields({ customer_id: customer }), solarCsv(2)));
    const dropped = `nowcast/${customer}/roof/eu-central-1/berlin/auto/20260630_120000_realtime.csv`;
    await putObject(dropped, solarCsv(12));
    await runtime().s3Events.idle();
    const record = await getUpload((await uploadIdOfObject(dropped))!);
    expect(record).toMatchObject({ source: 'drop_in', status: 'processed', rows: 12, customer_id: customer });
    expect((await call(runtime(), 'GET', `/api/uploads/${record!.upload_id}`, { key })).status).toBe(200);

    const bad = `historical/${customer}/roof/eu-central-1/berlin/auto/20260630_120001_historical.csv`;
    await putObject(bad, 'just some notes\nnothing tabular here\n');
    await runtime().s3Events.idle();
    const failed = await getUpload((await uploadIdOfObject(bad))!);
    expect(failed).toMatchObject({ status: 'failed', reason: expect.stringMatching(/^Invalid CSV format/), quarantine_path: `quarantine/${bad}` });
    expect(await objectExists(`quarantine/${bad}`)).toBe(true);
    expect(await objectExists(bad)).toBe(true);
  });
});

/**
 * Coverage kept as month summaries, against the embedded stand-ins: a nowcast to a site with many months
 * reads only the month it touches, and a site stored before summaries existed gets them once, at its next upload.
 */
import { registerKey, useRuntime } from '../helpers/runtime';
import { form, postForm, settled, solarCsv } from '../helpers/uploads';
import { coverage, partitionByMonth, serialiseSeries, standardiseCsv } from '../../shared/domain/ingest';
import { seriesKey, seriesPrefix } from '../../shared/domain/uploads/object-keys';
import { readSiteSeries } from '../../shared/services/uploads/site-data';
import { putObject } from '../../shared/store/bucket';
import { listMonthSummaries } from '../../shared/store/series-summaries-repo';
import { getSite } from '../../shared/store/sites-repo';
import { Readable } from 'node:stream';

// Every bucket read and listing made by upload processing is recorded here (consumers of `data.ingested`,
// such as the PV refresh, read recent months of their own and are not counted).
const reads: string[] = [];
const listings: string[] = [];
const byProcessing = () => (new Error().stack ?? '').includes('upload-processing');
jest.mock('../../shared/store/bucket', () => {
  const actual = jest.requireActual('../../shared/store/bucket');
  return {
    ...actual,
    getObjectTextIfExists: (key: string) => {
      if (byProcessing()) reads.push(key);
      return actual.getObjectTextIfExists(key);
    },
    getObjectText: (key: string) => {
      if (byProcessing()) reads.push(key);
      return actual.getObjectText(key);
    },
    listKeys: (prefix: string) => {
      if (byProcessing()) listings.push(prefix);
      return actual.listKeys(prefix);
    },
  };
});

const HOUR = 3_600_000;
const uid = () => Math.random().toString(36).slice(2, 10);
const MONTHS = 24;

describe('site coverage from month summaries', () => {
  // Processing on the test's own thread, where the bucket module above is the one it calls.
  const runtime = useRuntime({ env: { LOCAL_WORKER_THREADS: '0' } });

  it('builds the summaries of a site stored before them once, then reads only the touched month per nowcast', async () => {
    // Prepare: two years of hourly history written as monthly objects, as a site stored before summaries.
    const { key } = await registerKey(runtime());
    const site = { customer_id: `cust-${uid()}`, site_id: `site-${uid()}`, region: 'eu-central-1', location: 'Berlin' };
    const historyEnd = Date.UTC(2026, 5, 20, 23);
    const history = (await standardiseCsv(Readable.from([solarCsv(MONTHS * 730, historyEnd)]), {})).rows;
    const months = partitionByMonth(history);
    expect(months.size).toBe(MONTHS + 1);
    for (const [month, rows] of months) await putObject(seriesKey(site.customer_id, site.site_id, month), serialiseSeries(rows));
    const prefix = seriesPrefix(site.customer_id, site.site_id);
    const seriesReads = () => reads.filter((k) => k.startsWith(prefix));
    const seriesListings = () => listings.filter((p) => p === prefix);

    // Act: the first nowcast after the change (3 hours, in the last month).
    const first = await postForm(runtime(), '/upload_nowcast', key, form(site, solarCsv(3, historyEnd + 3 * HOUR)));
    expect(await settled(runtime(), key, first.body.upload_id)).toMatchObject({ status: 'processed', rows: 3, interval_minutes: 60 });

    // Assess: the touched month read to merge, every other month once to build its summary.
    expect(seriesReads()).toHaveLength(MONTHS + 1);
    expect(new Set(seriesReads()).size).toBe(MONTHS + 1);
    expect(seriesListings()).toHaveLength(1);
    expect(await listMonthSummaries(site.customer_id, site.site_id)).toHaveLength(MONTHS + 1);

    // Act: the next nowcast, after a 5-hour hole.
    reads.length = 0;
    listings.length = 0;
    const second = await postForm(runtime(), '/upload_nowcast', key, form(site, solarCsv(3, historyEnd + 11 * HOUR)));
    expect(await settled(runtime(), key, second.body.upload_id)).toMatchObject({ status: 'processed', rows: 3 });

    // Assess: one series read (the month it merges into), no listing; coverage equal to the full computation.
    expect(seriesReads()).toEqual([seriesKey(site.customer_id, site.site_id, '2026-06')]);
    expect(seriesListings()).toHaveLength(0);
    const all = await readSiteSeries(site.customer_id, site.site_id);
    expect(all).toHaveLength(history.length + 6);
    const stored = (await getSite(site.customer_id, site.site_id))!.coverage;
    expect(stored).toEqual(coverage(all, 60));
    expect(stored).toMatchObject({ rows: history.length + 6, gap_count: 1, gaps: [{ start: '2026-06-21T03:00:00Z', end: '2026-06-21T07:00:00Z', missing_intervals: 5 }] });
  }, 120_000);

  it('counts gaps across a month boundary when an upload opens a new month', async () => {
    // Prepare: a site with one month of data through the API.
    const { key } = await registerKey(runtime());
    const site = { customer_id: `cust-${uid()}`, site_id: `site-${uid()}`, region: 'eu-central-1', location: 'Berlin' };
    const june = await postForm(runtime(), '/upload_train', key, form(site, solarCsv(48, Date.UTC(2026, 5, 30, 20))));
    await settled(runtime(), key, june.body.upload_id);

    // Act: July data starting two hours after June's last row plus one hole.
    const july = await postForm(runtime(), '/upload_nowcast', key, form(site, solarCsv(3, Date.UTC(2026, 6, 1, 2))));
    await settled(runtime(), key, july.body.upload_id);

    // Assess
    const all = await readSiteSeries(site.customer_id, site.site_id);
    expect((await getSite(site.customer_id, site.site_id))!.coverage).toEqual(coverage(all, 60));
    expect((await getSite(site.customer_id, site.site_id))!.coverage).toMatchObject({ rows: 51, gap_count: 1, gaps: [{ start: '2026-06-30T21:00:00Z', end: '2026-06-30T23:00:00Z', missing_intervals: 3 }] });
  }, 120_000);

  it('keeps counting a site at its own interval when uploads switch resolution, reading only the touched month', async () => {
    // Prepare: three months of hourly history through the API (the site's interval becomes 60 minutes).
    const { key } = await registerKey(runtime());
    const site = { customer_id: `cust-${uid()}`, site_id: `site-${uid()}`, region: 'eu-central-1', location: 'Berlin' };
    const historyEnd = Date.UTC(2026, 5, 20, 23);
    const train = await postForm(runtime(), '/upload_train', key, form(site, solarCsv(90 * 24, historyEnd)));
    expect(await settled(runtime(), key, train.body.upload_id)).toMatchObject({ status: 'processed' });
    const prefix = seriesPrefix(site.customer_id, site.site_id);

    for (const [k, stepMinutes] of [15, 60, 5].entries()) {
      // Act: a nowcast at another resolution (then back), an hour of points each, later each time.
      reads.length = 0;
      listings.length = 0;
      const start = historyEnd + (k + 1) * 2 * HOUR;
      const lines = ['timestamp,power_kw', ...Array.from({ length: 60 / stepMinutes }, (_, i) => `${new Date(start + i * stepMinutes * 60_000).toISOString()},${1 + i}`)];
      const upload = await postForm(runtime(), '/upload_nowcast', key, form(site, lines.join('\n') + '\n'));
      expect(await settled(runtime(), key, upload.body.upload_id)).toMatchObject({ status: 'processed', interval_minutes: stepMinutes });

      // Assess: only the month merged into is read, and the coverage stays at the site's hourly interval.
      expect(reads.filter((r) => r.startsWith(prefix))).toEqual([seriesKey(site.customer_id, site.site_id, '2026-06')]);
      expect(listings).toHaveLength(0);
      const stored = (await getSite(site.customer_id, site.site_id))!.coverage!;
      expect(stored.interval_minutes).toBe(60);
      expect(stored).toEqual(coverage(await readSiteSeries(site.customer_id, site.site_id), 60));
    }
  }, 120_000);
});

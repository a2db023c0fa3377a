/**
 * Processing of a stored upload, run by the bucket's ObjectCreated event (ARCHITECTURE 5, flow 1):
 * standardise the CSV (streaming), merge it into the site's monthly series, update the site's coverage,
 * add weather, publish `data.ingested`, and start what follows (training, detection). A file that cannot
 * be processed is copied to quarantine with the reason on its upload record; nothing is deleted.
 * The same object delivered twice changes nothing: a processed object's ETag is remembered.
 */
import { HOUR_MS } from '../../domain/time';
import { randomUUID } from 'node:crypto';
import { log } from '../../logger';
import { InvalidCsv, combineSummaries, mergeSeries, partitionByMonth, serialiseSeries, standardiseCsv, summariseMonth, type Coverage, type MonthSummary, type StandardRow } from '../../domain/ingest';
import { parseUploadKey, quarantineKey, seriesKey, seriesPrefix, weatherKey } from '../../domain/uploads/object-keys';
import { readSeries } from './site-data';
import { automaticTraining } from '../training/training';
import { publishEvent } from '../../events/event-bus';
import { copyObject, getObjectStream, getObjectTextIfExists, headObject, listKeys, putObject } from '../../store/bucket';
import { listAssetsOfSite } from '../../store/assets-repo';
import { withLock } from '../../store/locks';
import { listMonthSummaries, markSummariesComplete, saveMonthSummaries, summariesComplete } from '../../store/series-summaries-repo';
import { ensureSite, getSite, setCoverage, type SiteRecord } from '../../store/sites-repo';
import { getCustomer } from '../../store/tenants-repo';
import { claimObjectKey, getUpload, retryPromisedReason, saveUpload, updateUpload, uploadIdOfObject, type UploadRecord } from '../../store/uploads-repo';
import { weatherFor } from '../../weather-providers';

/** Begins the reason recorded on a drop-in whose customer no account owns (SPEC: never an ownerless record). */
export const NO_OWNER_REASON = 'No account owns customer';

/**
 * Finds the upload record of an object, creating one for a file dropped straight into the bucket. A drop-in
 * whose customer no account owns is quarantined at once, with its reason on a failed record: processing it
 * would write series, coverage and events that belong to nobody.
 */
async function uploadOf(key: string): Promise<UploadRecord | undefined> {
  const known = await uploadIdOfObject(key);
  if (known) {
    const record = await getUpload(known);
    return record && !record.account_id && !quarantinedForNoOwner(record) ? ownDropIn(record, key) : record;
  }
  const parts = parseUploadKey(key);
  if (!parts) return undefined;
  const uploadId = `upl_${randomUUID()}`;
  if (!(await claimObjectKey(key, uploadId))) return uploadOf(key); // claimed meanwhile by an API upload
  const owner = await getCustomer(parts.customer);
  const now = new Date().toISOString();
  const quarantine = owner ? undefined : quarantineKey(key);
  if (quarantine) await copyObject(key, quarantine);
  const record: UploadRecord = {
    upload_id: uploadId,
    account_id: owner?.account_id ?? '',
    customer_id: owner?.customer_id ?? parts.customer,
    site_id: parts.site,
    kind: parts.kind,
    region: parts.region,
    location: parts.location,
    manufacturer: parts.manufacturer === 'auto' ? null : parts.manufacturer,
    s3_path: key,
    source: 'drop_in',
    status: owner ? 'queued' : 'failed',
    notes: [],
    ...(quarantine ? { reason: noOwnerReason(parts.customer), quarantine_path: quarantine } : {}),
    created_at: now,
    updated_at: now,
  };
  await saveUpload(record);
  return record;
}

const quarantinedForNoOwner = (upload: UploadRecord) => upload.status === 'failed' && upload.reason?.startsWith(NO_OWNER_REASON) === true;

const noOwnerReason = (customer: string) =>
  `${NO_OWNER_REASON} ${customer}: the file was quarantined and not processed; upload data for this customer with an API key first (the first account to use a customer id owns it), then drop the file again under a new key`;

/**
 * A drop-in recorded without an account before ownerless drop-ins were quarantined, met again (re-driven by the
 * reconciler or delivered again): it takes the customer's owner if one exists now, as a drop-in landing now would;
 * otherwise it is quarantined like one, never processed into a record that belongs to nobody.
 */
async function ownDropIn(record: UploadRecord, key: string): Promise<UploadRecord> {
  const owner = await getCustomer(record.customer_id);
  if (owner) {
    await updateUpload(record.upload_id, { account_id: owner.account_id });
    return { ...record, account_id: owner.account_id };
  }
  const quarantine = quarantineKey(key);
  await copyObject(key, quarantine);
  const changes = { status: 'failed' as const, reason: noOwnerReason(record.customer_id), quarantine_path: quarantine };
  await updateUpload(record.upload_id, changes);
  return { ...record, ...changes };
}

async function siteOf(upload: UploadRecord): Promise<SiteRecord> {
  return (
    (await getSite(upload.customer_id, upload.site_id)) ??
    (await ensureSite({ customer_id: upload.customer_id, site_id: upload.site_id, account_id: upload.account_id, location: upload.location, region: upload.region, created_at: upload.created_at }))
  );
}

export async function processUploadedObject(key: string): Promise<void> {
  const upload = await uploadOf(key);
  if (!upload) {
    log.warn('object outside the upload layout left alone', { key });
    return;
  }
  const object = await headObject(key);
  if (!object) return; // gone before we got to it: nothing to process
  if (upload.status === 'processed' && upload.processed_etag === object.etag) return;
  if (quarantinedForNoOwner(upload)) return; // quarantined drop-in delivered again
  const started = Date.now();
  const steps: Record<string, number> = {};
  const timed = async <T>(step: string, work: Promise<T>): Promise<T> => {
    const t = Date.now();
    const out = await work;
    steps[step] = Date.now() - t;
    return out;
  };
  await updateUpload(upload.upload_id, { status: 'processing' });
  const site = await siteOf(upload);
  try {
    const file = await timed('standardise_ms', getObjectStream(key).then((body) => standardiseCsv(body, { manufacturer: upload.manufacturer ?? undefined, timezone: site.timezone ?? 'UTC' })));
    const merged = await timed('merge_ms', mergeIntoSeries(site, file.rows, file.intervalMinutes));
    const weatherNote = await timed('weather_ms', addWeather(site, file.rows).catch((err: Error) => `weather not added: ${err.message}`));
    // Decided before the upload reads processed, so its status shows whether training was queued, and why not.
    const training = await timed('training_ms', automaticTraining(upload, site, merged.coverage));
    await updateUpload(upload.upload_id, {
      status: 'processed',
      training,
      manufacturer: upload.manufacturer ?? file.detectedManufacturer,
      rows: file.rows.length,
      rows_rejected: file.rowsRejected,
      rows_replaced: merged.replaced,
      duplicates_merged: file.duplicatesMerged,
      start: file.start,
      end: file.end,
      interval_minutes: file.intervalMinutes,
      reject_reasons: file.rejectReasons,
      notes: [...(upload.notes ?? []), ...file.notes, ...(weatherNote ? [weatherNote] : [])],
      processed_etag: object.etag,
      reason: undefined,
    });
    await timed('events_ms', afterIngest(upload, site, file.rows.length, merged.coverage));
    log.info('upload processed', { upload_id: upload.upload_id, rows: file.rows.length, total_ms: Date.now() - started, ...steps });
  } catch (err) {
    if (err instanceof InvalidCsv) {
      const quarantine = quarantineKey(key);
      await copyObject(key, quarantine);
      await updateUpload(upload.upload_id, { status: 'failed', reason: `Invalid CSV format: ${err.reason}`, quarantine_path: quarantine });
      return;
    }
    await updateUpload(upload.upload_id, { status: 'failed', reason: retryPromisedReason((err as Error).name) });
    throw err;
  }
}

/**
 * Merges rows into the site's monthly objects under a lease, touching only the months the rows fall in, then
 * updates those months' summaries and combines the site's coverage from all summaries (no other month is read).
 */
async function mergeIntoSeries(site: SiteRecord, rows: StandardRow[], intervalMinutes: number): Promise<{ replaced: number; coverage: Coverage }> {
  return withLock(`series#${site.customer_id}#${site.site_id}`, async () => {
    const [stored, complete] = await Promise.all([listMonthSummaries(site.customer_id, site.site_id), summariesComplete(site.customer_id, site.site_id)]);
    const siteMinutes = coverageInterval(stored, intervalMinutes);
    // Months are independent objects: read, merge and write them concurrently.
    const results = await Promise.all(
      [...partitionByMonth(rows)].map(async ([month, monthRows]) => {
        const key = seriesKey(site.customer_id, site.site_id, month);
        const merged = mergeSeries(await readSeries(key), monthRows);
        await putObject(key, serialiseSeries(merged.rows));
        return { replaced: merged.replaced, summary: summariseMonth(month, merged.rows, siteMinutes) };
      }),
    );
    const replaced = results.reduce((sum, r) => sum + r.replaced, 0);
    const touched = results.flatMap((r) => (r.summary ? [r.summary] : []));
    const cov = await coverageFromSummaries(site, { stored, complete, touched }, siteMinutes);
    await setCoverage(site.customer_id, site.site_id, cov);
    return { replaced, coverage: cov };
  });
}

/**
 * The interval a site's coverage is counted at: the one most of its stored summaries use (its first upload's),
 * so an upload at another resolution (a 5-minute nowcast to an hourly site, or back) re-summarises only the months
 * it touched instead of the whole history; the upload's own interval for a new site.
 */
export function coverageInterval(stored: readonly MonthSummary[], uploadMinutes: number): number {
  const counts = new Map<number, number>();
  for (const s of stored) counts.set(s.interval_minutes, (counts.get(s.interval_minutes) ?? 0) + 1);
  let best = uploadMinutes;
  let most = 0;
  for (const [minutes, count] of counts) if (count > most || (count === most && minutes === uploadMinutes)) [best, most] = [minutes, count];
  return best;
}

/**
 * The site's coverage from its month summaries, with `touched` (just merged) replacing theirs. Built once
 * from the objects, lazily at the next upload: months of a site stored before summaries existed, and months
 * summarised at another interval than the site's (gaps are counted in intervals). Runs under the series lease.
 */
async function coverageFromSummaries(
  site: SiteRecord,
  { stored, complete, touched }: { stored: MonthSummary[]; complete: boolean; touched: MonthSummary[] },
  intervalMinutes: number,
): Promise<Coverage> {
  const { customer_id: customer, site_id: siteId } = site;
  const months = new Map(stored.map((s) => [s.month, s]));
  for (const s of touched) months.set(s.month, s);
  const stale = [...months.values()].filter((s) => s.interval_minutes !== intervalMinutes).map((s) => s.month);
  if (!complete) {
    const prefix = seriesPrefix(customer, siteId);
    for (const key of await listKeys(prefix)) {
      const month = key.slice(prefix.length, prefix.length + 7);
      if (!months.has(month)) stale.push(month);
    }
  }
  const rebuilt: MonthSummary[] = [];
  for (const month of stale) {
    // One month at a time: a long history is summarised without holding it all in memory.
    const summary = summariseMonth(month, await readSeries(seriesKey(customer, siteId, month)), intervalMinutes);
    if (summary) {
      months.set(month, summary);
      rebuilt.push(summary);
    } else months.delete(month);
  }
  await saveMonthSummaries(customer, siteId, [...touched, ...rebuilt]);
  if (!complete) await markSummariesComplete(customer, siteId, new Date().toISOString());
  if (rebuilt.length) log.info('month summaries built from stored series', { customer_id: customer, site_id: siteId, months: rebuilt.length });
  return combineSummaries([...months.values()], intervalMinutes);
}

/** Hourly weather over the upload's span, per month beside the series (needs the site's coordinates). */
async function addWeather(site: SiteRecord, rows: StandardRow[]): Promise<string | undefined> {
  if (site.latitude === undefined || site.longitude === undefined || !rows.length) return site.latitude === undefined ? 'weather not added: the site has no coordinates' : undefined;
  const start = new Date(Math.floor(rows[0].t / HOUR_MS) * HOUR_MS);
  const end = new Date(Math.floor(rows[rows.length - 1].t / HOUR_MS) * HOUR_MS + HOUR_MS);
  const answer = await weatherFor({ latitude: site.latitude, longitude: site.longitude, start, end, timezone: site.timezone });
  const points = answer.points;
  const byMonth = new Map<string, typeof points>();
  for (const p of points) {
    const month = p.timestamp.slice(0, 7);
    const list = byMonth.get(month);
    if (list) list.push(p);
    else byMonth.set(month, [p]);
  }
  for (const [month, monthPoints] of byMonth) {
    const key = weatherKey(site.customer_id, site.site_id, month);
    const existing = JSON.parse((await getObjectTextIfExists(key)) ?? '[]') as typeof points;
    const merged = new Map([...existing, ...monthPoints].map((p) => [p.timestamp, p]));
    await putObject(key, JSON.stringify([...merged.values()].sort((a, b) => a.timestamp.localeCompare(b.timestamp))), 'application/json');
  }
  return `weather added from the ${answer.source} provider${answer.note ? ` (${answer.note})` : ''}`;
}

/** What follows ingestion: the event (which also refreshes the PV specs and tuning, shared/pipelines.ts), detection for a site's assets. */
async function afterIngest(upload: UploadRecord, site: SiteRecord, rows: number, cov: { first: string | null; last: string | null }): Promise<void> {
  const data = { upload_id: upload.upload_id, customer_id: upload.customer_id, site_id: upload.site_id, kind: upload.kind, rows, first: cov.first, last: cov.last };
  await publishEvent('data.ingested', upload.account_id, data);
  if (upload.kind === 'nowcast' && upload.account_id && (await listAssetsOfSite(upload.account_id, site.customer_id, site.site_id)).length) {
    await publishEvent('detection.requested', upload.account_id, data);
  }
}

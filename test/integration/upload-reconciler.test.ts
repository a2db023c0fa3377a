/**
 * The upload reconciler against the embedded stand-ins. The runtime has no bucket trigger, so a raw object
 * written here is never processed: the state a worker leaves behind when it dies mid-upload.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { useRuntime } from '../helpers/runtime';
import { solarCsv } from '../helpers/uploads';
import { PIPELINES } from '../../shared/pipelines';
import { parseSeries, serialiseSeries, standardiseCsv } from '../../shared/domain/ingest';
import { seriesKey, uploadKey } from '../../shared/domain/uploads/object-keys';
import { reconcileUploads } from '../../shared/services/uploads/upload-reconciler';
import { documentClient } from '../../shared/store/aws-clients';
import { getObjectText, putObject } from '../../shared/store/bucket';
import { getItem, setFields } from '../../shared/store/dynamo';
import { keys } from '../../shared/store/keys';
import { LockTimeout, withLock } from '../../shared/store/locks';
import { TTL_ATTRIBUTE, tableName } from '../../shared/store/tables';
import { insertCustomer } from '../../shared/store/tenants-repo';
import { claimObjectKey, getUpload, listInFlightUploads, saveUpload, type UploadRecord, type UploadStatus } from '../../shared/store/uploads-repo';

// S3 answers 500 for every read of the raw files of sites named `flaky-*`: processing fails each time.
jest.mock('../../shared/store/bucket', () => {
  const actual = jest.requireActual('../../shared/store/bucket');
  return {
    ...actual,
    getObjectStream: (key: string) =>
      key.includes('/flaky-') ? Promise.reject(Object.assign(new Error('We encountered an internal error. Please try again.'), { name: 'InternalError' })) : actual.getObjectStream(key),
  };
});

const MINUTE = 60_000;
const uid = () => randomUUID().slice(0, 8);

/** An upload as a dead worker left it: the record at `status`, last touched `minutesAgo`, and its raw object (unless `withObject` is false). */
async function leftInFlight({ status = 'processing' as UploadStatus, minutesAgo = 30, withObject = true, site = `site-${uid()}`, csv = solarCsv(24), reason = undefined as string | undefined } = {}) {
  const customer = `cust-${uid()}`;
  const account = `acct-${uid()}`;
  await insertCustomer({ customer_id: customer, account_id: account, created_at: new Date().toISOString() });
  const key = uploadKey({ kind: 'historical', customer, site, region: 'eu-central-1', location: 'nowhere', manufacturer: 'auto', at: new Date() });
  const uploadId = `upl_${randomUUID()}`;
  const touched = new Date(Date.now() - minutesAgo * MINUTE).toISOString();
  await claimObjectKey(key, uploadId);
  const record: UploadRecord = {
    upload_id: uploadId, account_id: account, customer_id: customer, site_id: site, kind: 'historical', region: 'eu-central-1', location: 'nowhere',
    manufacturer: null, s3_path: key, source: 'drop_in', status, reason, notes: [], created_at: touched, updated_at: touched,
  };
  await saveUpload(record);
  if (withObject) await putObject(key, csv);
  return { uploadId, key, customer, site };
}

/** Time passes: the upload was last touched `minutesAgo`. */
const age = (uploadId: string, minutesAgo: number) => setFields('analytics', keys.upload(uploadId), { updated_at: new Date(Date.now() - minutesAgo * MINUTE).toISOString() });

const seriesOf = async (customer: string, site: string) => parseSeries(await getObjectText(seriesKey(customer, site, '2026-06')));

describe('upload reconciler', () => {
  const runtime = useRuntime({ pipelines: { ...PIPELINES, triggers: [] } });
  beforeAll(async () => runtime().schedules.idle()); // the pass at start, over an empty store

  it('re-drives an upload left processing after its series was merged, to processed with its rows counted once', async () => {
    // Prepare: the worker merged the rows, then died before it recorded the outcome.
    const csv = solarCsv(24);
    const left = await leftInFlight({ csv });
    const rows = (await standardiseCsv(Readable.from([csv]), {})).rows;
    await putObject(seriesKey(left.customer, left.site, '2026-06'), serialiseSeries(rows));

    // Act
    const report = await reconcileUploads();

    // Assess
    expect(report.processed).toContain(left.uploadId);
    expect(await getUpload(left.uploadId)).toMatchObject({ status: 'processed', rows: 24, rows_replaced: 24, reconcile_attempts: 1, start: '2026-06-30T00:00:00Z', end: '2026-06-30T23:00:00Z' });
    expect((await getUpload(left.uploadId))?.reason).toBeUndefined();
    const series = await seriesOf(left.customer, left.site);
    expect(series).toHaveLength(24);
    expect(new Set(series.map((r) => r.t)).size).toBe(24);
    expect((await listInFlightUploads()).map((u) => u.upload_id)).not.toContain(left.uploadId);
  });

  it('re-drives an upload left queued and one whose async retries ran out, which was promised a retry', async () => {
    const queued = await leftInFlight({ status: 'queued' });
    const promised = await leftInFlight({ status: 'failed', reason: 'processing error (TimeoutError); will be retried' });

    const report = await reconcileUploads();

    expect(report.processed).toEqual(expect.arrayContaining([queued.uploadId, promised.uploadId]));
    expect(await getUpload(queued.uploadId)).toMatchObject({ status: 'processed', rows: 24 });
    expect(await getUpload(promised.uploadId)).toMatchObject({ status: 'processed', rows: 24 });
    expect((await getUpload(promised.uploadId))?.reason).toBeUndefined();
  });

  it('fails an upload whose raw object is gone, saying so, and forgets it', async () => {
    const left = await leftInFlight({ withObject: false });

    const report = await reconcileUploads();

    expect(report.failed).toContain(left.uploadId);
    expect(await getUpload(left.uploadId)).toMatchObject({ status: 'failed', reconcile_attempts: 1, reason: `the raw file is no longer in the bucket (${left.key}), so it cannot be processed; upload it again` });
    expect((await listInFlightUploads()).map((u) => u.upload_id)).not.toContain(left.uploadId);
  });

  it('marks an upload that keeps failing failed after the maximum re-drives, with the last error', async () => {
    // Prepare: every read of its raw file fails (S3 500), so each re-drive ends in a promised retry.
    const left = await leftInFlight({ site: `flaky-${uid()}` });

    // Act: three passes, time passing between them
    const outcomes: string[] = [];
    for (let pass = 0; pass < 4; pass++) {
      const report = await reconcileUploads();
      outcomes.push(...Object.entries(report).filter(([, ids]) => ids.includes(left.uploadId)).map(([outcome]) => outcome));
      await age(left.uploadId, 30);
    }

    // Assess: the default maximum is 3
    expect(outcomes).toEqual(['retrying', 'retrying', 'failed']);
    expect(await getUpload(left.uploadId)).toMatchObject({
      status: 'failed',
      reconcile_attempts: 3,
      reason: 'processing did not complete after 3 re-drives (last: processing error (InternalError)); upload the file again',
    });
    expect((await listInFlightUploads()).map((u) => u.upload_id)).not.toContain(left.uploadId);
  });

  it('fails an upload whose re-drives never came back (each killed its worker) without another attempt', async () => {
    const left = await leftInFlight();
    await setFields('analytics', keys.upload(left.uploadId), { reconcile_attempts: 3 });
    await age(left.uploadId, 30);

    expect((await reconcileUploads()).failed).toContain(left.uploadId);
    expect(await getUpload(left.uploadId)).toMatchObject({ status: 'failed', reconcile_attempts: 3, reason: 'processing did not complete after 3 re-drives (last: left processing); upload the file again' });
  });

  it('leaves a fresh in-flight upload alone in the periodic pass, and re-drives it in the pass at start', async () => {
    const left = await leftInFlight({ minutesAgo: 2 });

    const periodic = await reconcileUploads();
    expect(periodic.left).toContain(left.uploadId);
    expect(await getUpload(left.uploadId)).toMatchObject({ status: 'processing' });
    expect((await getUpload(left.uploadId))?.reconcile_attempts).toBeUndefined();

    // At start, everything touched before the process started was left by a process that is gone.
    const atStart = await reconcileUploads({ orphanedBefore: new Date().toISOString() });
    expect(atStart.processed).toContain(left.uploadId);
    expect(await getUpload(left.uploadId)).toMatchObject({ status: 'processed', rows: 24, reconcile_attempts: 1 });
  });

  it('does not wait for the series lease of a dead process: the local runtime takes it over at once', async () => {
    // Prepare: the dead worker held its site's series lease with the old 300 s expiry.
    const left = await leftInFlight();
    await documentClient().send(
      new PutCommand({
        TableName: tableName('analytics'),
        Item: { ...keys.lock(`series#${left.customer}#${left.site}`), holder: 'dead-worker', process: 'a-process-that-is-gone', [TTL_ATTRIBUTE]: Math.floor(Date.now() / 1000) + 300 },
      }),
    );

    // Act
    const started = Date.now();
    const report = await reconcileUploads();

    // Assess
    expect(report.processed).toContain(left.uploadId);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await getItem('analytics', keys.lock(`series#${left.customer}#${left.site}`))).toBeUndefined();
  });

  it('re-drives an upload once when two passes meet: the attempt counted first claims it', async () => {
    const left = await leftInFlight();

    const reports = await Promise.all([reconcileUploads(), reconcileUploads()]);

    // The other pass either lost the claim or read the upload after it was claimed (no longer stale).
    expect(reports.filter((r) => r.processed.includes(left.uploadId))).toHaveLength(1);
    expect(reports.filter((r) => [...r.skipped, ...r.left].includes(left.uploadId))).toHaveLength(1);
    expect(await getUpload(left.uploadId)).toMatchObject({ status: 'processed', rows: 24, reconcile_attempts: 1 });
  });
});

describe('series lease', () => {
  useRuntime({ pipelines: { ...PIPELINES, triggers: [] } });

  it('is renewed while its work runs, so no one else gets it past its lease time', async () => {
    // Prepare: a 2 s lease held for 5 s of work (renewed every ~0.7 s: a loaded CI machine may stall a timer for a second)
    const name = `test#${uid()}`;
    let release!: () => void;
    let acquired!: () => void;
    const held = new Promise<void>((r) => (acquired = r));
    const holding = withLock(name, () => new Promise<void>((r) => ((release = r), acquired())), { leaseSeconds: 2 });
    await held;
    setTimeout(() => release(), 5000);

    // Act / Assess: a second worker waiting 3.5 s, past the lease time, does not get it
    await expect(withLock(name, async () => 'got it', { waitMs: 3500 })).rejects.toBeInstanceOf(LockTimeout);
    await holding;
    await expect(withLock(name, async () => 'got it', { waitMs: 2000 })).resolves.toBe('got it');
  });

  it('is taken over once it lapses when its holder of this process stopped renewing it', async () => {
    // Prepare: a lease of this very process (respected, not orphaned) that nobody renews, 2 s left
    const name = `test#${uid()}`;
    const own = await withLock(name, async () => (await getItem('analytics', keys.lock(name)))!.process);
    await documentClient().send(
      new PutCommand({ TableName: tableName('analytics'), Item: { ...keys.lock(name), holder: 'stalled', process: own, [TTL_ATTRIBUTE]: Math.floor(Date.now() / 1000) + 2 } }),
    );

    // Act
    const started = Date.now();
    await withLock(name, async () => undefined);

    // Assess: it waited for the lapse, and no longer
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(Date.now() - started).toBeLessThan(6000);
  });
});

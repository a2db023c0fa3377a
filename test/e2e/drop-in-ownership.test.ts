/** Files dropped straight into the bucket: processed for an owned customer, quarantined with a reason for one nobody owns. */
import { registerKey, useRuntime } from '../helpers/runtime';
import { form, postForm, settled, solarCsv } from '../helpers/uploads';
import { seriesPrefix } from '../../shared/domain/uploads/object-keys';
import { processUploadedObject } from '../../shared/services/uploads/upload-processing';
import { getObjectText, listKeys, objectExists, putObject } from '../../shared/store/bucket';
import { getCustomer } from '../../shared/store/tenants-repo';
import { getSite } from '../../shared/store/sites-repo';
import { claimObjectKey, getUpload, listInFlightUploads, saveUpload, uploadIdOfObject } from '../../shared/store/uploads-repo';

const uid = () => Math.random().toString(36).slice(2, 10);

describe('drop-ins and customer ownership', () => {
  // Workers on the test's loop: processUploadedObject is also called here directly, under the same series leases.
  const runtime = useRuntime({ env: { LOCAL_WORKER_THREADS: '0' } });

  it('quarantines a drop-in for a customer no account owns, with the reason, and writes nothing for it', async () => {
    // Prepare
    const customer = `nobody-${uid()}`;
    const dropped = `nowcast/${customer}/roof/eu-central-1/berlin/auto/20260630_120000_realtime.csv`;
    expect(await getCustomer(customer)).toBeUndefined();

    // Act
    await putObject(dropped, solarCsv(12));
    await runtime().s3Events.idle();

    // Assess
    const record = await getUpload((await uploadIdOfObject(dropped))!);
    expect(record).toMatchObject({
      source: 'drop_in',
      status: 'failed',
      account_id: '',
      customer_id: customer,
      reason: expect.stringMatching(new RegExp(`^No account owns customer ${customer}: `)),
      quarantine_path: `quarantine/${dropped}`,
    });
    expect(record?.rows).toBeUndefined();
    expect(await getObjectText(`quarantine/${dropped}`)).toBe(solarCsv(12));
    expect(await objectExists(dropped)).toBe(true); // nothing is deleted
    expect(await listKeys(seriesPrefix(customer, 'roof'))).toEqual([]);
    expect(await getSite(customer, 'roof')).toBeUndefined();
    expect((await listInFlightUploads()).map((u) => u.upload_id)).not.toContain(record!.upload_id);
  });

  it('keeps a quarantined drop-in quarantined when its object is delivered again', async () => {
    const customer = `nobody-${uid()}`;
    const dropped = `historical/${customer}/roof/eu-central-1/berlin/auto/20260630_120000_historical.csv`;
    await putObject(dropped, solarCsv(24));
    await runtime().s3Events.idle();
    const first = await getUpload((await uploadIdOfObject(dropped))!);

    await processUploadedObject(dropped); // S3 delivers an event at least once

    expect(await getUpload(first!.upload_id)).toEqual(first);
    expect(await listKeys(seriesPrefix(customer, 'roof'))).toEqual([]);
  });

  it('processes a drop-in for an owned customer into a record of its account', async () => {
    // Prepare: the customer is owned by the account that first uploaded for it.
    const { key } = await registerKey(runtime());
    const customer = `owned-${uid()}`;
    const ack = await postForm(runtime(), '/upload_train', key, form({ customer_id: customer, site_id: 'roof', region: 'eu-central-1', location: 'Berlin' }, solarCsv(2)));
    await settled(runtime(), key, ack.body.upload_id);
    const owner = await getCustomer(customer);
    expect(owner?.account_id).toBeTruthy();

    // Act
    const dropped = `nowcast/${customer}/roof/eu-central-1/berlin/auto/20260630_130000_realtime.csv`;
    await putObject(dropped, solarCsv(12));
    await runtime().s3Events.idle();

    // Assess
    expect(await getUpload((await uploadIdOfObject(dropped))!)).toMatchObject({ source: 'drop_in', status: 'processed', rows: 12, account_id: owner!.account_id, customer_id: customer });
    expect(await objectExists(`quarantine/${dropped}`)).toBe(false);
  });

  describe('a drop-in recorded without an account before quarantine existed, re-driven', () => {
    /** An upload record as the earlier code wrote it for an unowned customer: no account, queued. */
    async function legacyDropIn(customer: string): Promise<{ dropped: string; uploadId: string }> {
      const dropped = `nowcast/${customer}/roof/eu-central-1/berlin/auto/20260630_140000_realtime.csv`;
      const uploadId = `upl_legacy-${uid()}`;
      expect(await claimObjectKey(dropped, uploadId)).toBe(true);
      const now = new Date().toISOString();
      await saveUpload({ upload_id: uploadId, account_id: '', customer_id: customer, site_id: 'roof', kind: 'nowcast', region: 'eu-central-1', location: 'berlin', manufacturer: null, s3_path: dropped, source: 'drop_in', status: 'queued', notes: [], created_at: now, updated_at: now });
      await putObject(dropped, solarCsv(6));
      await runtime().s3Events.idle();
      return { dropped, uploadId };
    }

    it('is quarantined with its reason while no account owns the customer', async () => {
      const customer = `nobody-${uid()}`;
      const { dropped, uploadId } = await legacyDropIn(customer);

      await processUploadedObject(dropped); // the reconciler's re-drive

      expect(await getUpload(uploadId)).toMatchObject({ status: 'failed', account_id: '', reason: expect.stringMatching(new RegExp(`^No account owns customer ${customer}: `)), quarantine_path: `quarantine/${dropped}` });
      expect(await listKeys(seriesPrefix(customer, 'roof'))).toEqual([]);
      expect(await getSite(customer, 'roof')).toBeUndefined();
      expect((await listInFlightUploads()).map((u) => u.upload_id)).not.toContain(uploadId);
    });

    it("takes the owner's account when the customer has one by then", async () => {
      const { key } = await registerKey(runtime());
      const customer = `owned-${uid()}`;
      const ack = await postForm(runtime(), '/upload_train', key, form({ customer_id: customer, site_id: 'roof', region: 'eu-central-1', location: 'Berlin' }, solarCsv(2)));
      await settled(runtime(), key, ack.body.upload_id);
      const owner = await getCustomer(customer);
      const { dropped, uploadId } = await legacyDropIn(customer);

      await processUploadedObject(dropped);

      expect(await getUpload(uploadId)).toMatchObject({ status: 'processed', rows: 6, account_id: owner!.account_id });
    });
  });
});

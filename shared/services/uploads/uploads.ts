/**
 * Accepting uploads (SPEC 4.1, 4.2; ARCHITECTURE 5 flow 1): check the input, claim the customer and the
 * site, store the raw file at the spec's key, record the upload as `queued`. Processing follows from the
 * bucket's ObjectCreated event (services/uploads/upload-processing.ts).
 */
import { randomUUID } from 'node:crypto';
import { config } from '../../config';
import { BadRequest, NotFound, ServiceError } from '../../errors';
import { log } from '../../logger';
import { HEAD_BYTES, InvalidCsv, inspectCsvHead } from '../../domain/ingest';
import { resolveLocation } from '../../domain/locations';
import { slugSegment, uploadKey, type UploadKind } from '../../domain/uploads/object-keys';
import { copyObject, headObject, putObject } from '../../store/bucket';
import { claimObjectKey, getUpload, saveUpload, uploadIdOfObject, type UploadRecord } from '../../store/uploads-repo';
import { listCustomers } from '../../store/tenants-repo';
import { ensureSite } from '../../store/sites-repo';
import type { Caller } from '../../access/authentication';
import { ownedCustomer } from '../accounts/tenants';

export class UploadFailed extends ServiceError {
  readonly status = 500;
  constructor() {
    super('Upload failed');
  }
}

export interface UploadTarget {
  kind: UploadKind;
  customer_id: string;
  site_id: string;
  region: string;
  location: string;
  manufacturer?: string;
  source: UploadRecord['source'];
}

export interface UploadAck {
  status: 'success';
  message: string;
  s3_path: string;
  processing_status: 'queued';
  upload_id: string;
}

export function checkCsv(data: Buffer): void {
  if (!data.length) throw new BadRequest('CSV file is required');
  try {
    // The first bytes are enough to tell a usable file from another: answered before storing.
    inspectCsvHead(data.subarray(0, HEAD_BYTES), { truncated: data.length > HEAD_BYTES });
  } catch (err) {
    if (err instanceof InvalidCsv) throw new BadRequest('Invalid CSV format', { reason: err.reason });
    throw err;
  }
}

/** Claims `<layout>/<YYYYMMDD_HHMMSS>` for this upload; a taken second moves to the next free one. */
async function claimKey(target: UploadTarget, uploadId: string): Promise<string> {
  let at = Date.now();
  for (let attempt = 0; attempt < 120; attempt++, at += 1000) {
    const key = uploadKey({ ...target, customer: target.customer_id, site: target.site_id, manufacturer: target.manufacturer ?? 'auto', at: new Date(at) });
    if (await claimObjectKey(key, uploadId)) return key;
  }
  throw new UploadFailed();
}

/** Stores a new upload: `write` puts the raw object at the claimed key. */
export async function acceptUpload(caller: Caller, target: UploadTarget, write: (key: string) => Promise<void>): Promise<UploadAck> {
  await ownedCustomer(caller, target.customer_id);
  const place = resolveLocation(target.location);
  await ensureSite({
    customer_id: target.customer_id,
    site_id: target.site_id,
    account_id: caller.accountId,
    location: target.location,
    region: target.region,
    ...(place ? { latitude: place.latitude, longitude: place.longitude, timezone: place.timezone } : {}),
    created_at: new Date().toISOString(),
  });
  const uploadId = `upl_${randomUUID()}`;
  const key = await claimKey(target, uploadId);
  const now = new Date().toISOString();
  const record: UploadRecord = {
    upload_id: uploadId,
    account_id: caller.accountId,
    customer_id: target.customer_id,
    site_id: target.site_id,
    kind: target.kind,
    region: target.region,
    location: target.location,
    manufacturer: target.manufacturer ? slugSegment(target.manufacturer) : null,
    s3_path: key,
    source: target.source,
    status: 'queued',
    notes: place ? [] : [`location "${target.location}" was not found in the gazetteer: no weather is added (give a city or "lat,lon")`],
    created_at: now,
    updated_at: now,
  };
  // The record exists before the object, so the ObjectCreated event always finds it.
  await saveUpload(record);
  try {
    await write(key);
  } catch (err) {
    log.error('upload not stored', { upload_id: uploadId, key, err });
    throw new UploadFailed();
  }
  return {
    status: 'success',
    message: `${target.kind === 'nowcast' ? 'Nowcast' : 'Historical'} data received and queued for processing`,
    s3_path: key,
    processing_status: 'queued',
    upload_id: uploadId,
  };
}

export const uploadCsv = (caller: Caller, target: UploadTarget, csv: Buffer) => acceptUpload(caller, target, (key) => putObject(key, csv));

/**
 * Form B: the file is already in the bucket. It must lie under one of the caller's customers (the
 * customer segment of the key layout) and exist; it is copied to a new key of the layout, whose
 * ObjectCreated event processes it like any upload.
 */
export async function uploadFromBucket(caller: Caller, target: UploadTarget, s3Path: string): Promise<UploadAck> {
  const source = s3Path.replace(/^s3:\/\/[^/]+\//, '').replace(/^\/+/, '');
  if (!(await callerOwnsObject(caller, source)) || !(await headObject(source))) throw new NotFound('File not found at s3_path');
  return acceptUpload(caller, target, (key) => copyObject(source, key));
}

/** An object of an upload of the caller's, or one under the customer segment of one of its customers. */
async function callerOwnsObject(caller: Caller, key: string): Promise<boolean> {
  const uploadId = await uploadIdOfObject(key);
  if (uploadId) return (await getUpload(uploadId))?.account_id === caller.accountId;
  const [prefix, customerSegment] = key.split('/');
  if (!['nowcast', 'historical'].includes(prefix) || !customerSegment) return false;
  return (await listCustomers(caller.accountId)).some((c) => slugSegment(c.customer_id) === customerSegment);
}

/** The platform forms carry no customer or site: the account's own default customer and site (README). */
export const defaultCustomerId = (caller: Caller) => `account-${caller.accountId.slice(0, 8)}`;
export const DEFAULT_SITE_ID = 'default';
export const defaultRegion = () => config().AWS_REGION;

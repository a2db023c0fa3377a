/** Upload records (analytics table): what was received, where it is stored, and how processing went. */
import { getItem, getRecord, listIndexed, putItem, putNew, setFields } from './dynamo';
import { keys } from './keys';
import type { UploadKind } from '../domain/uploads/object-keys';

export type UploadStatus = 'queued' | 'processing' | 'processed' | 'failed';

export interface UploadRecord {
  upload_id: string;
  /** Empty for a file dropped into the bucket for a customer nobody has claimed. */
  account_id: string;
  customer_id: string;
  site_id: string;
  kind: UploadKind;
  region: string;
  location: string;
  manufacturer: string | null;
  /** The object key of the raw file. */
  s3_path: string;
  /** How it arrived: multipart, s3_path reference, data points, raw CSV body, or a file dropped into the bucket. */
  source: 'form_a' | 'form_b' | 'data_points' | 'platform_csv' | 'drop_in';
  status: UploadStatus;
  rows?: number;
  rows_rejected?: number;
  rows_replaced?: number;
  duplicates_merged?: number;
  start?: string | null;
  end?: string | null;
  interval_minutes?: number;
  reject_reasons?: string[];
  notes?: string[];
  reason?: string;
  quarantine_path?: string;
  processed_etag?: string;
  /** Whether this upload queued automatic training, and if not why (shared/services/training/training.ts automaticTraining). */
  training?: { queued: boolean; reason: string; job_id?: string; training_progress_url?: string };
  /** Times the upload reconciler re-drove this upload (shared/services/uploads/upload-reconciler.ts). */
  reconcile_attempts?: number;
  created_at: string;
  updated_at: string;
}

/** Reserves an object key for an upload; false when another upload holds it. */
export const claimObjectKey = (objectKey: string, uploadId: string): Promise<boolean> =>
  putNew('analytics', { ...keys.uploadObject(objectKey), upload_id: uploadId });

export async function uploadIdOfObject(objectKey: string): Promise<string | undefined> {
  return (await getItem('analytics', keys.uploadObject(objectKey)))?.upload_id as string | undefined;
}

const RETRY_PROMISED_SUFFIX = '; will be retried';
/** Ends the reason of a failure that promises another attempt: such an upload is still in flight. */
export const RETRY_PROMISED = new RegExp(`${RETRY_PROMISED_SUFFIX}$`);
/** The reason processing records for a transient failure (shared/services/uploads/upload-processing.ts). */
export const retryPromisedReason = (cause: string): string => `processing error (${cause})${RETRY_PROMISED_SUFFIX}`;

/** Queued, processing, or failed with a promised retry: an upload that some worker still owes an outcome. */
export const isInFlight = (u: Pick<UploadRecord, 'status' | 'reason'>): boolean =>
  u.status === 'queued' || u.status === 'processing' || (u.status === 'failed' && RETRY_PROMISED.test(u.reason ?? ''));

/** Sparse GSI entry of an in-flight upload; dropped when it reaches an outcome (processed, failed for good). */
const inFlightIndex = (uploadId: string) => ({ ...keys.inFlightUploadsIndex(), gsi1sk: uploadId });
const IN_FLIGHT_INDEX_FIELDS = ['gsi1pk', 'gsi1sk'];

export const saveUpload = (u: UploadRecord): Promise<void> =>
  putItem('analytics', { ...keys.upload(u.upload_id), ...(isInFlight(u) ? inFlightIndex(u.upload_id) : {}), ...u });

export async function getUpload(uploadId: string): Promise<UploadRecord | undefined> {
  return getRecord<UploadRecord>('analytics', keys.upload(uploadId));
}

/**
 * Sets the given fields (and updated_at) on an upload record; a field given as `undefined` is removed. A new
 * status moves the record into or out of the in-flight index. With `ifUpdatedAt`, only a record left as it
 * was read (its `updated_at`) changes; answers whether it changed.
 */
export async function updateUpload(uploadId: string, patch: Partial<Omit<UploadRecord, 'upload_id'>>, options: { ifUpdatedAt?: string } = {}): Promise<boolean> {
  const remove = Object.entries(patch).filter(([, value]) => value === undefined).map(([field]) => field);
  const inFlight = patch.status !== undefined && isInFlight({ status: patch.status, reason: patch.reason });
  if (patch.status !== undefined && !inFlight) remove.push(...IN_FLIGHT_INDEX_FIELDS);
  const condition = options.ifUpdatedAt === undefined ? {} : { condition: '#c0 = :c0', conditionNames: { '#c0': 'updated_at' }, conditionValues: { ':c0': options.ifUpdatedAt } };
  return setFields('analytics', keys.upload(uploadId), { ...patch, ...(inFlight ? inFlightIndex(uploadId) : {}), updated_at: new Date().toISOString() }, { remove, ...condition });
}

/** Uploads still in flight (isInFlight), read from the sparse index: never more than the work under way. */
export async function listInFlightUploads(): Promise<UploadRecord[]> {
  return listIndexed<UploadRecord>('analytics', keys.inFlightUploadsIndex().gsi1pk);
}

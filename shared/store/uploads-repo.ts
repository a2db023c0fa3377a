/** Upload records (analytics table): what was received, where it is stored, and how processing went. */
import { getItem, putItem, putNew, setFields, withoutKeys } from './dynamo';
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
  created_at: string;
  updated_at: string;
}

/** Reserves an object key for an upload; false when another upload holds it. */
export const claimObjectKey = (objectKey: string, uploadId: string): Promise<boolean> =>
  putNew('analytics', { ...keys.uploadObject(objectKey), upload_id: uploadId });

export async function uploadIdOfObject(objectKey: string): Promise<string | undefined> {
  return (await getItem('analytics', keys.uploadObject(objectKey)))?.upload_id as string | undefined;
}

export const saveUpload = (u: UploadRecord): Promise<void> => putItem('analytics', { ...keys.upload(u.upload_id), ...u });

export async function getUpload(uploadId: string): Promise<UploadRecord | undefined> {
  const item = await getItem('analytics', keys.upload(uploadId));
  return item && withoutKeys<UploadRecord>(item);
}

/** Sets the given fields (and updated_at) on an upload record. */
export async function updateUpload(uploadId: string, patch: Partial<Omit<UploadRecord, 'upload_id'>>): Promise<void> {
  await setFields('analytics', keys.upload(uploadId), { ...patch, updated_at: new Date().toISOString() });
}

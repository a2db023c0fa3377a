/**
 * Batches (analytics table) and their payloads (data bucket). The record holds the state and progress; the
 * request's operations and the results go to the bucket, since a 6 MB request or twenty cleaned series
 * would not fit in a DynamoDB item (400 KB).
 */
import { getObjectTextIfExists, putObject } from './bucket';
import { getRecord, putNew, setFields } from './dynamo';
import type { Tier } from '../domain/accounts/tiers';
import { keys } from './keys';

export type BatchStatus = 'queued' | 'running' | 'completed' | 'failed';

export interface BatchRecord {
  batch_id: string;
  account_id: string;
  /** Who asked, as the worker acts for them: the tier decides quotas and row limits. */
  requested_by: { email: string; tier: Tier };
  execution_mode: 'parallel' | 'sequential';
  status: BatchStatus;
  /** Operations finished (succeeded or failed) and in all. */
  done: number;
  total: number;
  callback_url?: string;
  /** Standard Webhooks secret that signs the callback; never returned after the 202 answer. */
  callback_secret?: string;
  created_at: string;
  started_at?: string;
  finished_at?: string;
  summary?: { succeeded: number; failed: number };
  /** Epoch seconds until which a worker holds the batch (a crashed worker's batch can be taken again after it). */
  lease_until?: number;
  /** When batch.completed was published: a redelivered message publishes only when this is missing. */
  notified_at?: string;
  reason?: string;
}

/** S3 keys of a batch's request and results. */
const payloadKey = (accountId: string, batchId: string, part: 'request' | 'results') => `batches/${accountId}/${batchId}/${part}.json`;

export async function createBatch(batch: BatchRecord): Promise<boolean> {
  return putNew('analytics', { ...keys.batch(batch.account_id, batch.batch_id), ...batch });
}

/** The account's batch, or undefined (also for another account's id). */
export async function getBatch(accountId: string, batchId: string): Promise<BatchRecord | undefined> {
  return getRecord<BatchRecord>('analytics', keys.batch(accountId, batchId));
}

export async function updateBatch(accountId: string, batchId: string, patch: Partial<Omit<BatchRecord, 'batch_id' | 'account_id'>>): Promise<void> {
  await setFields('analytics', keys.batch(accountId, batchId), patch);
}

/** Records progress; never moves it backwards (operations run concurrently and their writes may cross). */
export async function recordBatchProgress(accountId: string, batchId: string, done: number): Promise<void> {
  await setFields('analytics', keys.batch(accountId, batchId), { done }, { condition: 'attribute_exists(pk) AND #c0 < :c0', conditionNames: { '#c0': 'done' }, conditionValues: { ':c0': done } });
}

/** Takes a queued batch for one worker, or one whose worker's lease ran out; false otherwise. */
export async function claimBatch(accountId: string, batchId: string, leaseSeconds: number): Promise<boolean> {
  const now = Math.floor(Date.now() / 1000);
  return setFields(
    'analytics',
    keys.batch(accountId, batchId),
    { status: 'running', lease_until: now + leaseSeconds, started_at: new Date().toISOString(), done: 0 },
    {
      condition: 'attribute_exists(pk) AND (#c0 = :c0 OR (#c0 = :c1 AND #c1 < :c2))',
      conditionNames: { '#c0': 'status', '#c1': 'lease_until' },
      conditionValues: { ':c0': 'queued', ':c1': 'running', ':c2': now },
    },
  );
}

export async function saveBatchPayload(accountId: string, batchId: string, part: 'request' | 'results', value: unknown): Promise<void> {
  await putObject(payloadKey(accountId, batchId, part), JSON.stringify(value), 'application/json');
}

export async function loadBatchPayload<T>(accountId: string, batchId: string, part: 'request' | 'results'): Promise<T | undefined> {
  const text = await getObjectTextIfExists(payloadKey(accountId, batchId, part));
  return text === undefined ? undefined : (JSON.parse(text) as T);
}

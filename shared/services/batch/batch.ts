/**
 * POST /api/batch-process and GET /api/batch/{batch_id} (SPEC 4.1, ARCHITECTURE 9). Each operation runs as
 * its own endpoint would (the same schema, service and quota) for a customer of the caller, and fails alone:
 * the answer lists every operation's result or error in request order. Without callback_url the batch runs
 * in the request; with one it is queued (202), run by functions/workers/run-batch, and its results are sent
 * to the callback as a signed `batch.completed` webhook (shared/services/webhooks/webhook-delivery.ts).
 */
import { randomUUID } from 'node:crypto';
import { newWebhookSecret } from '../../domain/webhooks/signing';
import * as z from 'zod';
import { NotFound, ServiceError, StructuredError } from '../../errors';
import { publishEvent } from '../../events/event-bus';
import { enqueue } from '../../events/queues';
import { log } from '../../logger';
import { validationError } from '../../validation';
import type { BatchOperation, BatchProcessRequest } from '../../schemas/batch';
import type { BatchMessage } from '../../schemas/queue-messages';
import { DispatchOptimizationRequest } from '../../schemas/dispatch';
import { CustomerForecastQuery } from '../../schemas/forecast';
import { InterpolationRequest } from '../../schemas/interpolation';
import {
  claimBatch, createBatch, getBatch, loadBatchPayload, recordBatchProgress, saveBatchPayload, updateBatch, type BatchRecord,
} from '../../store/batches-repo';
import type { Caller } from '../../access/authentication';
import { customerForecast } from '../forecasting/customer-forecast';
import { optimizeDispatch } from '../dispatch/dispatch';
import { storedInterpolationFields, storedOptimizeRequest } from './batch-stored-inputs';
import { interpolate } from '../interpolation/interpolation';
import { ownedCustomer } from '../accounts/tenants';

/** The queue of shared/pipelines.ts that callback batches wait on. */
export const BATCHES_QUEUE = 'batches';
/** Operations running at once in `parallel` mode: bounded, so one batch cannot take every store connection. */
export const BATCH_CONCURRENCY = 4;
/**
 * Bytes of results a batch.completed event may carry: EventBridge entries and SQS messages stop at 256 KB,
 * with room left for the envelope. Larger results are left at GET /api/batch/{batch_id}.
 */
export const MAX_CALLBACK_RESULTS_BYTES = 200_000;
const GENERIC_FAILURE = 'Operation failed';

export type OperationOutcome =
  | { index: number; type: BatchOperation['type']; customer_id: string; status: 'succeeded'; result: unknown }
  | { index: number; type: BatchOperation['type']; customer_id: string; status: 'failed'; error: { status: number; message: string; code?: string } };

export interface BatchSummary {
  succeeded: number;
  failed: number;
}

type ExecutionMode = BatchProcessRequest['execution_mode'];

/** What the worker needs of the request: the operations and how to run them. */
interface StoredBatchRequest {
  execution_mode: ExecutionMode;
  operations: BatchOperation[];
}

const statusUrl = (batchId: string) => `/api/batch/${encodeURIComponent(batchId)}`;

/**
 * Parses an operation's own keys with its endpoint's schema. `rename` maps the endpoint's field names to the
 * operation's, so a message names the key the caller sent (`horizon`, not `horizon_hours`).
 */
function parseOperation<S extends z.ZodType>(schema: S, input: unknown, rename: Record<string, string> = {}): z.infer<S> {
  const out = schema.safeParse(input, { reportInput: true });
  if (out.success) return out.data;
  const issues = out.error.issues.map((issue) => {
    const [head, ...rest] = issue.path;
    return typeof head === 'string' && Object.hasOwn(rename, head) ? { ...issue, path: [rename[head], ...rest] } : issue;
  });
  throw validationError(new z.ZodError(issues), 'operation');
}

const INLINE_FORECASTS = ['solar_forecast', 'load_forecast', 'price_forecast'] as const;

/** An optimize operation carrying all of the dispatch body: run as sent, as before stored inputs existed. */
const isInlineOptimize = (op: BatchOperation) =>
  op.system_config !== undefined && op.forecasts !== null && typeof op.forecasts === 'object' && INLINE_FORECASTS.every((k) => (op.forecasts as Record<string, unknown>)[k] !== undefined);

/** Runs one operation as its endpoint would, for a customer of the caller; returns the endpoint's answer. */
async function runOperation(caller: Caller, op: BatchOperation): Promise<unknown> {
  switch (op.type) {
    case 'forecast': {
      // GET /forecast, with the spec's `horizon` (hours) as its horizon_hours.
      const query = parseOperation(CustomerForecastQuery, { customer_id: op.customer_id, site_id: op.site_id, horizon_hours: op.horizon ?? op.horizon_hours }, { horizon_hours: 'horizon' });
      return customerForecast(caller, query);
    }
    case 'optimize': {
      // POST /api/dispatch-optimization; the spec's `objective` fills optimization_config.objective. What the
      // operation does not send comes from the customer's stored forecasts and battery device.
      if (isInlineOptimize(op)) {
        const config = (op.optimization_config ?? {}) as Record<string, unknown>;
        const request = parseOperation(DispatchOptimizationRequest, {
          forecasts: op.forecasts,
          system_config: op.system_config,
          optimization_config: op.objective === undefined || config.objective !== undefined ? config : { ...config, objective: op.objective },
        });
        await ownedCustomer(caller, op.customer_id);
        return optimizeDispatch(request);
      }
      const { request, inputs } = await storedOptimizeRequest(caller, op);
      return { ...(await optimizeDispatch(parseOperation(DispatchOptimizationRequest, request))), inputs };
    }
    case 'interpolate': {
      // POST /interpolate; `type` names the operation here, so the series' kind is `series_type`. Without
      // `data`, the site's stored series.
      const { type: _operation, series_type, ...fields } = op;
      if (op.data !== undefined) return interpolate(caller, parseOperation(InterpolationRequest, { ...fields, type: series_type }, { type: 'series_type' }));
      const stored = await storedInterpolationFields(caller, op);
      const request = parseOperation(InterpolationRequest, { ...fields, ...stored.fields }, { type: 'series_type' });
      return { ...(await interpolate(caller, request)), inputs: stored.inputs };
    }
  }
}

/** One operation's outcome: its result, or its error as the endpoint would have answered it. */
async function outcomeOf(caller: Caller, op: BatchOperation, index: number, batchId: string): Promise<OperationOutcome> {
  const about = { index, type: op.type, customer_id: op.customer_id };
  try {
    return { ...about, status: 'succeeded', result: await runOperation(caller, op) };
  } catch (err) {
    if (err instanceof StructuredError) return { ...about, status: 'failed', error: { status: err.status, message: err.message, code: err.code } };
    if (err instanceof ServiceError) return { ...about, status: 'failed', error: { status: err.status, message: err.message } };
    log.error('batch operation failed', { batch_id: batchId, ...about, err });
    return { ...about, status: 'failed', error: { status: 500, message: GENERIC_FAILURE } };
  }
}

/** Maps with at most `limit` calls in flight; results in input order. */
async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/** Runs every operation; `onDone` hears the count of finished operations after each one. */
async function runOperations(caller: Caller, batchId: string, request: StoredBatchRequest, onDone: (done: number) => Promise<void> = async () => {}) {
  let done = 0;
  const limit = request.execution_mode === 'sequential' ? 1 : BATCH_CONCURRENCY;
  const results = await mapBounded(request.operations, limit, async (op, i) => {
    const outcome = await outcomeOf(caller, op, i, batchId);
    await onDone(++done);
    return outcome;
  });
  const succeeded = results.filter((r) => r.status === 'succeeded').length;
  return { results, summary: { succeeded, failed: results.length - succeeded } satisfies BatchSummary };
}

const newBatch = (caller: Caller, request: BatchProcessRequest, now: string): BatchRecord => ({
  batch_id: `batch_${randomUUID()}`,
  account_id: caller.accountId,
  requested_by: { email: caller.email, tier: caller.tier },
  execution_mode: request.execution_mode,
  status: 'queued',
  done: 0,
  total: request.operations.length,
  created_at: now,
});

/** POST /api/batch-process without callback_url: runs the batch now and answers its results (200). */
export async function runBatchNow(caller: Caller, request: BatchProcessRequest) {
  const batch = newBatch(caller, request, new Date().toISOString());
  const { results, summary } = await runOperations(caller, batch.batch_id, request);
  const finishedAt = new Date().toISOString();
  // Kept, so GET /api/batch/{batch_id} answers for this batch too.
  await saveBatchPayload(caller.accountId, batch.batch_id, 'results', results);
  await createBatch({ ...batch, status: 'completed', done: batch.total, started_at: batch.created_at, finished_at: finishedAt, summary });
  return { status: 'success', batch_id: batch.batch_id, execution_mode: request.execution_mode, results, summary };
}

/**
 * POST /api/batch-process with callback_url: stores the batch, queues it and answers 202 with its id and,
 * when the caller sent none, the callback's signing secret (shown this once).
 */
export async function acceptBatch(caller: Caller, request: BatchProcessRequest & { callback_url: string }) {
  const generated = request.callback_secret === undefined;
  const batch: BatchRecord = { ...newBatch(caller, request, new Date().toISOString()), callback_url: request.callback_url, callback_secret: request.callback_secret ?? newWebhookSecret() };
  const stored: StoredBatchRequest = { execution_mode: request.execution_mode, operations: request.operations };
  await saveBatchPayload(caller.accountId, batch.batch_id, 'request', stored);
  await createBatch(batch);
  await enqueue(BATCHES_QUEUE, { account_id: caller.accountId, batch_id: batch.batch_id } satisfies BatchMessage);
  return {
    status: 'accepted',
    batch_id: batch.batch_id,
    execution_mode: batch.execution_mode,
    operations: batch.total,
    callback_url: batch.callback_url,
    ...(generated ? { callback_secret: batch.callback_secret } : {}),
    status_url: statusUrl(batch.batch_id),
  };
}

/** GET /api/batch/{batch_id}: another account's batch is reported exactly like a missing one. */
export async function batchStatus(caller: Caller, batchId: string) {
  const batch = await getBatch(caller.accountId, batchId);
  if (!batch) throw new NotFound('Batch not found');
  const results = batch.status === 'completed' ? await loadBatchPayload<OperationOutcome[]>(caller.accountId, batchId, 'results') : undefined;
  return {
    batch_id: batch.batch_id,
    status: batch.status,
    execution_mode: batch.execution_mode,
    progress: { done: batch.done, total: batch.total, fraction: batch.total ? Math.round((batch.done / batch.total) * 1000) / 1000 : 1 },
    created_at: batch.created_at,
    ...(batch.started_at ? { started_at: batch.started_at } : {}),
    ...(batch.finished_at ? { finished_at: batch.finished_at } : {}),
    ...(batch.summary ? { summary: batch.summary } : {}),
    ...(results ? { results } : {}),
    ...(batch.reason ? { reason: batch.reason } : {}),
  };
}

/** The `batch.completed` event's data: what the callback receives, results included while they fit. */
function completionData(batch: BatchRecord, results: OperationOutcome[] | undefined) {
  const base = { batch_id: batch.batch_id, status: batch.status, summary: batch.summary ?? { succeeded: 0, failed: 0 }, status_url: statusUrl(batch.batch_id) };
  if (!results) return base;
  if (Buffer.byteLength(JSON.stringify(results)) <= MAX_CALLBACK_RESULTS_BYTES) return { ...base, results };
  return { ...base, results_omitted: `results larger than ${MAX_CALLBACK_RESULTS_BYTES} bytes: read them at status_url` };
}

async function notify(batch: BatchRecord, results: OperationOutcome[] | undefined): Promise<void> {
  await publishEvent('batch.completed', batch.account_id, completionData(batch, results));
  await updateBatch(batch.account_id, batch.batch_id, { notified_at: new Date().toISOString() });
}

/**
 * Runs a queued batch (functions/workers/run-batch). Idempotent per message: a batch another worker holds
 * is left alone, a finished one is only announced if that had not happened. Throws when the batch could not
 * be run, so SQS sends the message again; the last attempt marks the batch failed and announces it.
 */
export async function runQueuedBatch(message: BatchMessage, attempt: number, maxAttempts: number, leaseSeconds: number): Promise<void> {
  const { account_id: accountId, batch_id: batchId } = message;
  const batch = await getBatch(accountId, batchId);
  if (!batch) {
    log.warn('batch message for an unknown batch dropped', { batch_id: batchId });
    return;
  }
  if (!(await claimBatch(accountId, batchId, leaseSeconds))) {
    const current = (await getBatch(accountId, batchId))!;
    if ((current.status === 'completed' || current.status === 'failed') && !current.notified_at) {
      await notify(current, await loadBatchPayload<OperationOutcome[]>(accountId, batchId, 'results'));
    }
    return;
  }
  try {
    const request = await loadBatchPayload<StoredBatchRequest>(accountId, batchId, 'request');
    if (!request) throw new Error(`batch ${batchId} has no stored request`);
    // The worker acts for the account that asked, with the tier it had then (quotas, row limits).
    const caller: Caller = { accountId, email: batch.requested_by.email, tier: batch.requested_by.tier, keyHash: '' };
    const { results, summary } = await runOperations(caller, batchId, request, (done) => recordBatchProgress(accountId, batchId, done));
    await saveBatchPayload(accountId, batchId, 'results', results);
    const finished: BatchRecord = { ...batch, status: 'completed', done: batch.total, summary, finished_at: new Date().toISOString() };
    await updateBatch(accountId, batchId, { status: 'completed', done: finished.done, summary, finished_at: finished.finished_at, lease_until: 0 });
    await notify(finished, results);
  } catch (err) {
    log.error('batch run failed', { batch_id: batchId, attempt, err });
    if (attempt < maxAttempts) {
      await updateBatch(accountId, batchId, { status: 'queued', lease_until: 0 });
      throw err;
    }
    const failed: BatchRecord = { ...batch, status: 'failed', reason: 'The batch could not be run', finished_at: new Date().toISOString() };
    await updateBatch(accountId, batchId, { status: 'failed', reason: failed.reason, finished_at: failed.finished_at, lease_until: 0 });
    await notify(failed, undefined);
  }
}

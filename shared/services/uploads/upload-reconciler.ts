/**
 * The upload reconciler (ARCHITECTURE 9, durability of local work): an upload that some worker still owes
 * an outcome (`queued`, `processing`, or `failed` with a promised retry) and that nobody has touched for
 * UPLOAD_STALE_MINUTES was left by a worker that died (a killed process, a timed-out Lambda whose async
 * retries ran out). Each is re-driven from its raw object, which is safe because processing is idempotent
 * (a re-put of the object does the same), and after UPLOAD_MAX_RECONCILE_ATTEMPTS re-drives it is marked
 * `failed` with a reason. Runs on a schedule in AWS and locally, and once at the local runtime's start.
 */
import { config } from '../../config';
import { log } from '../../logger';
import { UPLOAD_PROCESSING_TIMEOUT_SECONDS } from '../../pipelines';
import { headObject } from '../../store/bucket';
import { getUpload, isInFlight, listInFlightUploads, RETRY_PROMISED, updateUpload, type UploadRecord } from '../../store/uploads-repo';
import { processUploadedObject } from './upload-processing';
import { MINUTE_MS } from '../../domain/time';

/** One re-drive may take as long as the processing function may run: none starts closer than this to the deadline. */
const REDRIVE_BUDGET_MS = UPLOAD_PROCESSING_TIMEOUT_SECONDS * 1000;

export interface ReconcileOptions {
  /**
   * The local runtime's start (ISO time). That runtime is one process, so an upload last touched before it
   * started was left by a process that is gone: nothing else can be working on it, whatever its age.
   * @default - stale means untouched for UPLOAD_STALE_MINUTES
   */
  orphanedBefore?: string;
  /**
   * Epoch ms by which the pass must end (the function's time-out); stale uploads it cannot reach in time wait
   * for the next pass.
   * @default - no limit
   */
  deadline?: number;
}

/** What one pass did, by upload id. */
export interface ReconcileReport {
  /** Re-driven to `processed`. */
  processed: string[];
  /** Marked `failed`: re-drives exhausted, raw object gone, or the re-drive itself failed for good (an invalid CSV). */
  failed: string[];
  /** Re-driven without an outcome yet, attempts left: the next pass tries again. */
  retrying: string[];
  /** Changed by someone else since this pass read them: left to that worker. */
  skipped: string[];
  /** In flight but not stale yet, or not reached before the deadline. */
  left: string[];
}

type Outcome = Exclude<keyof ReconcileReport, 'left'>;

/** One pass over the in-flight uploads; uploads are re-driven one at a time, oldest first. */
export async function reconcileUploads(options: ReconcileOptions = {}): Promise<ReconcileReport> {
  const cutoff = options.orphanedBefore ?? new Date(Date.now() - config().UPLOAD_STALE_MINUTES * MINUTE_MS).toISOString();
  const report: ReconcileReport = { processed: [], failed: [], retrying: [], skipped: [], left: [] };
  const inFlight = (await listInFlightUploads()).sort((a, b) => a.updated_at.localeCompare(b.updated_at));
  for (const upload of inFlight) {
    if (upload.updated_at >= cutoff) {
      log.debug('in-flight upload left alone: not stale yet', { upload_id: upload.upload_id, status: upload.status, updated_at: upload.updated_at });
      report.left.push(upload.upload_id);
    } else if (options.deadline !== undefined && Date.now() + REDRIVE_BUDGET_MS > options.deadline) {
      log.info('stale upload left for the next pass: no time left in this one', { upload_id: upload.upload_id, status: upload.status });
      report.left.push(upload.upload_id);
    } else {
      report[await reconcileUpload(upload)].push(upload.upload_id);
    }
  }
  const counts = Object.fromEntries(Object.entries(report).map(([k, ids]) => [k, ids.length]));
  if (inFlight.length) log.info('upload reconciler pass', { ...counts, orphaned_before: options.orphanedBefore });
  return report;
}

async function reconcileUpload(upload: UploadRecord): Promise<Outcome> {
  const max = config().UPLOAD_MAX_RECONCILE_ATTEMPTS;
  const attempts = upload.reconcile_attempts ?? 0;
  const fields = { upload_id: upload.upload_id, status: upload.status, updated_at: upload.updated_at, reconcile_attempts: attempts, s3_path: upload.s3_path };
  // Re-drives that never came back (each one killed its worker) leave the upload here.
  if (attempts >= max) return giveUp(upload, attempts);

  // Counting the attempt claims the upload: whoever touched it since this pass read it (a late retry,
  // another pass) has it, and this pass leaves it alone.
  if (!(await updateUpload(upload.upload_id, { reconcile_attempts: attempts + 1 }, { ifUpdatedAt: upload.updated_at }))) {
    log.info('stale upload left alone: it changed since this pass read it', fields);
    return 'skipped';
  }
  if (!(await headObject(upload.s3_path))) {
    await updateUpload(upload.upload_id, { status: 'failed', reason: `the raw file is no longer in the bucket (${upload.s3_path}), so it cannot be processed; upload it again` });
    log.warn('stale upload failed: its raw object is missing', fields);
    return 'failed';
  }

  log.info('stale upload re-driven from its raw object', { ...fields, attempt: attempts + 1, max_attempts: max });
  let error: unknown;
  try {
    await processUploadedObject(upload.s3_path);
  } catch (err) {
    error = err;
  }
  const after = await getUpload(upload.upload_id);
  if (!after) return 'skipped';
  if (!isInFlight(after)) {
    log.info(`re-driven upload ${after.status}`, { ...fields, status: after.status, reason: after.reason, rows: after.rows });
    return after.status === 'processed' ? 'processed' : 'failed';
  }
  if (attempts + 1 >= max) return giveUp(after, attempts + 1, error);
  log.warn('re-driven upload not done yet: the next pass tries again', { ...fields, status: after.status, reason: after.reason, err: error });
  return 'retrying';
}

/** Marks an upload failed for good once its re-drives are used up, saying how it last stood. */
async function giveUp(upload: UploadRecord, attempts: number, error?: unknown): Promise<Outcome> {
  const last = upload.status === 'failed' && upload.reason ? upload.reason.replace(RETRY_PROMISED, '') : `left ${upload.status}${error ? ` by ${(error as Error).name}` : ''}`;
  const reason = `processing did not complete after ${attempts} re-drives (last: ${last}); upload the file again`;
  if (!(await updateUpload(upload.upload_id, { status: 'failed', reason }, { ifUpdatedAt: upload.updated_at }))) {
    log.info('stale upload left alone: it changed since this pass read it', { upload_id: upload.upload_id });
    return 'skipped';
  }
  log.warn('upload failed: re-drives used up', { upload_id: upload.upload_id, reconcile_attempts: attempts, reason, err: error });
  return 'failed';
}

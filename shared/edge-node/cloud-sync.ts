/**
 * Pushes queued objects from the node's local bucket to the cloud bucket (under `edge/<node id>/`), a round
 * at a time: the first failure ends the round (the link is probably down), and the next round waits longer
 * each time (doubling, at most five minutes). What was sent is settled in the outbox; the rest stays queued.
 */
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import path from 'node:path';
import { config } from '../config';
import { log } from '../logger';
import { getObjectBytesIfExists } from '../store/bucket';
import { readJson, writeJsonAtomically } from './json-files';
import type { Outbox } from './outbox';

const MAX_BACKOFF_MS = 300_000;

export interface SyncState {
  last_round_at: string | null;
  last_success_at: string | null;
  last_error: string | null;
  consecutive_failures: number;
  objects_sent: number;
}

const EMPTY_STATE: SyncState = { last_round_at: null, last_success_at: null, last_error: null, consecutive_failures: 0, objects_sent: 0 };

export interface CloudTarget {
  bucket: string;
  endpoint?: string;
  region: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** The configured cloud bucket, or undefined when none is configured. */
export function cloudTarget(): CloudTarget | undefined {
  const c = config();
  if (!c.EDGE_CLOUD_BUCKET) return undefined;
  return {
    bucket: c.EDGE_CLOUD_BUCKET,
    endpoint: c.EDGE_CLOUD_S3_ENDPOINT,
    region: c.EDGE_CLOUD_REGION,
    credentials: c.EDGE_CLOUD_ACCESS_KEY_ID && c.EDGE_CLOUD_SECRET_ACCESS_KEY ? { accessKeyId: c.EDGE_CLOUD_ACCESS_KEY_ID, secretAccessKey: c.EDGE_CLOUD_SECRET_ACCESS_KEY } : undefined,
  };
}

export class CloudSync {
  private client: S3Client | undefined;
  private readonly stateFile: string;

  constructor(
    private readonly outbox: Outbox,
    private readonly nodeId: string,
    stateDir: string,
    private readonly target: CloudTarget | undefined = cloudTarget(),
  ) {
    this.stateFile = path.join(stateDir, 'sync-state.json');
  }

  state(): SyncState {
    return { ...EMPTY_STATE, ...readJson<SyncState>(this.stateFile) };
  }

  /** Delay before the next round: the cadence when healthy, doubling after each failed round. */
  nextDelayMs(intervalMs: number): number {
    const failures = this.state().consecutive_failures;
    return failures === 0 ? intervalMs : Math.min(MAX_BACKOFF_MS, intervalMs * 2 ** failures);
  }

  private cloud(): S3Client {
    // Path style for S3-compatible endpoints (a local stand-in); virtual hosts on AWS.
    this.client ??= new S3Client({ region: this.target!.region, endpoint: this.target!.endpoint, forcePathStyle: Boolean(this.target!.endpoint), credentials: this.target!.credentials, maxAttempts: 2 });
    return this.client;
  }

  /** One round: sends what is queued, oldest first; returns how many were sent. */
  async round(): Promise<number> {
    if (!this.target) throw new Error('no cloud bucket is configured (EDGE_CLOUD_BUCKET)');
    const state = this.state();
    state.last_round_at = new Date().toISOString();
    let sent = 0;
    try {
      for (const entry of this.outbox.entries()) {
        const local = await getObjectBytesIfExists(entry.key);
        if (!local) {
          // Deleted locally before it could be sent (not by the clean-up, which keeps queued keys).
          this.outbox.settle(entry);
          continue;
        }
        await this.cloud().send(new PutObjectCommand({ Bucket: this.target.bucket, Key: `edge/${this.nodeId}/${entry.key}`, Body: local.body, ContentType: local.contentType }));
        this.outbox.settle(entry);
        sent++;
      }
      Object.assign(state, { last_success_at: new Date().toISOString(), last_error: null, consecutive_failures: 0 });
    } catch (err) {
      Object.assign(state, { last_error: (err as Error).message || (err as Error).name, consecutive_failures: state.consecutive_failures + 1 });
      log.warn('edge sync round failed; objects stay queued', { sent, pending: this.outbox.size(), err });
    } finally {
      state.objects_sent += sent;
      writeJsonAtomically(this.stateFile, state);
    }
    return sent;
  }

  close(): void {
    this.client?.destroy();
    this.client = undefined;
  }
}

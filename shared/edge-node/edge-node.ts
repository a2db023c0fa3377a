/**
 * The edge node (EDGE=1): the cloud's interface served on site, plus what only an edge has. Standardised
 * data, results and models made here are queued on disk and pushed to the cloud bucket while `cloud_sync`
 * is on; a periodic clean-up applies `auto_cleanup_days` and `local_storage_limit` without ever removing
 * what is still queued; the status reports measured figures (connectivity probed, disk measured).
 */
import type { S3Event } from 'aws-lambda';
import type { EventEmitter } from 'node:events';
import { readdirSync, lstatSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { config } from '../config';
import { formatBytes, parseStorageSize, planCleanup, type CleanupPlan } from '../domain/edge/storage-policy';
import { isLoopbackHost } from '../domain/webhooks/callback-url';
import { log } from '../logger';
import { deleteObject, listObjects } from '../store/bucket';
import { CloudSync, cloudTarget } from './cloud-sync';
import { EdgeStateFiles, type EdgeSettings } from './edge-settings';
import { Outbox } from './outbox';

/** What the sync carries: standardised series and weather, results, trained models (raw uploads stay local). */
export const SYNCED_PREFIXES = ['series/', 'weather/', 'results/', 'models/'] as const;
const CADENCE: Record<EdgeSettings['performance_mode'], number> = { performance: 1 / 3, balanced: 1, power_saver: 4 };
/** A queued object is sent this soon after it was made, when the link is healthy. */
const KICK_DELAY_MS = 500;

export class EdgeConfigurationError extends Error {}

const isLoopback = (url: string) => isLoopbackHost(new URL(url).hostname);

function diskBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    try {
      total += entry.isDirectory() ? diskBytes(full) : lstatSync(full).size;
    } catch {
      // A file removed while being measured counts as gone.
    }
  }
  return total;
}

export class EdgeNode {
  readonly nodeId: string;
  private readonly files: EdgeStateFiles;
  readonly outbox: Outbox;
  readonly sync: CloudSync;
  private syncTimer: NodeJS.Timeout | undefined;
  private cleanupTimer: NodeJS.Timeout | undefined;
  private round: Promise<number> | undefined;
  private closed = false;
  lastCleanup: (CleanupPlan & { at: string }) | undefined;

  constructor(readonly dataDir: string) {
    this.files = new EdgeStateFiles(path.join(dataDir, 'edge'));
    this.nodeId = this.files.nodeId();
    this.outbox = new Outbox(path.join(dataDir, 'edge', 'outbox'));
    this.sync = new CloudSync(this.outbox, this.nodeId, path.join(dataDir, 'edge'));
  }

  settings(): EdgeSettings {
    return this.files.settings();
  }

  start(objectEvents: EventEmitter): void {
    objectEvents.on('event', (event: S3Event) => {
      for (const record of event.Records) {
        if (record.eventName.startsWith('ObjectCreated')) this.objectCreated(record.s3.object.key);
      }
    });
    this.scheduleSync(0);
    this.cleanupTimer = setInterval(() => void this.cleanup().catch((err) => log.error('edge clean-up failed', { err })), config().EDGE_CLEANUP_INTERVAL_MINUTES * 60_000).unref();
  }

  objectCreated(key: string): void {
    if (!this.settings().cloud_sync || !SYNCED_PREFIXES.some((p) => key.startsWith(p))) return;
    this.outbox.add(key);
    if (this.sync.state().consecutive_failures === 0) this.scheduleSync(KICK_DELAY_MS);
  }

  private intervalMs(): number {
    return config().EDGE_SYNC_INTERVAL_SECONDS * 1000 * CADENCE[this.settings().performance_mode];
  }

  private scheduleSync(delayMs: number): void {
    if (this.closed) return;
    clearTimeout(this.syncTimer);
    this.syncTimer = setTimeout(() => {
      void this.syncNow().finally(() => this.scheduleSync(this.sync.nextDelayMs(this.intervalMs())));
    }, delayMs).unref();
  }

  /** One sync round now (joined if one is running); 0 when sync is off or has no target. */
  async syncNow(): Promise<number> {
    if (!this.settings().cloud_sync || !cloudTarget() || this.outbox.size() === 0) return 0;
    this.round ??= this.sync.round().finally(() => (this.round = undefined));
    return this.round;
  }

  /** Validates and stores new settings; turning sync on queues what was made before. */
  async configure(next: EdgeSettings): Promise<EdgeSettings> {
    if (next.cloud_sync && next.security_level !== 'standard') {
      const insecure = [config().EDGE_CLOUD_URL, config().EDGE_CLOUD_S3_ENDPOINT].filter((u): u is string => Boolean(u) && u!.startsWith('http:') && !isLoopback(u!));
      if (insecure.length) throw new EdgeConfigurationError(`security_level ${next.security_level} syncs over HTTPS only: ${insecure.join(', ')} is plain HTTP`);
    }
    const wasSyncing = this.settings().cloud_sync;
    this.files.saveSettings(next);
    if (next.cloud_sync && !wasSyncing) {
      for (const prefix of SYNCED_PREFIXES) for (const o of await listObjects(prefix)) this.outbox.add(o.key);
    }
    this.scheduleSync(next.cloud_sync ? KICK_DELAY_MS : this.intervalMs());
    await this.cleanup();
    return next;
  }

  /** Applies the retention and the storage limit; queued (unsynced) objects and models are kept. */
  async cleanup(): Promise<CleanupPlan> {
    const s = this.settings();
    const plan = planCleanup(await listObjects(''), this.outbox.keys(), {
      nowMs: Date.now(),
      retentionDays: s.auto_cleanup_days,
      limitBytes: parseStorageSize(s.local_storage_limit)!,
      usedBytes: diskBytes(this.dataDir),
    });
    // One request per key: s3rver's multi-object delete wants a Content-MD5 the SDK no longer sends.
    for (const key of plan.remove) await deleteObject(key);
    this.lastCleanup = { ...plan, at: new Date().toISOString() };
    if (plan.remove.length) log.info('edge clean-up', { removed: plan.remove.length, freed: plan.freed, kept_unsynced: plan.keptUnsynced });
    return plan;
  }

  private async probeCloud(): Promise<{ state: string; latency_ms: number | null; detail: string }> {
    const url = config().EDGE_CLOUD_URL;
    if (!url) return { state: 'not_configured', latency_ms: null, detail: 'EDGE_CLOUD_URL is not set' };
    const started = performance.now();
    try {
      const res = await fetch(new URL('/health', url), { signal: AbortSignal.timeout(config().EDGE_PROBE_TIMEOUT_MS) });
      await res.arrayBuffer();
      return { state: 'connected', latency_ms: Math.round(performance.now() - started), detail: `GET /health answered ${res.status}` };
    } catch (err) {
      return { state: 'unreachable', latency_ms: null, detail: (err as Error).name === 'TimeoutError' ? `no answer within ${config().EDGE_PROBE_TIMEOUT_MS} ms` : (err as Error).message };
    }
  }

  private syncStatus(pending: number): string {
    if (!this.settings().cloud_sync) return 'disabled';
    if (!cloudTarget()) return 'not_configured';
    if (pending === 0) return 'synced';
    return this.sync.state().consecutive_failures > 0 ? 'retrying' : 'pending';
  }

  async status() {
    const settings = this.settings();
    const [cloud, models] = await Promise.all([this.probeCloud(), listObjects('models/')]);
    const used = diskBytes(this.dataDir);
    const pending = this.outbox.size();
    const sync = this.sync.state();
    return {
      edge_node_id: this.nodeId,
      cloud_connectivity: cloud.state,
      local_storage_used: formatBytes(used),
      processing_capability: `${os.cpus().length} cores, ${formatBytes(os.totalmem())} memory, ${settings.performance_mode} mode`,
      sync_status: this.syncStatus(pending),
      // A model is a folder models/<customer>/<site>/<model id>/ of artifact parts.
      models_cached: new Set(models.map((o) => o.key.split('/').slice(0, 4).join('/'))).size,
      details: {
        cloud: { url: config().EDGE_CLOUD_URL ?? null, latency_ms: cloud.latency_ms, detail: cloud.detail },
        storage: { used_bytes: used, limit: settings.local_storage_limit, limit_bytes: parseStorageSize(settings.local_storage_limit), last_cleanup: this.lastCleanup ?? null },
        sync: { pending_objects: pending, target_bucket: cloudTarget()?.bucket ?? null, ...sync },
        settings,
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.syncTimer);
    clearInterval(this.cleanupTimer);
    await this.round?.catch(() => undefined);
    this.sync.close();
  }
}

let current: EdgeNode | undefined;

/** The node this process runs as, when it runs as one (the edge-only routes are served only then). */
export const currentEdgeNode = (): EdgeNode | undefined => current;
export const registerEdgeNode = (node: EdgeNode | undefined): void => {
  current = node;
};

/**
 * The edge node's local storage policy: sizes as operators write them, and which stored objects a
 * clean-up removes. Data still waiting to be synced to the cloud is never removed, whatever its age or the
 * limit; model artifacts are kept while they serve local forecasts.
 */

const UNITS: Record<string, number> = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12, KIB: 1024, MIB: 1024 ** 2, GIB: 1024 ** 3, TIB: 1024 ** 4 };

/** "10GB", "500 MB", "1.5TiB" -> bytes; undefined when it is not a size. Decimal units are SI (1 GB = 10^9 B). */
export function parseStorageSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]i?b|b)\s*$/i.exec(text);
  if (!m) return undefined;
  const bytes = Number(m[1]) * UNITS[m[2].toUpperCase()];
  return Number.isFinite(bytes) && bytes > 0 ? Math.round(bytes) : undefined;
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

export interface StoredObject {
  key: string;
  size: number;
  lastModifiedMs: number;
}

/** Prefixes a clean-up never touches: the models the node forecasts with. */
export const KEPT_PREFIXES = ['models/'] as const;

export interface CleanupPlan {
  /** Keys to delete, oldest first. */
  remove: string[];
  /** Bytes they free. */
  freed: number;
  /** Objects older than the retention that were kept because they are not synced yet. */
  keptUnsynced: number;
  /** True when the node stays above its limit after the plan (everything left is unsynced, a model, or not an object). */
  stillOverLimit: boolean;
}

/**
 * Objects older than `retentionDays` go; then, while `usedBytes` exceeds `limitBytes`, the oldest remaining
 * ones. Neither step removes a pending (unsynced) key or a kept prefix.
 */
export function planCleanup(objects: readonly StoredObject[], pending: ReadonlySet<string>, options: { nowMs: number; retentionDays: number; limitBytes: number; usedBytes: number }): CleanupPlan {
  const removable = objects.filter((o) => !KEPT_PREFIXES.some((p) => o.key.startsWith(p))).sort((a, b) => a.lastModifiedMs - b.lastModifiedMs || a.key.localeCompare(b.key));
  const cutoff = options.nowMs - options.retentionDays * 86_400_000;
  const remove = new Set<string>();
  let freed = 0;
  let keptUnsynced = 0;
  for (const o of removable) {
    if (o.lastModifiedMs >= cutoff) continue;
    if (pending.has(o.key)) keptUnsynced++;
    else {
      remove.add(o.key);
      freed += o.size;
    }
  }
  for (const o of removable) {
    if (options.usedBytes - freed <= options.limitBytes) break;
    if (remove.has(o.key) || pending.has(o.key)) continue;
    remove.add(o.key);
    freed += o.size;
  }
  const order = new Map(removable.map((o, i) => [o.key, i]));
  return { remove: [...remove].sort((a, b) => order.get(a)! - order.get(b)!), freed, keptUnsynced, stillOverLimit: options.usedBytes - freed > options.limitBytes };
}

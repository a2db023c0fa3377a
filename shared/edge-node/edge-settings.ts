/**
 * What an edge node keeps about itself on its own disk (DATA_DIR/edge): its id, created once and kept
 * across restarts, and the settings of POST /api/edge/configure.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { parseStorageSize } from '../domain/edge/storage-policy';
import { readJson, writeJsonAtomically } from './json-files';

export const PERFORMANCE_MODES = ['performance', 'balanced', 'power_saver'] as const;
export const SECURITY_LEVELS = ['standard', 'high', 'maximum'] as const;

export const EdgeSettings = z.object({
  cloud_sync: z.boolean(),
  /** A size such as "10GB" or "500 MB". */
  local_storage_limit: z.string().trim().refine((s) => parseStorageSize(s) !== undefined, { message: 'must be a size such as 10GB or 500MB' }),
  auto_cleanup_days: z.number().int().min(1).max(3650),
  performance_mode: z.enum(PERFORMANCE_MODES),
  /** `high` and `maximum` refuse to sync over plain HTTP except on loopback. */
  security_level: z.enum(SECURITY_LEVELS),
});
export type EdgeSettings = z.infer<typeof EdgeSettings>;

export const DEFAULT_EDGE_SETTINGS: EdgeSettings = { cloud_sync: false, local_storage_limit: '10GB', auto_cleanup_days: 30, performance_mode: 'balanced', security_level: 'standard' };

export class EdgeStateFiles {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /** The node's id: made on first start, the same on every later one. */
  nodeId(): string {
    const file = path.join(this.dir, 'node-id');
    try {
      return readFileSync(file, 'utf8').trim();
    } catch {
      const id = `edge-${randomUUID()}`;
      writeFileSync(file, id, { flag: 'wx' });
      return readFileSync(file, 'utf8').trim();
    }
  }

  settings(): EdgeSettings {
    const stored = EdgeSettings.safeParse(readJson(path.join(this.dir, 'settings.json')));
    return stored.success ? stored.data : DEFAULT_EDGE_SETTINGS;
  }

  saveSettings(settings: EdgeSettings): void {
    writeJsonAtomically(path.join(this.dir, 'settings.json'), settings);
  }
}

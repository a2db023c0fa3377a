/**
 * Objects waiting to be pushed to the cloud, kept on disk (one small file per object key) so that nothing
 * is lost when the link is down or the node restarts. An entry is removed only after the object was stored
 * in the cloud, and only if it was not queued again meanwhile (a newer version then goes on the next round).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { readJson, writeJsonAtomically } from './json-files';

export interface OutboxEntry {
  key: string;
  /** Increases every time the key is queued; the sync compares it before removing the entry. */
  version: number;
  queued_at: string;
}

export class Outbox {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  private file(key: string): string {
    return path.join(this.dir, `${createHash('sha256').update(key).digest('hex')}.json`);
  }

  add(key: string): void {
    const previous = readJson<OutboxEntry>(this.file(key));
    writeJsonAtomically(this.file(key), { key, version: (previous?.version ?? 0) + 1, queued_at: new Date().toISOString() } satisfies OutboxEntry);
  }

  entries(): OutboxEntry[] {
    return readdirSync(this.dir)
      .filter((f) => f.endsWith('.json'))
      .flatMap((f) => readJson<OutboxEntry>(path.join(this.dir, f)) ?? [])
      .sort((a, b) => a.queued_at.localeCompare(b.queued_at));
  }

  keys(): Set<string> {
    return new Set(this.entries().map((e) => e.key));
  }

  /** Removes the entry if it is still the version that was sent. */
  settle(entry: OutboxEntry): void {
    const current = readJson<OutboxEntry>(this.file(entry.key));
    if (current && current.version === entry.version) rmSync(this.file(entry.key), { force: true });
  }

  size(): number {
    return this.entries().length;
  }
}

/** The edge node's clean-up plan: retention and limit, never what is unsynced, never models. */
import { formatBytes, parseStorageSize, planCleanup } from '../../../shared/domain/edge/storage-policy';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 23);
const obj = (key: string, ageDays: number, size = 100) => ({ key, size, lastModifiedMs: NOW - ageDays * DAY });

describe('edge storage sizes', () => {
  it('reads sizes as operators write them, SI and binary', () => {
    expect(parseStorageSize('10GB')).toBe(10e9);
    expect(parseStorageSize('500 MB')).toBe(500e6);
    expect(parseStorageSize('1.5TiB')).toBe(1.5 * 1024 ** 4);
    expect(parseStorageSize('12')).toBeUndefined();
    expect(parseStorageSize('ten gigabytes')).toBeUndefined();
    expect(parseStorageSize('0GB')).toBeUndefined();
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(12_345_678)).toBe('12.3 MB');
  });
});

describe('edge clean-up plan', () => {
  const objects = [obj('series/a/2026-01.csv', 60), obj('series/a/2026-02.csv', 40), obj('results/f/x.json', 10), obj('models/c/s/m1/model.json', 90), obj('series/a/2026-11.csv', 1)];

  it('removes what is older than the retention, except unsynced objects and models', () => {
    const plan = planCleanup(objects, new Set(['series/a/2026-02.csv']), { nowMs: NOW, retentionDays: 30, limitBytes: 1e9, usedBytes: 500 });
    expect(plan.remove).toEqual(['series/a/2026-01.csv']);
    expect(plan.keptUnsynced).toBe(1);
    expect(plan.freed).toBe(100);
  });

  it('then removes the oldest synced objects until under the limit, and says when it cannot get there', () => {
    const plan = planCleanup(objects, new Set(['series/a/2026-11.csv']), { nowMs: NOW, retentionDays: 365, limitBytes: 250, usedBytes: 500 });
    expect(plan.remove).toEqual(['series/a/2026-01.csv', 'series/a/2026-02.csv', 'results/f/x.json']);
    expect(plan.stillOverLimit).toBe(false);
    const stuck = planCleanup(objects, new Set(objects.map((o) => o.key)), { nowMs: NOW, retentionDays: 1, limitBytes: 10, usedBytes: 500 });
    expect(stuck.remove).toEqual([]);
    expect(stuck.stillOverLimit).toBe(true);
  });
});

/** The regulatory store against the embedded DynamoDB: the date-ordered list and the bound on its size. */
import { useRuntime } from '../helpers/runtime';
import { findRegulatoryUpdates, insertRegulatoryUpdate, pruneRegulatoryUpdates } from '../../shared/store/regulatory-repo';
import type { RegulatoryUpdate } from '../../shared/domain/regulatory';

const DAY_MS = 86_400_000;

/** Update `n`, effective `n` days after 2020-01-01; `n` even is EU/DE and low, odd NA/US-CA and high. */
function update(n: number): RegulatoryUpdate {
  const day = new Date(Date.UTC(2020, 0, 1) + n * DAY_MS).toISOString().slice(0, 10);
  return {
    id: `u-${String(n).padStart(3, '0')}`,
    title: `Update ${n}`,
    summary: `Update ${n}.`,
    impact_assessment: 'Assessed.',
    priority: n % 2 ? 'high' : 'low',
    source: 'Regulator',
    effective_date: day,
    document_url: `https://regulator.example.org/${n}`,
    region: n % 2 ? 'NA' : 'EU',
    jurisdiction: n % 2 ? 'US-CA' : 'DE',
    // Every third update has no publication date: `since` then compares its effective date.
    published_at: n % 3 ? `${day}T09:00:00.000Z` : null,
  };
}

const ids = (updates: RegulatoryUpdate[]) => updates.map((u) => u.id);

describe('regulatory store', () => {
  useRuntime();

  beforeAll(async () => {
    for (let n = 0; n < 30; n++) await insertRegulatoryUpdate(update(n));
  });

  it('lists newest effective date first, filtered by region, jurisdiction with subdivisions, priority and date', async () => {
    expect(await findRegulatoryUpdates({}, 3)).toEqual({ updates: [29, 28, 27].map(update), hasMore: true });
    expect(ids((await findRegulatoryUpdates({ region: 'EU' }, 3)).updates)).toEqual(['u-028', 'u-026', 'u-024']);
    expect(ids((await findRegulatoryUpdates({ region: 'US' }, 2)).updates)).toEqual(['u-029', 'u-027']);
    expect(ids((await findRegulatoryUpdates({ region: 'US-CA', priorities: ['high'] }, 2)).updates)).toEqual(['u-029', 'u-027']);
    expect((await findRegulatoryUpdates({ region: 'US-C' }, 2)).updates).toEqual([]);
    expect(ids((await findRegulatoryUpdates({ priorities: ['low'] }, 2)).updates)).toEqual(['u-028', 'u-026']);
    const since = new Date(Date.UTC(2020, 0, 1) + 25 * DAY_MS).toISOString().slice(0, 10);
    expect(await findRegulatoryUpdates({ since }, 10)).toEqual({ updates: [29, 28, 27, 26, 25].map(update), hasMore: false });
  });

  it('deletes all but the newest updates, sparing the named ones, within the most it may delete at once', async () => {
    // Act
    const first = await pruneRegulatoryUpdates(10, new Set(['u-000']), 5);
    const second = await pruneRegulatoryUpdates(10, new Set(['u-000']), 100);

    // Assess
    expect([first, second]).toEqual([5, 14]);
    const left = await findRegulatoryUpdates({}, 100);
    expect(ids(left.updates)).toEqual([...Array.from({ length: 10 }, (_, i) => update(29 - i).id), 'u-000']);
    expect(await pruneRegulatoryUpdates(10, new Set(['u-000']), 100)).toBe(0);
  });
});
